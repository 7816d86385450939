import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DeptChoice } from '@huiyun/contract';
import { deptChoices } from '../api/dept.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { usePermission } from '../shared/useCurrentUser.ts';
import type { FieldConfig, FieldOption } from './ListPage/index.ts';

export type CompanyOptions = {
  /** The companies the caller may pick (its data scope), as select options. */
  options: FieldOption[];
  /**
   * Whether a screen shows its company column and choice: for the super administrator (who sees every
   * company, and rows of none) and for whoever may pick more than one. Most accounts keep one company:
   * no column, and the server takes the caller's own.
   */
  many: boolean;
  /** The company input of a ListPage search form or dialog: none while `many` is false. */
  fields: (field: Omit<FieldConfig, 'type' | 'options'>) => FieldConfig[];
};

type Options = {
  /** false while the screen does not need the choice (a closed dialog, a caller who may not save). */
  enabled?: boolean;
  /**
   * The caller's companies when the screen's own answer carries them (数据可视化's filter choices, the same
   * list as POST /api/Dept/choices): then nothing more is fetched.
   */
  choices?: readonly DeptChoice[];
};

/**
 * The one rule of when a screen shows its company column and choice (CompanyOptions `many`), given how many
 * companies the caller may pick. useCompanyOptions applies it; a screen whose readers may not read
 * /api/Dept/choices counts the companies its own answer names (对账: those of its 支付配置 choices).
 */
export function useManyCompanies(companies: number): boolean {
  const superAdministrator = usePermission({ account: 'superAdministrator' });
  return superAdministrator || companies > 1;
}

/**
 * The one company choice of every screen (POST /api/Dept/choices) and the one rule of when a screen shows
 * it (`many`). A screen's company filter, field or column goes through this hook; a plain antd form's
 * input is CompanySelect.
 */
export function useCompanyOptions({ enabled = true, choices }: Options = {}): CompanyOptions {
  const query = useQuery({
    queryKey: queryKeys.options('dept', 'choices'),
    queryFn: deptChoices,
    enabled: enabled && choices === undefined,
    staleTime: 60_000,
    meta: { silent: true },
  });
  const list = choices ?? query.data;
  const options = useMemo(() => (list ?? []).map((d) => ({ value: d.deptId, label: d.deptName })), [list]);
  const many = useManyCompanies(options.length);
  const fields = (field: Omit<FieldConfig, 'type' | 'options'>): FieldConfig[] => (many ? [{ ...field, type: 'select', options }] : []);
  return { options, many, fields };
}
