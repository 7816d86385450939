import type { Kysely } from 'kysely';
import { formatDateTime, RoleId, roleSortFields, type Role, type RoleListQuery, type RoleOption, type RoleRightNode } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, sortColumnsOf, type SelectedRow } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';
import { inDeptScope, type DeptScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';

const sortColumns = sortColumnsOf(roleSortFields, { table: 'r' });

/** The roles a caller may see and manage: everybody but the super administrator does not get 超级管理员. */
function visibleRoles(db: Kysely<Database>, caller: Access) {
  return db.selectFrom('sys_role as r').$if(!caller.isSuperAdmin, (qb) => qb.where('r.roleId', '!=', RoleId.superAdmin));
}

export async function listRoles(db: Kysely<Database>, caller: Access, query: RoleListQuery) {
  const filtered = visibleRoles(db, caller);
  const searches: ListSearch[] = [];
  if (query.roleName) searches.push(contains(db, 'sys_role', 'r.roleName', query.roleName));
  if (query.roleNo) searches.push(contains(db, 'sys_role', 'r.roleNo', query.roleNo));
  const scope = caller.deptScope;
  const { rows, ...paged } = await listPage(db, filtered, (qb) => roleColumns(qb, scope), query, {
    sortColumns, defaultSort: ['r.roleId', 'desc'], tieBreaker: 'r.roleId', searches,
  });
  return { rows: rows.map(toRole), ...paged };
}

function roleColumns(qb: ReturnType<typeof visibleRoles>, scope: DeptScope) {
  return qb.select((eb) => [
    'r.roleId', 'r.systemNo', 'r.roleNo', 'r.roleName', 'r.isAdmin', 'r.addTime', 'r.editTime',
    eb
      .selectFrom('sys_user as u')
      .select((sub) => sub.fn.countAll().as('n'))
      .whereRef('u.roleId', '=', 'r.roleId')
      .where(inDeptScope('u.deptId', scope))
      .as('userCount'),
  ]);
}
type RoleRow = SelectedRow<typeof roleColumns>;

function toRole(row: RoleRow): Role {
  return {
    roleId: row.roleId,
    systemNo: row.systemNo,
    roleNo: row.roleNo,
    roleName: row.roleName,
    isAdmin: Number(row.isAdmin) === 1,
    userCount: Number(row.userCount ?? 0),
    addTime: formatDateTime(Number(row.addTime)),
    editTime: formatDateTime(Number(row.editTime)),
  };
}

export async function roleOptions(db: Kysely<Database>, caller: Access): Promise<RoleOption[]> {
  return visibleRoles(db, caller).select(['r.roleId', 'r.roleName']).orderBy('r.roleId').execute();
}

export async function findRole(db: Kysely<Database>, roleId: number) {
  return db.selectFrom('sys_role').selectAll().where('roleId', '=', roleId).executeTakeFirst();
}

/** All modules, flat, checked where the role holds them (the super administrator's role holds all). */
export async function roleRightTree(db: Kysely<Database>, roleId: number): Promise<RoleRightNode[]> {
  const modules = await db
    .selectFrom('sys_module')
    .select(['moduleId', 'parentId', 'moduleName', 'isLeaf', 'moduleOrder'])
    .orderBy('parentId')
    .orderBy('moduleOrder')
    .orderBy('moduleId')
    .execute();
  const held =
    roleId === RoleId.superAdmin
      ? new Set(modules.map((m) => m.moduleId))
      : new Set((await db.selectFrom('sys_role_right').select('moduleId').where('roleId', '=', roleId).execute()).map((r) => r.moduleId));
  return modules.map((m) => ({
    id: m.moduleId,
    pId: m.parentId,
    name: m.moduleName,
    open: m.parentId === 0,
    checked: held.has(m.moduleId),
  }));
}

export async function countUsersOfRoles(db: Kysely<Database>, roleIds: number[]): Promise<number> {
  const row = await db
    .selectFrom('sys_user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('roleId', 'in', roleIds)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
