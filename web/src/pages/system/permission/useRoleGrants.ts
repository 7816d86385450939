import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { messages } from '@huiyun/contract';
import { errorText } from '../../../api/client.ts';
import { rolePermissionIds, saveRolePermissions } from '../../../api/permission.ts';
import { roleOptionsQuery } from '../../../api/role.ts';
import { useToast } from '../../../shared/toast.tsx';

const m = messages.permission;

/**
 * The role chosen in the 权限管理 toolbar and the permissions ticked for it. The ticks live here, not
 * in the table, so they stay while the user pages, sorts or searches; 配置权限 saves exactly them.
 */
export function useRoleGrants() {
  const message = useToast();
  const [roleId, setRoleId] = useState<number | undefined>(undefined);
  const [ticks, setTicks] = useState<Set<number>>(new Set());
  const [loadingTicks, setLoadingTicks] = useState(false);
  const [saving, setSaving] = useState(false);

  const roles = useQuery({ ...roleOptionsQuery, meta: { errorText: m.rolesLoadFailed } });

  useEffect(() => {
    setTicks(new Set());
    if (roleId === undefined) {
      setLoadingTicks(false);
      return;
    }
    let current = true;
    setLoadingTicks(true);
    rolePermissionIds(roleId)
      .then((ids) => current && setTicks(new Set(ids)))
      .catch((error: unknown) => {
        const text = errorText(error, m.grantsLoadFailed);
        if (current && text) void message.error(text);
      })
      .finally(() => current && setLoadingTicks(false));
    return () => {
      current = false;
    };
  }, [roleId, message]);

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

  const configure = async () => {
    if (roleId === undefined) {
      void message.warning(m.roleRequired);
      return;
    }
    setSaving(true);
    try {
      void message.success(await saveRolePermissions(roleId, [...ticks].sort((a, b) => a - b)));
    } catch (error) {
      const text = errorText(error, m.grantFailed);
      if (text) void message.error(text);
    } finally {
      setSaving(false);
    }
  };

  return { roles: roles.data ?? [], rolesLoading: roles.isFetching, roleId, setRoleId, ticks, loadingTicks, toggle, forget, configure, saving };
}
