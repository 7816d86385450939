import { describe, expect, it } from 'vitest';
import { OrderStatus } from '@huiyun/contract';
import { call, makeMachine, order, rt, sim, t, useTerminalApp } from '../../../test/terminal-fixture.ts';

// The order sweeper: the gateway asked first, leases between sweepers.

useTerminalApp();

describe('the order sweeper', () => {
  it('asks the gateway first: paid there → 已支付, else closed there → 订单超时', async () => {
    const paidM = await makeMachine(5);
    const openM = await makeMachine(5);
    const p = (await call(paidM, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    const o = (await call(openM, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    // paid at the gateway just before the sweep, but the notification never arrived
    await t.ctx.db.updateTable('pay_sim_payment').set({ status: 'paid', transId: 'SIM-LOST', payTime: Date.now() + 6 * 60_000 - 1_000 }).where('orderNo', '=', p.orderNo).execute();
    t.clock.advance(6 * 60_000);
    try {
      await rt.sweepOrders();
    } finally {
      t.clock.advance(-6 * 60_000);
    }
    expect(await order(p.orderNo)).toMatchObject({ orderStatus: OrderStatus.paid, transId: 'SIM-LOST' });
    expect(await order(o.orderNo)).toMatchObject({ orderStatus: OrderStatus.timedOut, claimBy: '' });
    expect((await t.ctx.db.selectFrom('pay_sim_payment').select('status').where('orderNo', '=', o.orderNo).executeTakeFirstOrThrow()).status).toBe('closed');
  });

  it('handles each order once with two sweepers at once (leases)', async () => {
    const machines = await Promise.all(Array.from({ length: 12 }, () => makeMachine(5)));
    const orders: string[] = [];
    for (const m of machines) orders.push((await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data.orderNo as string);
    const closes: string[] = [];
    const close = sim.close.bind(sim);
    sim.close = async (config, orderNo) => {
      closes.push(orderNo);
      return close(config, orderNo);
    };
    t.clock.advance(6 * 60_000);
    try {
      const [a, b] = await Promise.all([rt.sweepOrders(), rt.sweepOrders()]);
      const mine = closes.filter((n) => orders.includes(n));
      expect(mine.sort()).toEqual([...orders].sort());
      expect(a.closed + b.closed).toBeGreaterThanOrEqual(orders.length);
    } finally {
      t.clock.advance(-6 * 60_000);
      sim.close = close;
    }
    for (const n of orders) expect((await order(n)).orderStatus).toBe(OrderStatus.timedOut);
  });
});
