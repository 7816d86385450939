import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { formatDateTime, type ReplyListQuery, type ReplyRow } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, type Listed, type SelectedRow } from '../../../db/list/paging.ts';
import { contains, likePatternOf, type ListSearch } from '../../../db/list/search.ts';
import { inDeptScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { withinShanghaiDays } from '../../../db/list/day-range.ts';

// 回复记录 (/task/reply): the replies the caller may see, as its tasks (PRODUCT §3): an administrator those
// of the companies in its scope (the super administrator all), anyone else those its own devices received.
// Newest first; each filter narrows an index ending in (receivedAt, id) (migration 0036), the content by
// its search index, the task by the names of the caller's tasks.

type Replies = SelectQueryBuilder<Database & { r: Database['sync_reply'] }, 'r', {}>;

function withColumns(qb: Replies) {
  return qb
    .leftJoin('sys_user as u', 'u.userId', 'r.userId')
    .leftJoin('sync_task as t', 't.taskId', 'r.taskId')
    .select(['r.id', 'r.receivedAt', 'r.phone', 'r.content', 'r.machineCode', 'r.machineName', 'u.userName', 'r.taskId', 't.taskName', 'r.unsubscribed']);
}

type Row = SelectedRow<typeof withColumns>;

function filteredReplies(db: Kysely<Database>, caller: Access, query: ReplyListQuery) {
  let filtered = db.selectFrom('sync_reply as r')
    .where((eb) => (caller.isAdmin ? inDeptScope('r.deptId', caller.deptScope) : eb('r.userId', '=', caller.userId)));
  // A whole number is looked up by the index; a part of one by its digits.
  if (query.phone.length === 11) filtered = filtered.where('r.phone', '=', query.phone);
  else if (query.phone) filtered = filtered.where(sql<SqlBool>`${sql.ref('r.phone')} like ${`%${query.phone}%`}`);
  if (query.machineName) filtered = filtered.where(sql<SqlBool>`lower(${sql.ref('r.machineName')}) like ${likePatternOf(query.machineName)} escape '\\'`);
  if (query.taskName) {
    const named = contains(db, 'sync_task', 'sync_task.taskName', query.taskName).condition;
    filtered = filtered.where('r.taskId', 'in', db.selectFrom('sync_task').select('sync_task.taskId').where(named));
  }
  if (query.unsubscribedOnly) filtered = filtered.where('r.unsubscribed', '=', 1);
  filtered = withinShanghaiDays(filtered, 'r.receivedAt', query.start, query.end);
  return filtered;
}

export async function listReplies(db: Kysely<Database>, caller: Access, query: ReplyListQuery): Promise<Listed<ReplyRow>> {
  const searches: ListSearch[] = [];
  if (query.content) searches.push(contains(db, 'sync_reply', 'r.content', query.content));
  const listed = await listPage(db, filteredReplies(db, caller, query), withColumns, query, {
    sortColumns: {}, defaultSort: ['r.receivedAt', 'desc'], tieBreaker: 'r.id', searches,
  });
  return { ...listed, rows: listed.rows.map(toReplyRow) };
}

function toReplyRow(row: Row): ReplyRow {
  return {
    id: row.id,
    receivedAt: formatDateTime(Number(row.receivedAt)),
    phone: row.phone,
    content: row.content,
    machineCode: row.machineCode,
    machineName: row.machineName,
    userName: row.userName ?? '',
    taskId: row.taskId,
    taskName: row.taskName ?? '',
    unsubscribed: row.unsubscribed === 1,
  };
}
