import type { Kysely } from 'kysely';
import { OrderStatus, TransType } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { foldSalesRollups } from './rollup-fold.ts';
import { monthKeyOfDay, periodColumnOf, rollupKeys, shanghaiDayNumber, withChartTables, type RollupName } from './rollup-tables.ts';

// The rollups counted again from the orders, in TypeScript (not the triggers' SQL): what the tests compare
// the kept rollups with, to the fen, each by its own key (rollupKeys) and period (day number or YYYYMM).

type Counts = { createdCount: number; paidCount: number; paidAmount: number; refundAmount: number };
export type RollupRows = Map<string, Counts>;

const keyOf = (row: Record<string, unknown>, table: RollupName) => [row[periodColumnOf(table)], ...rollupKeys[table].map((c) => row[c])].join('|');

export async function recountFromOrders(db: Kysely<Database>, table: RollupName): Promise<RollupRows> {
  const orders = await db.selectFrom('pay_order').select(['deptId', 'machineNo', 'payType', 'goodsName', 'transType', 'orderStatus', 'payAmount', 'createTime', 'payTime']).execute();
  const rows: RollupRows = new Map();
  const periodOf = (at: number) => (periodColumnOf(table) === 'day' ? { day: shanghaiDayNumber(at) } : { month: monthKeyOfDay(shanghaiDayNumber(at)) });
  const add = (o: (typeof orders)[number], at: number, counts: Partial<Counts>) => {
    const key = keyOf({ ...o, ...periodOf(at) }, table);
    const row = rows.get(key) ?? { createdCount: 0, paidCount: 0, paidAmount: 0, refundAmount: 0 };
    for (const [name, value] of Object.entries(counts) as [keyof Counts, number][]) row[name] += value;
    rows.set(key, row);
  };
  for (const o of orders) {
    const payTime = o.payTime === null ? null : Number(o.payTime);
    if (o.transType === TransType.consume) {
      add(o, Number(o.createTime), { createdCount: 1 });
      if (payTime !== null) add(o, payTime, { paidCount: 1, paidAmount: o.payAmount });
    } else if (o.transType === TransType.refund && o.orderStatus === OrderStatus.refunded) {
      add(o, payTime ?? Number(o.createTime), { refundAmount: -o.payAmount });
    }
  }
  return rows;
}

/**
 * The kept rollups as a read sees them (the pending changes folded first), rows that count nothing left out (a
 * count taken back leaves its row at zeros).
 */
export async function keptRollups(db: Kysely<Database>, table: RollupName): Promise<RollupRows> {
  await foldSalesRollups(db);
  const kept = await withChartTables(db).selectFrom(table as 'chart_sales_day').selectAll().execute();
  const rows: RollupRows = new Map();
  for (const r of kept) {
    const counts = { createdCount: Number(r.createdCount), paidCount: Number(r.paidCount), paidAmount: Number(r.paidAmount), refundAmount: Number(r.refundAmount) };
    if (Object.values(counts).some((v) => v !== 0)) rows.set(keyOf(r, table), counts);
  }
  return rows;
}
