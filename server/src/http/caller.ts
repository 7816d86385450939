import type { MenuNode } from '@huiyun/contract';
import { deptInScope, type DeptScope } from '../db/scope.ts';

// The caller the access check (access-check.ts) resolves for every console route. Loaded by the auth
// module (modules/system/auth/access.ts); the modules import the type from here.

/** Who a logged-in caller is and what it may do: loaded once, then cached (ctx.accessCache). */
export type Access = {
  userId: number;
  userName: string;
  userRealName: string;
  roleId: number;
  roleName: string;
  isAdmin: boolean;
  isSuperAdmin: boolean;
  isLocked: boolean;
  deptId: number | null;
  deptName: string;
  permissions: Set<string>;
  menus: MenuNode[];
  /** The companies this caller's data lives in or it was granted (see db/scope.ts). */
  deptScope: DeptScope;
};

/** The caller's own row (its userId), or one of a company under its administration (its data scope). */
export function ownsOrAdministers(caller: Access, row: { userId: number | null; deptId: number | null }): boolean {
  if (row.userId !== null && row.userId === caller.userId) return true;
  return caller.isAdmin && deptInScope(caller.deptScope, row.deptId);
}
