import { useQuery } from '@tanstack/react-query';
import { listBlacklistDepts } from '../../../api/blacklist.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import type { FieldOption } from '../../../components/ListPage/index.ts';

export type CompanyChoices = { options: FieldOption[]; many: boolean };

/**
 * The companies whose lists the caller may keep. One for most accounts: the screen then shows no
 * company column or choice (the server takes the caller's own company).
 */
export function useBlacklistDepts(): CompanyChoices {
  const query = useQuery({ queryKey: queryKeys.options('dept', 'blacklist'), queryFn: listBlacklistDepts, staleTime: 60_000, meta: { silent: true } });
  const options = (query.data ?? []).map((d) => ({ value: d.deptId, label: d.deptName }));
  return { options, many: options.length > 1 };
}
