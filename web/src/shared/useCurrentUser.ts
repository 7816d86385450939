import { useQuery } from '@tanstack/react-query';
import { isAdministratorAccount, SUPER_ADMIN_USER_ID, type CurrentUser, type MenuNode } from '@huiyun/contract';
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

/** The permission codes check of the current user (the server enforces them anyway). */
export function usePermission(): (code: string) => boolean {
  const access = useAccess();
  return (permission) => access({ permission });
}

/** Who sees a button or an action (like ant-design-pro's access.ts); the server enforces the same. */
export type Access = {
  /** The permission code it needs. */
  permission?: string;
  /**
   * Which accounts, beyond the permission: 'administrator' (an administrator account: 授权码 and the task
   * sub-accounts are theirs), 'accountOne' (account 1 only: 清空历史).
   */
  account?: 'administrator' | 'accountOne';
};

/** Whether Access lets the user in (nobody while the user is not loaded, but for an open Access). */
export function accessAllows(user: Pick<CurrentUser, 'permissions' | 'code' | 'userId'> | undefined, { permission, account }: Access): boolean {
  return (
    (permission === undefined || (user?.permissions ?? []).includes(permission)) &&
    (account !== 'administrator' || isAdministratorAccount(user)) &&
    (account !== 'accountOne' || user?.userId === SUPER_ADMIN_USER_ID)
  );
}

/** The one check of Access: ListPage applies it to every button and action it is given. */
export function useAccess(): (access: Access) => boolean {
  const { data } = useCurrentUser();
  return (access) => accessAllows(data, access);
}
