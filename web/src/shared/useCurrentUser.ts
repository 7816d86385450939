import { useQuery } from '@tanstack/react-query';
import { isAdministratorAccount, RoleId, SUPER_ADMIN_USER_ID, type CurrentUser, type MenuNode } from '@huiyun/contract';
import { fetchCurrentUser } from '../api/auth.ts';
import { getToken } from './session.ts';

/** GET /sync/currentUser, cached per session token. */
export function useCurrentUser() {
  const token = getToken();
  return useQuery({
    queryKey: ['currentUser', token],
    queryFn: fetchCurrentUser,
    enabled: token !== null,
    staleTime: 5 * 60 * 1000,
    // The layout shows a failed load as its error page.
    meta: { silent: true },
  });
}

/** The urls of the screens the user's menu holds. */
export function menuUrls(menus: MenuNode[]): Set<string> {
  const urls = new Set<string>();
  const walk = (nodes: MenuNode[]) => {
    for (const node of nodes) {
      if (node.children?.length) walk(node.children);
      else if (node.moduleUrl) urls.add(node.moduleUrl);
    }
  };
  walk(menus);
  return urls;
}

/** Who sees a button, an action or a screen's part (like ant-design-pro's access.ts); the server enforces the same. */
export type Access = {
  /** The permission code it needs. */
  permission?: string;
  /**
   * Which accounts, beyond the permission: 'administrator' (an administrator account: 授权码 and the task
   * sub-accounts are theirs), 'accountOne' (account 1 only: 清空历史), 'superAdministrator' (the super
   * administrator's role: 新增公司, and the super administrator role as a choice).
   */
  account?: 'administrator' | 'accountOne' | 'superAdministrator';
};

/** Whether Access lets the user in (nobody while the user is not loaded, but for an open Access). */
export function accessAllows(user: Pick<CurrentUser, 'permissions' | 'code' | 'userId' | 'roleId'> | undefined, { permission, account }: Access): boolean {
  return (
    (permission === undefined || (user?.permissions ?? []).includes(permission)) &&
    (account !== 'administrator' || isAdministratorAccount(user)) &&
    (account !== 'accountOne' || user?.userId === SUPER_ADMIN_USER_ID) &&
    (account !== 'superAdministrator' || user?.roleId === RoleId.superAdmin)
  );
}

/**
 * The one permission check of a screen: whether the caller may (a permission code, or an Access with the
 * accounts it is limited to). Buttons and actions given to ListPage, useAllowedEntries or useAllowed name
 * their Access and hide themselves; a screen asks this for anything else (a field, a dialog's part).
 */
export function usePermission(access: string | Access): boolean {
  const { data } = useCurrentUser();
  return accessAllows(data, typeof access === 'string' ? { permission: access } : access);
}

/** The entries (row actions, toolbar buttons) whose Access lets the caller in: how a list of them hides its own. */
export function useAllowed<Entry extends Access>(entries: readonly Entry[]): Entry[] {
  const { data } = useCurrentUser();
  return entries.filter((entry) => accessAllows(data, entry));
}
