import { Select, type SelectProps } from 'antd';
import type { CompanyOptions } from './useCompanyOptions.ts';

type Props = Omit<SelectProps, 'options'> & { companies: CompanyOptions };

/**
 * The company input of a plain antd form (a ListPage search form or dialog takes `companies.fields`): the
 * choices of useCompanyOptions. The screen shows it only when `companies.many`.
 */
export function CompanySelect({ companies, ...props }: Props) {
  return <Select {...props} options={companies.options} />;
}
