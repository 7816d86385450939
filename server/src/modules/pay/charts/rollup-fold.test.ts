import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus, PayType } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { PENDING_TABLE } from '../../../db/migrations/sales-pending-sql.ts';
import { insertOrder } from '../../../test/orders.ts';
import { useTestDatabase } from '../../../test/use-test-database.ts';
import { foldSalesRollups } from './rollup-fold.ts';
import { keptRollups, recountFromOrders } from './rollup-recount.ts';
import { rollupNames } from './rollup-tables.ts';

// Migration 0034 on SQLite and (TEST_DATABASE_URL) PostgreSQL: an order change appends what it counts to
// chart_pending and touches no rollup row; a fold sums the pending changes into the six rollups and deletes
// them; folds running at once, on several connections while orders are written, count every change once.

const NOW = Date.UTC(2026, 10, 27, 4, 0, 0);
let serial = 0;

async function paidSale(db: Kysely<Database>, machineNo: string, amount: number, payType: number = PayType.wechat) {
  const orderId = await insertOrder(db, {
    orderNo: `FOLD${++serial}`, payType, machineNo, goodsName: '可乐', goodsPrice: amount, orderStatus: OrderStatus.created, createTime: NOW + serial, payTime: null,
  });
  await db.updateTable('pay_order').set({ orderStatus: OrderStatus.paid, payTime: NOW + serial + 500 }).where('orderId', '=', orderId).execute();
  return orderId;
}

const countOf = async (db: Kysely<Database>, table: string) =>
  Number((await sql<{ n: number | string }>`select count(*) as "n" from ${sql.table(table)}`.execute(db)).rows[0]!.n);

async function expectRecount(db: Kysely<Database>) {
  for (const table of rollupNames) expect(await keptRollups(db, table), table).toEqual(await recountFromOrders(db, table));
}

describe('the sales rollups, folded from the pending changes', () => {
  const database = useTestDatabase({ poolSize: 8 });
  beforeAll(() => migrateToLatest(database().db));

  it('an order change adds a pending change and no rollup row; a fold counts it and empties the pending', async () => {
    const { db } = database();
    const orderId = await paidSale(db, 'FOLD-M1', 300);
    await db.updateTable('pay_order').set({ orderStatus: OrderStatus.dispensed }).where('orderId', '=', orderId).execute(); // counts nothing
    for (const table of rollupNames) expect(await countOf(db, table), table).toBe(0);
    expect(await countOf(db, PENDING_TABLE)).toBe(2); // created, paid

    expect(await foldSalesRollups(db)).toBe(2);
    expect(await countOf(db, PENDING_TABLE)).toBe(0);
    expect(await foldSalesRollups(db)).toBe(0);
    const day = (await keptRollups(db, 'chart_dept_day')).values().next().value;
    expect(day).toEqual({ createdCount: 1, paidCount: 1, paidAmount: 300, refundAmount: 0 });
    await expectRecount(db);
  });

  it('folds at once on several connections while orders are written count every change once', async () => {
    const { db } = database();
    const sales = Array.from({ length: 60 }, (_, i) => paidSale(db, `FOLD-P${i}`, 100 + i, i % 3 === 0 ? PayType.alipay : PayType.wechat));
    const folds = Array.from({ length: 12 }, (_, i) => new Promise((resolve) => setTimeout(resolve, i * 3)).then(() => foldSalesRollups(db)));
    await Promise.all([...sales, ...folds]);
    await expectRecount(db);
    expect(await countOf(db, PENDING_TABLE)).toBe(0);
  });
});
