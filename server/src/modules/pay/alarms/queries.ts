import type { InferResult, Kysely, SelectQueryBuilder } from 'kysely';
import { formatDateTime, payAlarmSortFields, type PayAlarm, type PayAlarmListQuery } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, sortColumnsOf, type Listed } from '../../../db/list/paging.ts';
import { assertDeptInScope, inDeptScope, type DeptScope } from '../../../db/scope.ts';
import { withinShanghaiDays } from '../../../db/list/day-range.ts';

// 支付告警 (/pay/Alarm): the alarms of the caller's companies, newest first. Like 交易订单, every filter
// is an equality (or the time range) read from an index ending in (createTime, alarmId) — migrations
// 0015 and 0019 — and the total is bounded (listPage). An alarm whose order is unknown has deptId 0,
// which lies in no company's scope: the super administrator's only.

const sortColumns = sortColumnsOf(payAlarmSortFields, { table: 'a' });

const alarmColumns = ['a.alarmId', 'a.kind', 'a.orderNo', 'a.machineNo', 'a.deptId', 'd.deptName', 'a.detail', 'a.createTime'] as const;

type Alarms = SelectQueryBuilder<Database & { a: Database['pay_alarm'] }, 'a', {}>;

function withColumns(qb: Alarms) {
  return qb.leftJoin('sys_dept as d', 'd.deptId', 'a.deptId').select(alarmColumns);
}

type AlarmRow = InferResult<ReturnType<typeof withColumns>>[number];

function filteredAlarms(db: Kysely<Database>, scope: DeptScope, query: PayAlarmListQuery) {
  let filtered = db.selectFrom('pay_alarm as a').where(inDeptScope('a.deptId', scope));
  if (query.deptId !== undefined) {
    assertDeptInScope(scope, query.deptId); // a company outside the scope is refused, not shown empty
    filtered = filtered.where('a.deptId', '=', query.deptId);
  }
  if (query.kind) filtered = filtered.where('a.kind', '=', query.kind);
  if (query.orderNo) filtered = filtered.where('a.orderNo', '=', query.orderNo);
  if (query.machineNo) filtered = filtered.where('a.machineNo', '=', query.machineNo);
  filtered = withinShanghaiDays(filtered, 'a.createTime', query.start, query.end);
  return filtered;
}

export async function listPayAlarms(db: Kysely<Database>, scope: DeptScope, query: PayAlarmListQuery): Promise<Listed<PayAlarm>> {
  const listed = await listPage(db, filteredAlarms(db, scope, query), withColumns, query, {
    sortColumns, defaultSort: ['a.createTime', 'desc'], tieBreaker: 'a.alarmId',
  });
  return { ...listed, rows: listed.rows.map(toPayAlarm) };
}

function toPayAlarm(row: AlarmRow): PayAlarm {
  return { ...row, deptName: row.deptName ?? '', createTime: formatDateTime(Number(row.createTime)) };
}
