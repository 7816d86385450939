import { sql, type Kysely } from 'kysely';
import type { SalesChartsQuery } from '@huiyun/contract';
import type { Database } from '../../db/schema.ts';
import { assertDeptInScope, inDeptScope, type DeptScope } from '../../db/scope.ts';
import { withChartTables, type RollupName } from './rollup-tables.ts';

// The reads of 数据可视化, all from the rollups (migration 0025), never from pay_order: a chart costs rows
// of (company, terminal, pay type, day), whatever the number of orders behind them.

export type ChartFilters = Pick<SalesChartsQuery, 'deptId' | 'machineNo' | 'payType'>;
export type Summed = { createdCount: number; paidCount: number; paidAmount: number; refundAmount: number };

const sums = [
  sql<string | number>`sum("createdCount")`.as('createdCount'),
  sql<string | number>`sum("paidCount")`.as('paidCount'),
  sql<string | number>`sum("paidAmount")`.as('paidAmount'),
  sql<string | number>`sum("refundAmount")`.as('refundAmount'),
];
const netAmount = sql`sum("paidAmount") - sum("refundAmount")`;

/** PostgreSQL answers sums as text (numeric, bigint): numbers here. */
export const summed = (row: { createdCount: string | number | null; paidCount: string | number | null; paidAmount: string | number | null; refundAmount: string | number | null }): Summed => ({
  createdCount: Number(row.createdCount ?? 0), paidCount: Number(row.paidCount ?? 0), paidAmount: Number(row.paidAmount ?? 0), refundAmount: Number(row.refundAmount ?? 0),
});

/** A company filter outside the caller's scope is refused (403), not shown empty. */
export function checkFilters(scope: DeptScope, filters: ChartFilters) {
  if (filters.deptId !== undefined) assertDeptInScope(scope, filters.deptId);
}

/** The rows of a rollup the filters select (typed as chart_sales_day's columns; goodsName is read by name). */
function rollupRows(db: Kysely<Database>, table: RollupName, scope: DeptScope, filters: ChartFilters, from: number, to: number) {
  let rows = withChartTables(db).selectFrom(table as 'chart_sales_day').where(inDeptScope('deptId', scope)).where('day', '>=', from).where('day', '<=', to);
  if (filters.deptId !== undefined) rows = rows.where('deptId', '=', filters.deptId);
  if (filters.machineNo) rows = rows.where('machineNo', '=', filters.machineNo);
  if (filters.payType !== undefined) rows = rows.where('payType', '=', filters.payType);
  return rows;
}

/** No terminal chosen: the rollup without terminals answers (a row per company, pay type and day). */
const byFilters = (filters: ChartFilters) => (filters.machineNo ? 'chart_sales_day' : 'chart_dept_day');

/** Each day of [from, to] that counted anything, with its sums. */
export async function sumsByDay(db: Kysely<Database>, scope: DeptScope, filters: ChartFilters, from: number, to: number) {
  const rows = await rollupRows(db, byFilters(filters), scope, filters, from, to).select('day').select(sums).groupBy('day').execute();
  return rows.map((r) => ({ day: Number(r.day), ...summed(r) }));
}

export async function sumsByPayType(db: Kysely<Database>, scope: DeptScope, filters: ChartFilters, from: number, to: number) {
  const rows = await rollupRows(db, byFilters(filters), scope, filters, from, to).select('payType').select(sums).groupBy('payType').orderBy('payType').execute();
  return rows.map((r) => ({ payType: r.payType, ...summed(r) }));
}

/** The ten terminals selling most (net of refunds) in [from, to], with their names. */
export async function topMachines(db: Kysely<Database>, scope: DeptScope, filters: ChartFilters, from: number, to: number) {
  const top = await rollupRows(db, 'chart_sales_day', scope, filters, from, to).select('machineNo').select(sums)
    .groupBy('machineNo').having(sql<boolean>`sum("paidCount") > 0 or sum("refundAmount") > 0`).orderBy(netAmount, 'desc').orderBy('machineNo').limit(10).execute();
  if (top.length === 0) return [];
  const names = await db.selectFrom('pay_machine').select(['machineNo', 'machineName']).where('machineNo', 'in', top.map((t) => t.machineNo)).execute();
  const nameOf = new Map(names.map((n) => [n.machineNo, n.machineName]));
  return top.map((r) => ({ key: r.machineNo, name: nameOf.get(r.machineNo) ?? '', ...summed(r) }));
}

/** The ten goods selling most (net of refunds) in [from, to] (chart_goods_day). */
export async function topGoods(db: Kysely<Database>, scope: DeptScope, filters: ChartFilters, from: number, to: number) {
  const top = await rollupRows(db, 'chart_goods_day', scope, filters, from, to).select(sql<string>`"goodsName"`.as('goodsName')).select(sums)
    .groupBy(sql`"goodsName"`).having(sql<boolean>`sum("paidCount") > 0 or sum("refundAmount") > 0`).orderBy(netAmount, 'desc').orderBy(sql`"goodsName"`).limit(10).execute();
  return top.map((r) => ({ key: r.goodsName, name: r.goodsName, ...summed(r) }));
}
