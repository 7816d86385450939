import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { messages } from '@huiyun/contract';
import { rolePermissionIds, saveRolePermissions } from '../../../api/permission.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { roleOptionsQuery } from '../../../api/role.ts';
import { useToast } from '../../../shared/toast.tsx';
import { useServerAction } from '../../../shared/useServerAction.ts';

const m = messages.permission;

/**
 * The role chosen in the 权限管理 toolbar and the permissions ticked for it. The ticks live here, not
 * in the table, so they stay while the user pages, sorts or searches; 配置权限 saves exactly them.
 */
export function useRoleGrants() {
  const message = useToast();
  const [roleId, setRoleId] = useState<number | undefined>(undefined);
  const [ticks, setTicks] = useState<Set<number>>(new Set());

  const roles = useQuery({ ...roleOptionsQuery, meta: { errorText: m.rolesLoadFailed } });
  // The role's grants, read anew each time a role is chosen (no cache kept: 角色管理 may have changed them).
  const granted = useQuery({
    queryKey: queryKeys.options('permission', 'granted', roleId ?? 0),
    queryFn: () => rolePermissionIds(roleId!),
    enabled: roleId !== undefined,
    gcTime: 0,
    meta: { errorText: m.grantsLoadFailed },
  });
  useEffect(() => setTicks(new Set(granted.data ?? [])), [granted.data]);

  const toggle = (permissionId: number, on: boolean) =>
    setTicks((prev) => {
      const next = new Set(prev);
      if (on) next.add(permissionId);
      else next.delete(permissionId);
      return next;
    });

  /** Deleted permissions are no longer grantable. */
  const forget = (permissionIds: number[]) =>
    setTicks((prev) => new Set([...prev].filter((id) => !permissionIds.includes(id))));

  const saver = useServerAction('permission', (input: { roleId: number; ids: number[] }) => saveRolePermissions(input.roleId, input.ids));
  const configure = async () => {
    if (roleId === undefined) {
      void message.warning(m.roleRequired);
      return;
    }
    await saver.run({ roleId, ids: [...ticks].sort((a, b) => a - b) }, m.grantFailed);
  };

  return {
    roles: roles.data ?? [], rolesLoading: roles.isFetching, roleId, setRoleId, ticks, loadingTicks: granted.isFetching, toggle, forget, configure,
    saving: saver.pending,
  };
}
