import { useQuery } from '@tanstack/react-query';
import type { CurrentUser, MenuNode } from '@huiyun/contract';
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
  const { data } = useCurrentUser();
  const granted = new Set<CurrentUser['permissions'][number]>(data?.permissions ?? []);
  return (code) => granted.has(code);
}
