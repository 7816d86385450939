import { sql, type Kysely, type SqlBool } from 'kysely';
import { blacklistKey, formatDateTime, type BlacklistEntry, type BlacklistListQuery } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, type SelectedRow } from '../../../db/list/paging.ts';
import { assertDeptInScope, inDeptScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';

// Who sees which list (PRODUCT §3): the companies of the caller's data scope — an ordinary account's
// scope is its own company, an administrator's adds those granted to it, the super administrator's all.

function entriesInScope(db: Kysely<Database>, caller: Access) {
  return db.selectFrom('sync_blacklist as b').innerJoin('sys_dept as d', 'd.deptId', 'b.deptId').where(inDeptScope('b.deptId', caller.deptScope));
}

function withColumns(qb: ReturnType<typeof entriesInScope>) {
  return qb.select(['b.deptId', 'd.deptName', 'b.phone', 'b.addUser', 'b.addTime', 'b.source']);
}

export async function listBlacklist(db: Kysely<Database>, caller: Access, query: BlacklistListQuery) {
  let filtered = entriesInScope(db, caller);
  if (query.deptId !== undefined) {
    assertDeptInScope(caller.deptScope, query.deptId); // a company named outside the scope is refused, not shown empty
    filtered = filtered.where('b.deptId', '=', query.deptId);
  }
  // A whole number is looked up by the primary key; a part of one by its digits.
  if (query.phone.length === 11) filtered = filtered.where('b.phone', '=', Number(query.phone));
  else if (query.phone) filtered = filtered.where(sql<SqlBool>`cast(${sql.ref('b.phone')} as varchar(20)) like ${`%${query.phone}%`}`);
  const { rows, ...paged } = await listPage(
    db,
    filtered,
    withColumns,
    { page: query.pageNum, limit: query.pageSize, sortField: '', sortOrder: '', after: query.after },
    { sortColumns: {}, defaultSort: ['b.addTime', 'desc'], tieBreaker: 'b.phone' },
  );
  return { rows: rows.map(toEntry), ...paged };
}

type EntryRow = SelectedRow<typeof withColumns>;

function toEntry(row: EntryRow): BlacklistEntry {
  const phone = String(row.phone); // PostgreSQL answers bigint as text
  return {
    id: blacklistKey(row.deptId, phone),
    deptId: row.deptId,
    deptName: row.deptName,
    phone,
    addUser: row.addUser,
    addTime: formatDateTime(Number(row.addTime)),
    source: row.source,
  };
}

export async function findDept(db: Kysely<Database>, deptId: number) {
  return db.selectFrom('sys_dept').select(['deptId', 'deptName']).where('deptId', '=', deptId).executeTakeFirst();
}
