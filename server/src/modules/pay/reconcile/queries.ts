import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import {
  fenToYuan, formatDateTime, messages, orderStatusLabel, reconcileDiffSortFields, reconcileRunSortFields,
  type ReconcileCategory, type ReconcileConfigChoice, type ReconcileDiff, type ReconcileDiffListQuery, type ReconcileResult, type ReconcileRun, type ReconcileRunListQuery,
} from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage, sortColumnsOf, type Listed, type SelectedRow } from '../../../db/list/paging.ts';
import { assertDeptInScope, inDeptScope, type DeptScope } from '../../../db/scope.ts';
import { AppError } from '../../../db/errors.ts';
import { reconcileDb, type ReconcileDatabase } from './tables.ts';

// 对账's lists (runs of the caller's companies, a run's differences), its 支付配置 choices and 标记处理.
// A run belongs to its 支付配置's company (deptId, written with the run): a company administrator sees its
// companies' runs, the super administrator all.

const m = messages.reconcile;
const yuanOrEmpty = (fen: number | string | null) => (fen === null ? '' : fenToYuan(Number(fen)));

// ---- runs ----

const runSortColumns = sortColumnsOf(reconcileRunSortFields, { table: 'r' });
type Runs = SelectQueryBuilder<ReconcileDatabase & { r: ReconcileDatabase['pay_reconcile_run'] }, 'r', {}>;

function runColumns(qb: Runs) {
  return qb.leftJoin('pay_config as c', 'c.id', 'r.configId').leftJoin('sys_dept as d', 'd.deptId', 'r.deptId')
    .select(['r.runId', 'r.day', 'r.configId', 'c.name as configName', 'r.gateway', 'r.deptId', 'd.deptName', 'r.platformCount', 'r.platformAmount',
      'r.gatewayCount', 'r.gatewayAmount', 'r.diffCount', 'r.result', 'r.message', 'r.runBy', 'r.finishTime'])
    // a raw count: bigint on PostgreSQL, answered as text there
    .select(sql<number | string>`(select count(*) from pay_reconcile_diff x where x."runId" = r."runId" and x.handled = 0)`.as('unhandledCount'));
}
type RunRow = SelectedRow<typeof runColumns>;

const toRun = (row: RunRow): ReconcileRun => ({
  ...row, configName: row.configName ?? '', deptName: row.deptName ?? '', platformCount: Number(row.platformCount), gatewayCount: Number(row.gatewayCount),
  platformAmount: fenToYuan(Number(row.platformAmount)), gatewayAmount: fenToYuan(Number(row.gatewayAmount)), diffCount: Number(row.diffCount),
  unhandledCount: Number(row.unhandledCount), result: row.result as ReconcileResult, finishTime: row.finishTime === null ? '' : formatDateTime(Number(row.finishTime)),
});

export async function listRuns(db: Kysely<Database>, scope: DeptScope, query: ReconcileRunListQuery): Promise<Listed<ReconcileRun>> {
  let filtered = reconcileDb(db).selectFrom('pay_reconcile_run as r').where(inDeptScope('r.deptId', scope));
  if (query.deptId !== undefined) {
    assertDeptInScope(scope, query.deptId);
    filtered = filtered.where('r.deptId', '=', query.deptId);
  }
  if (query.configId !== undefined) filtered = filtered.where('r.configId', '=', query.configId);
  if (query.result) filtered = filtered.where('r.result', '=', query.result);
  if (query.start) filtered = filtered.where('r.day', '>=', query.start);
  if (query.end) filtered = filtered.where('r.day', '<=', query.end);
  const listed = await listPage(db, filtered, runColumns, query, { sortColumns: runSortColumns, defaultSort: ['r.day', 'desc'], tieBreaker: 'r.runId' });
  return { ...listed, rows: listed.rows.map(toRun) };
}

/** A run the caller may see: 404 when there is none, 403 outside its scope. */
export async function runInScope(db: Kysely<Database>, scope: DeptScope, runId: number) {
  const run = await reconcileDb(db).selectFrom('pay_reconcile_run').select(['runId', 'deptId', 'day', 'configId']).where('runId', '=', runId).executeTakeFirst();
  if (!run) throw new AppError(m.runMissing, 404);
  assertDeptInScope(scope, run.deptId);
  return run;
}

// ---- differences ----

const diffSortColumns = sortColumnsOf(reconcileDiffSortFields, { table: 'x' });
type Diffs = SelectQueryBuilder<ReconcileDatabase & { x: ReconcileDatabase['pay_reconcile_diff'] }, 'x', {}>;
const diffColumns = (qb: Diffs) => qb.selectAll('x');
type DiffRow = SelectedRow<typeof diffColumns>;

const toDiff = (row: DiffRow): ReconcileDiff => ({
  diffId: Number(row.diffId), runId: Number(row.runId), category: row.category as ReconcileCategory, kind: row.kind as ReconcileDiff['kind'],
  orderNo: String(row.orderNo), refundNo: String(row.refundNo), gatewayTradeNo: String(row.gatewayTradeNo),
  platformAmount: yuanOrEmpty(row.platformAmount), platformStatus: row.platformStatus === null ? '' : orderStatusLabel(Number(row.platformStatus)),
  gatewayAmount: yuanOrEmpty(row.gatewayAmount), gatewayStatus: row.gatewayAmount === null ? '' : row.kind === 'refund' ? m.gatewayRefunded : m.gatewayPaid,
  gatewayTime: row.gatewayTime === null ? '' : formatDateTime(Number(row.gatewayTime)),
  handled: Number(row.handled) === 1 ? 1 : 0, handleNote: String(row.handleNote), handledBy: String(row.handledBy),
  handledTime: row.handledTime === null ? '' : formatDateTime(Number(row.handledTime)),
});

export async function listDiffs(db: Kysely<Database>, scope: DeptScope, query: ReconcileDiffListQuery): Promise<Listed<ReconcileDiff>> {
  await runInScope(db, scope, query.runId);
  let filtered = reconcileDb(db).selectFrom('pay_reconcile_diff as x').where('x.runId', '=', query.runId);
  if (query.category) filtered = filtered.where('x.category', '=', query.category);
  if (query.handled !== undefined) filtered = filtered.where('x.handled', '=', query.handled);
  const listed = await listPage(db, filtered, diffColumns, query, { sortColumns: diffSortColumns, defaultSort: ['x.diffId', 'asc'], tieBreaker: 'x.diffId' });
  return { ...listed, rows: listed.rows.map(toDiff) };
}

/** 标记处理: a note on the difference, who and when. Changes nothing else (never the order). */
export async function handleDiff(db: Kysely<Database>, scope: DeptScope, input: { diffId: number; note: string; by: string; now: number }) {
  const rdb = reconcileDb(db);
  const diff = await rdb.selectFrom('pay_reconcile_diff').select(['diffId', 'runId', 'category', 'orderNo', 'refundNo']).where('diffId', '=', input.diffId).executeTakeFirst();
  if (!diff) throw new AppError(m.diffMissing, 404);
  await runInScope(db, scope, diff.runId);
  await rdb.updateTable('pay_reconcile_diff').set({ handled: 1, handleNote: input.note, handledBy: input.by, handledTime: input.now }).where('diffId', '=', input.diffId).execute();
  return diff;
}

// ---- 支付配置 ----

/** The 支付配置 of the caller's companies, for the 对账 dialog and the list's filter. */
export async function configChoices(db: Kysely<Database>, scope: DeptScope): Promise<ReconcileConfigChoice[]> {
  const rows = await db.selectFrom('pay_config as c').leftJoin('sys_dept as d', 'd.deptId', 'c.deptId').select(['c.id', 'c.name', 'c.gateway', 'd.deptName'])
    .where(inDeptScope('c.deptId', scope)).orderBy('c.id').execute();
  return rows.map((r) => ({ configId: r.id, name: r.name, gateway: r.gateway, deptName: r.deptName ?? '' }));
}

/** The ids the 对账 button runs: the one chosen (404 / 403 as it is missing or outside the scope), or every one in scope. */
export async function configIdsToRun(db: Kysely<Database>, scope: DeptScope, configId: number | undefined): Promise<number[]> {
  if (configId === undefined) return (await configChoices(db, scope)).map((c) => c.configId);
  const config = await db.selectFrom('pay_config').select(['id', 'deptId']).where('id', '=', configId).executeTakeFirst();
  if (!config) throw new AppError(m.configMissing, 404);
  assertDeptInScope(scope, config.deptId);
  return [config.id];
}
