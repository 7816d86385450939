import type { Kysely } from 'kysely';
import { shanghaiDay, type StatisticsTotals, type TaskUserStatisticsQuery } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';
import { inDeptScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The accounts whose counters a caller sees (SPEC §2.16, PRODUCT §3): an administrator the accounts
 * of its data scope, anyone else only itself.
 */
function visibleAccounts(db: Kysely<Database>, caller: Access) {
  const base = db.selectFrom('sys_user as u');
  return caller.isAdmin ? base.where(inDeptScope('u.deptId', caller.deptScope)) : base.where('u.userId', '=', caller.userId);
}

/** Sums over the visible accounts; today / yesterday are Asia/Shanghai days of sync_send_daily. */
export async function statisticsTotals(db: Kysely<Database>, caller: Access, now: number): Promise<StatisticsTotals> {
  const sums = await visibleAccounts(db, caller)
    .select((eb) => [eb.fn.sum<number | string | null>('u.hisTotalSendNum').as('his'), eb.fn.sum<number | string | null>('u.totalSendNum').as('total')])
    .executeTakeFirst();
  const today = shanghaiDay(now);
  const yesterday = shanghaiDay(now - DAY_MS);
  let days = db
    .selectFrom('sync_send_daily as d')
    .innerJoin('sys_user as u', 'u.userId', 'd.userId')
    .select((eb) => ['d.day', eb.fn.sum<number | string | null>('d.sendCount').as('sent'), eb.fn.sum<number | string | null>('d.deliveredCount').as('delivered')])
    .where('d.day', 'in', [today, yesterday])
    .groupBy('d.day');
  days = caller.isAdmin ? days.where(inDeptScope('u.deptId', caller.deptScope)) : days.where('u.userId', '=', caller.userId);
  const dayRows = await days.execute();
  const perDay = new Map(dayRows.map((r) => [r.day, Number(r.sent ?? 0)]));
  return {
    hisTotalCount: Number(sums?.his ?? 0),
    totalCount: Number(sums?.total ?? 0),
    todayCount: perDay.get(today) ?? 0,
    yesterdayCount: perDay.get(yesterday) ?? 0,
    todayDeliveredCount: Number(dayRows.find((r) => r.day === today)?.delivered ?? 0),
  };
}

function withColumns(qb: ReturnType<typeof visibleAccounts>) {
  return qb.select(['u.userId', 'u.userName', 'u.totalSendNum', 'u.smcount', 'u.sucount', 'u.stcount', 'u.socount', 'u.sendNum', 'u.deliveredNum']);
}

export async function listTaskUserStatistics(db: Kysely<Database>, caller: Access, query: TaskUserStatisticsQuery) {
  const filtered = visibleAccounts(db, caller);
  const searches: ListSearch[] = [];
  if (query.userName) searches.push(contains(db, 'sys_user', 'u.userName', query.userName));
  const { rows, ...paged } = await listPage(
    db,
    filtered,
    withColumns,
    { page: query.pageNum, limit: query.pageSize, sortField: '', sortOrder: '', after: query.after },
    { sortColumns: {}, defaultSort: ['u.userId', 'desc'], tieBreaker: 'u.userId', searches },
  );
  return {
    ...paged,
    rows: rows.map((r) => ({
      userId: r.userId, userName: r.userName, totalSendNum: Number(r.totalSendNum), smcount: Number(r.smcount), sucount: Number(r.sucount),
      stcount: Number(r.stcount), socount: Number(r.socount), sendNum: Number(r.sendNum), deliveredNum: Number(r.deliveredNum),
    })),
  };
}
