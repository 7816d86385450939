import type { Kysely } from 'kysely';
import { LockStatus, RoleId, type MenuNode } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import type { DeptScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';

/** Loads who a logged-in caller is (the Access of http/caller.ts, which the access check sets on the request). */
export async function loadAccess(db: Kysely<Database>, userId: number): Promise<Access | undefined> {
  const user = await db
    .selectFrom('sys_user as u')
    .innerJoin('sys_role as r', 'r.roleId', 'u.roleId')
    .leftJoin('sys_dept as d', 'd.deptId', 'u.deptId')
    .select(['u.userId', 'u.userName', 'u.userRealName', 'u.isLock', 'u.deptId', 'u.roleId', 'r.roleName', 'r.isAdmin', 'd.deptName'])
    .where('u.userId', '=', userId)
    .executeTakeFirst();
  if (!user) return undefined;
  const isSuperAdmin = user.roleId === RoleId.superAdmin;

  // The super administrator holds every code and every menu, so no grant edit can lock it out.
  const permissionRows = isSuperAdmin
    ? await db.selectFrom('sys_permission').select('permission').execute()
    : await db
        .selectFrom('sys_role_permission as rp')
        .innerJoin('sys_permission as p', 'p.permissionId', 'rp.permissionId')
        .select('p.permission')
        .where('rp.roleId', '=', user.roleId)
        .execute();

  const moduleRows = isSuperAdmin
    ? await db.selectFrom('sys_module').selectAll().execute()
    : await db
        .selectFrom('sys_role_right as rr')
        .innerJoin('sys_module as m', 'm.moduleId', 'rr.moduleId')
        .selectAll('m')
        .where('rr.roleId', '=', user.roleId)
        .execute();

  const deptScope: DeptScope = isSuperAdmin ? 'all' : await loadDeptScope(db, user.userId, user.deptId, user.isAdmin === 1);

  return {
    userId: user.userId,
    userName: user.userName,
    userRealName: user.userRealName,
    roleId: user.roleId,
    roleName: user.roleName,
    isAdmin: user.isAdmin === 1,
    isSuperAdmin,
    isLocked: user.isLock === LockStatus.locked,
    deptId: user.deptId,
    deptName: user.deptName ?? '',
    permissions: new Set(permissionRows.map((p) => p.permission)),
    menus: buildMenuTree(moduleRows),
    deptScope,
  };
}

async function loadDeptScope(db: Kysely<Database>, userId: number, ownDeptId: number | null, isAdmin: boolean): Promise<number[]> {
  const granted = isAdmin
    ? (await db.selectFrom('sys_user_dept').select('deptId').where('userId', '=', userId).execute()).map((r) => r.deptId)
    : [];
  return [...new Set([...(ownDeptId == null ? [] : [ownDeptId]), ...granted])].sort((a, b) => a - b);
}

type ModuleRow = { moduleId: number; parentId: number; moduleName: string; moduleIcon: string; moduleUrl: string; moduleOrder: number };

/** Granted modules as a tree, ordered; a group whose parent is not granted still shows at the top. */
function buildMenuTree(rows: ModuleRow[]): MenuNode[] {
  const nodes = new Map<number, MenuNode>(
    rows.map((r) => [r.moduleId, { moduleId: r.moduleId, parentId: r.parentId, moduleName: r.moduleName, moduleIcon: r.moduleIcon, moduleUrl: r.moduleUrl, moduleOrder: r.moduleOrder, children: [] }]),
  );
  const roots: MenuNode[] = [];
  for (const node of nodes.values()) {
    const parent = nodes.get(node.parentId);
    (parent ? parent.children : roots).push(node);
  }
  const sort = (list: MenuNode[]) => {
    list.sort((a, b) => a.moduleOrder - b.moduleOrder || a.moduleId - b.moduleId);
    list.forEach((n) => sort(n.children));
    return list;
  };
  return sort(roots);
}

/** Leaf urls of a menu tree: the screens the caller may open. */
export function menuUrls(menus: MenuNode[]): string[] {
  return menus.flatMap((m) => (m.children.length ? menuUrls(m.children) : [m.moduleUrl]));
}
