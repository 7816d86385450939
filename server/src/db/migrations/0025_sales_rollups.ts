import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { backfillRollup, createRollupTable, rollupTriggerSql, type RollupTable } from './sales-rollup-sql.ts';

// 数据可视化: what the charts read, kept by triggers on pay_order in the transaction of the order
// change they count (the order module knows nothing of them), per (company, terminal, pay type, Asia/Shanghai
// day): orders created (the "clicks": a QR code shown), paid (count and amount, on the day of payment) and
// refunded (on the day the refund succeeded). chart_goods_day adds the goods to that key for the goods
// top-10 only; chart_dept_day leaves the terminal out, for the views of no one terminal. Orders made before this migration are
// counted by its backfill, in the same transaction as the triggers' creation. (Migration 0031 adds month rollups
// and recreates the triggers over all of them.)
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of dayRollups) await createRollupTable(db, table);
  for (const statement of rollupTriggerSql(dialectOf(db), dayRollups)) await sql.raw(statement).execute(db);
  for (const table of dayRollups) await backfillRollup(db, dialectOf(db), table);
}

const salesKey = ['deptId', 'machineNo', 'payType'];
export const dayRollups: RollupTable[] = [
  { name: 'chart_sales_day', key: salesKey, period: 'day' },
  { name: 'chart_goods_day', key: [...salesKey, 'goodsName'], period: 'day' },
  // without the terminal: what the series, the cards and the shares read when no terminal is chosen (a terminal
  // sells a few times a day, so chart_sales_day has nearly a row an order; this has ~15,000 a year)
  { name: 'chart_dept_day', key: ['deptId', 'payType'], period: 'day' },
];
