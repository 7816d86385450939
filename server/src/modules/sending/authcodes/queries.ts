import type { Kysely } from 'kysely';
import { AuthCodeUseStatus, capabilitiesOf, formatDateTime, type AuthCode, type AuthCodeListQuery, type TaskUserChoice, type UserDevice } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, type SelectedRow } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';
import { inDeptScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';

/**
 * The codes a caller sees (PRODUCT §3): an administrator those whose owner lies in its data scope,
 * anyone else only the codes it owns.
 */
function visibleCodes(db: Kysely<Database>, caller: Access) {
  const base = db.selectFrom('sync_auth_code as c').innerJoin('sys_user as u', 'u.userId', 'c.authUserId');
  return caller.isAdmin ? base.where(inDeptScope('u.deptId', caller.deptScope)) : base.where('c.authUserId', '=', caller.userId);
}

function withColumns(qb: ReturnType<typeof visibleCodes>) {
  return qb.select(['c.id', 'u.userName', 'c.authCode', 'c.useStatus', 'c.machineCode', 'c.machineName', 'c.dueNum', 'c.dueDate', 'c.dueDateNum', 'c.authUserId']);
}

export async function listAuthCodes(db: Kysely<Database>, caller: Access, query: AuthCodeListQuery) {
  const filtered = visibleCodes(db, caller);
  const searches: ListSearch[] = [];
  if (query.authCode) searches.push(contains(db, 'sync_auth_code', 'c.authCode', query.authCode));
  const { rows, ...paged } = await listPage(
    db,
    filtered,
    withColumns,
    { page: query.pageNum, limit: query.pageSize, sortField: '', sortOrder: '', after: query.after },
    { sortColumns: {}, defaultSort: ['c.id', 'desc'], tieBreaker: 'c.id', searches },
  );
  return { rows: rows.map(toAuthCode), ...paged };
}

type AuthCodeRow = SelectedRow<typeof withColumns>;

function toAuthCode(row: AuthCodeRow): AuthCode {
  return {
    id: row.id,
    userName: row.userName,
    authCode: row.authCode,
    useStatus: row.useStatus,
    machineCode: row.machineCode ?? '',
    machineName: row.machineName ?? '',
    dueNum: Number(row.dueNum),
    dueDateStr: formatDateTime(Number(row.dueDate)),
    dueDateNum: Number(row.dueDateNum),
    authUserId: row.authUserId,
  };
}

export async function findAuthCode(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('sync_auth_code as c')
    .innerJoin('sys_user as u', 'u.userId', 'c.authUserId')
    .select(['c.id', 'c.authCode', 'c.authUserId', 'c.useStatus', 'c.machineCode', 'c.dueNum', 'c.dueDate', 'c.dueDateNum', 'u.deptId as ownerDeptId'])
    .where('c.id', '=', id)
    .executeTakeFirst();
}

/** The owner choices of the add dialog: the accounts of the caller's scope, or just the caller. */
export async function taskUserChoices(db: Kysely<Database>, caller: Access): Promise<TaskUserChoice[]> {
  if (!caller.isAdmin) return [{ userId: caller.userId, userName: caller.userName }];
  return db
    .selectFrom('sys_user')
    .select(['userId', 'userName'])
    .where(inDeptScope('deptId', caller.deptScope))
    .orderBy('userId', 'asc')
    .execute();
}

/** The devices activated by the account's codes (PRODUCT §4: a code binds one device). */
export async function devicesOf(db: Kysely<Database>, userId: number): Promise<UserDevice[]> {
  const rows = await db
    .selectFrom('sync_auth_code')
    .select(['machineCode', 'machineName', 'capabilities'])
    .where('authUserId', '=', userId)
    .where('useStatus', '=', AuthCodeUseStatus.used)
    .where('machineCode', 'is not', null)
    .orderBy('id', 'asc')
    .execute();
  return rows.map((r) => ({ machineCode: r.machineCode ?? '', machineName: r.machineName ?? '', capabilities: capabilitiesOf(r.capabilities) }));
}
