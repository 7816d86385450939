import { describe, expect, it } from 'vitest';
import { useDatabaseBefore } from '../../test/migration-test-support.ts';
import { keptRollups, recountFromOrders } from '../../modules/pay/charts/rollup-recount.ts';
import { rollupNames } from '../../modules/pay/charts/index.ts';

// Beijing midnight of 2026-11-26 is 2026-11-25 16:00 UTC: a payment a second before it and one a second
// after it fall on two days, whatever the time zone the test runs in.
const MIDNIGHT = Date.UTC(2026, 10, 25, 16, 0, 0);
const order = (orderNo: string, values: Record<string, unknown>) => ({
  deptId: 1, orderNo, payType: 3, transType: 1, machineNo: 'MIG-M1', goodsName: '可乐', goodsPrice: 300, payAmount: 300, orderStatus: 1, createTime: MIDNIGHT - 60_000, payTime: null, refundNeeded: 0, parentId: null, requestKey: '', ...values,
});

describe('migration 0025_sales_rollups', () => {
  const schema = useDatabaseBefore('0022_ip_search_joined');

  it('counts the orders made before it, then keeps every later change in step (created, paid, refunded, moved, deleted)', async () => {
    await schema.migrate();
    const db = schema.db();
    const paid = await db.insertInto('pay_order').values(order('MIG-1', { orderStatus: 3, payTime: MIDNIGHT - 1000 })).returning('orderId').executeTakeFirstOrThrow();
    await db.insertInto('pay_order').values([
      order('MIG-2', { orderStatus: 3, payTime: MIDNIGHT + 1000, payType: 2, goodsName: '雪碧' }),
      order('MIG-3', { orderStatus: 5 }), // walked away: created, never paid
      order('MIG-4', { orderStatus: 5, payTime: MIDNIGHT + 5000, refundNeeded: 1 }), // a late payment
      // refunds of MIG-1: one succeeded the next day, one failed
      order('MIG-1R1', { transType: 2, payAmount: -120, orderStatus: 13, parentId: paid.orderId, requestKey: 'a', payTime: MIDNIGHT + 86_400_000 }),
      order('MIG-1R2', { transType: 2, payAmount: -50, orderStatus: 14, parentId: paid.orderId, requestKey: 'b' }),
    ]).execute();
    await schema.finish();
    for (const table of rollupNames) expect(await keptRollups(db as never, table)).toEqual(await recountFromOrders(db as never, table));
    const sales = await keptRollups(db as never, 'chart_sales_day');
    // the day before Beijing midnight holds MIG-1's payment; the refund lies two days later
    const day = Math.floor((MIDNIGHT + 8 * 3_600_000) / 86_400_000);
    expect(sales.get(`${day - 1}|1|MIG-M1|3`)).toEqual({ createdCount: 3, paidCount: 1, paidAmount: 300, refundAmount: 0 });
    expect(sales.get(`${day}|1|MIG-M1|3`)).toEqual({ createdCount: 0, paidCount: 1, paidAmount: 300, refundAmount: 0 });
    expect(sales.get(`${day + 1}|1|MIG-M1|3`)).toEqual({ createdCount: 0, paidCount: 0, paidAmount: 0, refundAmount: 120 });

    // after it: the triggers
    const fresh = await db.insertInto('pay_order').values(order('MIG-5', { createTime: MIDNIGHT + 10_000 })).returning('orderId').executeTakeFirstOrThrow();
    await db.updateTable('pay_order').set({ orderStatus: 2, payTime: MIDNIGHT + 20_000 }).where('orderId', '=', fresh.orderId).execute();
    await db.updateTable('pay_order').set({ orderStatus: 3 }).where('orderId', '=', fresh.orderId).execute(); // counts nothing new
    await db.updateTable('pay_order').set({ orderStatus: 13, payTime: MIDNIGHT + 2 * 86_400_000 }).where('orderNo', '=', 'MIG-1R2').execute();
    await db.updateTable('pay_order').set({ machineNo: 'MIG-M2', goodsName: '矿泉水' }).where('orderNo', '=', 'MIG-2').execute();
    await db.deleteFrom('pay_order').where('orderNo', '=', 'MIG-3').execute();
    for (const table of rollupNames) expect(await keptRollups(db as never, table)).toEqual(await recountFromOrders(db as never, table));
    expect((await keptRollups(db as never, 'chart_sales_day')).get(`${day}|1|MIG-M1|3`)).toEqual({ createdCount: 1, paidCount: 2, paidAmount: 600, refundAmount: 0 }); // MIG-4's late payment and MIG-5
  });
});
