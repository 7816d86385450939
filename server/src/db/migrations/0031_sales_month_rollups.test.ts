import { describe, expect, it } from 'vitest';
import { useDatabaseBefore } from '../../test/migration-test-support.ts';
import { keptRollups, recountFromOrders } from '../../modules/pay/charts/rollup-recount.ts';
import { rollupNames } from '../../modules/pay/charts/index.ts';

// Beijing midnight of 2026-12-01 is 2026-11-30 16:00 UTC: a payment a second before it falls in 202611 and one
// a second after it in 202612, whatever the time zone the test runs in.
const MONTH_START = Date.UTC(2026, 10, 30, 16, 0, 0);
const order = (orderNo: string, values: Record<string, unknown>) => ({
  deptId: 1, orderNo, payType: 3, transType: 1, machineNo: 'MON-M1', goodsName: '可乐', goodsPrice: 300, payAmount: 300, orderStatus: 1, createTime: MONTH_START - 60_000, payTime: null, refundNeeded: 0, parentId: null, requestKey: '', ...values,
});
const expectRecount = async (db: never) => {
  for (const table of rollupNames) expect(await keptRollups(db, table), table).toEqual(await recountFromOrders(db, table));
};

describe('migration 0031_sales_month_rollups', () => {
  const schema = useDatabaseBefore('0029_pay_config_api_cert');

  it('counts the orders made before it by month, then keeps day and month rows in step', async () => {
    await schema.migrate();
    const db = schema.db();
    // counted into the day rollups by 0025's triggers, into the month rollups by 0031's backfill
    const paid = await db.insertInto('pay_order').values(order('MON-1', { orderStatus: 3, payTime: MONTH_START - 1000 })).returning('orderId').executeTakeFirstOrThrow();
    await db.insertInto('pay_order').values([
      order('MON-2', { orderStatus: 3, payTime: MONTH_START + 1000, payType: 2, goodsName: '雪碧' }),
      order('MON-3', { orderStatus: 5 }),
      order('MON-1R', { transType: 2, payAmount: -120, orderStatus: 13, parentId: paid.orderId, requestKey: 'a', payTime: MONTH_START + 86_400_000 }),
    ]).execute();
    await schema.finish();
    await expectRecount(db as never);
    const months = await keptRollups(db as never, 'chart_sales_month');
    expect(months.get('202611|1|MON-M1|3')).toEqual({ createdCount: 2, paidCount: 1, paidAmount: 300, refundAmount: 0 });
    expect(months.get('202612|1|MON-M1|3')).toEqual({ createdCount: 0, paidCount: 0, paidAmount: 0, refundAmount: 120 });
    expect(months.get('202612|1|MON-M1|2')).toEqual({ createdCount: 0, paidCount: 1, paidAmount: 300, refundAmount: 0 });
    expect((await keptRollups(db as never, 'chart_goods_month')).get('202612|1|2|雪碧')).toEqual({ createdCount: 0, paidCount: 1, paidAmount: 300, refundAmount: 0 });

    // after it: one set of triggers keeps all six (a payment moved across the month, a change of goods, a delete)
    const fresh = await db.insertInto('pay_order').values(order('MON-4', { createTime: MONTH_START - 5000 })).returning('orderId').executeTakeFirstOrThrow();
    await db.updateTable('pay_order').set({ orderStatus: 2, payTime: MONTH_START - 10 }).where('orderId', '=', fresh.orderId).execute();
    await db.updateTable('pay_order').set({ payTime: MONTH_START + 10 }).where('orderId', '=', fresh.orderId).execute();
    await db.updateTable('pay_order').set({ goodsName: '矿泉水', deptId: 2 }).where('orderNo', '=', 'MON-2').execute();
    await db.deleteFrom('pay_order').where('orderNo', '=', 'MON-3').execute();
    await expectRecount(db as never);
    expect((await keptRollups(db as never, 'chart_dept_month')).get('202612|1|3')).toEqual({ createdCount: 0, paidCount: 1, paidAmount: 300, refundAmount: 120 });
  });
});
