import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RoleId } from '@huiyun/contract';
import { deptChoices } from '../api/dept.ts';
import { queryKeys } from '../api/queryKeys.ts';
import { useCurrentUser } from '../shared/useCurrentUser.ts';
import type { FieldOption } from './ListPage/index.ts';

export type CompanyOptions = {
  /** The companies the caller may pick (its data scope), as select options. */
  options: FieldOption[];
  /**
   * Whether a screen shows its company column and choice: for the super administrator (who sees every
   * company, and rows of none) and for whoever may pick more than one. Most accounts keep one company:
   * no column, and the server takes the caller's own.
   */
  many: boolean;
};

/** The one company choice of every screen (POST /api/Dept/choices); `enabled: false` while it is not needed. */
export function useCompanyOptions({ enabled = true }: { enabled?: boolean } = {}): CompanyOptions {
  const { data: me } = useCurrentUser();
  const query = useQuery({ queryKey: queryKeys.options('dept', 'choices'), queryFn: deptChoices, enabled, staleTime: 60_000, meta: { silent: true } });
  const options = useMemo(() => (query.data ?? []).map((d) => ({ value: d.deptId, label: d.deptName })), [query.data]);
  return { options, many: me?.roleId === RoleId.superAdmin || options.length > 1 };
}
