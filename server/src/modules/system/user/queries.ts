import type { Kysely, SelectQueryBuilder } from 'kysely';
import { formatDateTime, userSortFields, type LockStatus, type User, type UserDeptNode, type UserListQuery } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, sortColumnsOf, type SelectedRow } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';
import { inDeptScope, type DeptScope } from '../../../db/scope.ts';

const sortColumns = sortColumnsOf(userSortFields, { table: 'u', columns: { deptName: 'd.deptName', roleName: 'r.roleName' } });

type Users = SelectQueryBuilder<Database & { u: Database['sys_user'] }, 'u', {}>;

/** A page's columns: the user's, its role's name and its company's (a module constant: listPage templates its statements by it). */
function withColumns(qb: Users) {
  return qb
    .innerJoin('sys_role as r', 'r.roleId', 'u.roleId') // never drops a user: roleId is a required foreign key
    .leftJoin('sys_dept as d', 'd.deptId', 'u.deptId')
    .select([
      'u.userId', 'u.userName', 'u.userRealName', 'u.userSex', 'u.userMobile', 'u.userEmail', 'u.isLock', 'u.deptId',
      'd.deptName', 'u.roleId', 'r.roleName', 'u.systemNo', 'u.addUser', 'u.editUser', 'u.addTime', 'u.editTime',
    ]);
}

/** 用户管理 list: the users of the companies in the caller's data scope, never the password hash. */
export async function listUsers(db: Kysely<Database>, scope: DeptScope, query: UserListQuery) {
  // Filters on sys_user alone, so the count reads one table; the role and company names are joined to the page.
  let filtered = db.selectFrom('sys_user as u').where(inDeptScope('u.deptId', scope));
  if (query.isLock) filtered = filtered.where('u.isLock', '=', query.isLock);
  const searches: ListSearch[] = [];
  if (query.userName) searches.push(contains(db, 'sys_user', 'u.userName', query.userName));
  if (query.userMobile) searches.push(contains(db, 'sys_user', 'u.userMobile', query.userMobile));
  const { rows, ...paged } = await listPage(db, filtered, withColumns, query, { sortColumns, defaultSort: ['u.addTime', 'desc'], tieBreaker: 'u.userId', searches });
  return { rows: rows.map(toUser), ...paged };
}

type UserRow = SelectedRow<typeof withColumns>;

function toUser(row: UserRow): User {
  return {
    ...row,
    isLock: row.isLock as LockStatus,
    deptName: row.deptName ?? '',
    addTime: formatDateTime(Number(row.addTime)),
    editTime: formatDateTime(Number(row.editTime)),
  };
}

/** The companies in the scope as flat tree items (id, pId, name, open, checked). */
export async function companiesInScope(db: Kysely<Database>, scope: DeptScope): Promise<UserDeptNode[]> {
  const rows = await db
    .selectFrom('sys_dept')
    .select(['deptId', 'deptName', 'parentId'])
    .where(inDeptScope('deptId', scope))
    .orderBy('deptId')
    .execute();
  return rows.map((r) => ({ id: r.deptId, pId: r.parentId, name: r.deptName, open: true, checked: false }));
}

export async function grantedDeptIds(db: Kysely<Database>, userId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('sys_user_dept').select('deptId').where('userId', '=', userId).execute();
  return new Set(rows.map((r) => r.deptId));
}
