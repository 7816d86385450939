import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { dayRollups } from './0025_sales_rollups.ts';
import { backfillRollup, createRollupTable, dropRollupTriggerSql, rollupTriggerSql, type RollupTable } from './sales-rollup-sql.ts';

// 数据可视化 at scale: the rollups of 0025 per Asia/Shanghai month (YYYYMM), so that a 月 or 年 view,
// the whole months of a 日 view and the top-10s read a row per (key, month) instead of one per (key, day).
// Kept exactly like the day rollups: the triggers of 0025 are recreated over all six rollups (one trigger, one
// transaction with the order change), and the orders already there are counted by the backfill.
const monthRollups: RollupTable[] = [
  { name: 'chart_sales_month', key: ['deptId', 'machineNo', 'payType'], period: 'month' },
  // the goods top-10 of no one terminal (a terminal's goods read chart_goods_day: a few rows a day)
  { name: 'chart_goods_month', key: ['deptId', 'payType', 'goodsName'], period: 'month' },
  { name: 'chart_dept_month', key: ['deptId', 'payType'], period: 'month' },
];
export const salesRollups = [...dayRollups, ...monthRollups];

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  for (const statement of dropRollupTriggerSql(dialect)) await sql.raw(statement).execute(db);
  for (const table of monthRollups) await createRollupTable(db, table);
  for (const statement of rollupTriggerSql(dialect, salesRollups)) await sql.raw(statement).execute(db);
  for (const table of monthRollups) await backfillRollup(db, dialect, table);
}

/** Counts every order into the (empty) rollups: bench/charts.ts after a bulk seed that bypassed the triggers. */
export async function backfillSalesRollups(db: Kysely<any>): Promise<void> {
  for (const table of salesRollups) await backfillRollup(db, dialectOf(db), table);
}
