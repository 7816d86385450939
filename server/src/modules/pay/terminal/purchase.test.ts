import { describe, expect, it, vi } from 'vitest';
import { fill, messages, OrderStatus, PayType } from '@huiyun/contract';
import { PoolBusyError } from '../../../db/connection-queue.ts';
import { aislesOf } from '../machines/queries.ts';
import { DOUBLE_TAP_MS } from '../orders/create.ts';
import { call, makeMachine, order, payOnPage, refundsOf, rt, sim, stockOf, t, useTerminalApp } from '../../../test/terminal-fixture.ts';

// A purchase through the terminal protocol (docs/terminal-protocol.md §3): create, pay, dispense, heartbeat, long poll.

const tm = messages.terminal;
useTerminalApp();

describe('a purchase', () => {
  it('refuses an empty, disabled or unknown aisle and a pay type without an open 终端支付配置', async () => {
    const m = await makeMachine();
    const closed = await makeMachine(5, { payOpen: 'N' });
    expect((await call(m, '/order/create', { aisleNo: 'A2', payType: 3 })).body.msg).toBe(fill(tm.aisleEmpty, { aisleNo: 'A2' }));
    expect((await call(m, '/order/create', { aisleNo: 'A3', payType: 3 })).body.msg).toBe(fill(tm.aisleDisabled, { aisleNo: 'A3' }));
    expect((await call(m, '/order/create', { aisleNo: 'Z9', payType: 3 })).body.msg).toBe(fill(tm.aisleMissing, { aisleNo: 'Z9' }));
    expect((await call(m, '/order/create', { aisleNo: 'A1', payType: PayType.alipay })).body.msg).toBe(tm.noPayConfig);
    expect((await call(closed, '/order/create', { aisleNo: 'A1', payType: 3 })).body.msg).toBe(tm.noPayConfig);
    expect((await call(m, '/order/create', { aisleNo: '', payType: 3 })).body.msg).toBe(tm.aisleNo);
  });

  it('answers 503 (the server busy, not the gateway) when the pool refuses the payment\'s bookkeeping; the order is closed', async () => {
    const m = await makeMachine(5);
    const refused = vi.spyOn(sim, 'createPayment').mockRejectedValueOnce(new PoolBusyError('waitTimeout'));
    try {
      expect(await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).toMatchObject({ status: 503, body: { success: false, msg: messages.common.databaseUnavailable } });
    } finally {
      refused.mockRestore();
    }
    const rows = await t.ctx.db.selectFrom('pay_order').select('orderStatus').where('machineNo', '=', m.machineNo).execute();
    expect(rows.map((r) => r.orderStatus)).toEqual([OrderStatus.timedOut]);
    // the next create goes through
    expect((await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body).toMatchObject({ success: true });
  });

  it('runs a purchase end to end: create → 支付模拟 pays → notification → paid → dispensed → stock − 1 once', async () => {
    const m = await makeMachine(5);
    const created = await call(m, '/order/create', { aisleNo: 'A1', payType: 3 });
    expect(created.body).toMatchObject({ success: true, data: { amount: '2.50' } });
    const { orderNo, codeUrl, expireAt } = created.body.data;
    expect(expireAt).toBeGreaterThan(Date.now());
    expect((await order(orderNo)).orderStatus).toBe(OrderStatus.processing);
    // another machine cannot read it
    const other = await makeMachine();
    expect(await call(other, '/order/status', { orderNo })).toMatchObject({ status: 404, body: { msg: tm.orderMissing } });
    expect(await call(other, '/order/dispense', { orderNo, success: true })).toMatchObject({ status: 404, body: { msg: tm.orderMissing } });
    expect((await order(orderNo)).orderStatus).toBe(OrderStatus.processing);
    // one dispense at a time: a second order is refused while this one is paid and not reported
    await payOnPage(codeUrl);
    const paid = await call(m, '/order/status', { orderNo });
    expect(paid.body.data).toMatchObject({ orderNo, orderStatus: OrderStatus.paid, amount: '2.50' });
    expect((await order(orderNo)).transId).toMatch(/^SIM/);
    expect((await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.msg).toBe(tm.dispenseInProgress);
    // a repeated notification is acknowledged and changes nothing
    const before = await order(orderNo);
    sim.notify(orderNo);
    await sim.settled();
    expect(await order(orderNo)).toEqual(before);

    const done = await call(m, '/order/dispense', { orderNo, success: true, aisleStatus: 1, message: 'ok' });
    expect(done.body).toMatchObject({ success: true, data: { orderStatus: OrderStatus.dispensed } });
    expect(await stockOf(m)).toBe(4);
    // idempotent on orderNo: the same report again answers the same, the stock stays
    expect((await call(m, '/order/dispense', { orderNo, success: true })).body.data.orderStatus).toBe(OrderStatus.dispensed);
    expect(await stockOf(m)).toBe(4);
    expect((await call(m, '/order/dispense', { orderNo, success: false })).body.msg).toBe(fill(tm.dispenseConflict, { status: '出货成功' }));
    // the paying page now says it is paid
    const url = new URL(codeUrl);
    expect((await t.app.inject({ method: 'GET', url: url.pathname + url.search })).body).toContain(tm.simAlreadyPaid);
    expect((await t.app.inject({ method: 'GET', url: url.pathname + '?t=wrong' })).body).toContain(tm.simMissing);
  });

  it('refunds a dispense failure automatically, in full, once, and never takes stock below 0', async () => {
    const m = await makeMachine(1);
    const a = (await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    await payOnPage(a.codeUrl);
    expect((await call(m, '/order/dispense', { orderNo: a.orderNo, success: false, aisleStatus: 0, message: '电机故障' })).body.data.orderStatus).toBe(OrderStatus.dispenseFailed);
    expect((await call(m, '/order/dispense', { orderNo: a.orderNo, success: false })).body.data.orderStatus).toBe(OrderStatus.dispenseFailed);
    await rt.settled();
    await rt.sweepOrders();
    expect(await order(a.orderNo)).toMatchObject({ refundNeeded: 0, dispenseMessage: '电机故障', refundedAmount: 250, reservedAmount: 0 });
    expect(await refundsOf(a.orderNo)).toEqual([{ payAmount: -250, orderStatus: OrderStatus.refunded, remark: messages.order.autoRefundDispense }]);
    expect(await stockOf(m)).toBe(1);
    const aisle = await t.ctx.db.selectFrom('pay_aisle').select('status').where('machineId', '=', m.machineId).where('aisleNo', '=', 'A1').executeTakeFirstOrThrow();
    expect(aisle.status).toBe(0);
    await t.ctx.db.updateTable('pay_aisle').set({ status: 1 }).where('machineId', '=', m.machineId).execute();

    const b = (await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    await payOnPage(b.codeUrl);
    await t.ctx.db.updateTable('pay_aisle').set({ stock: 0 }).where('machineId', '=', m.machineId).where('aisleNo', '=', 'A1').execute();
    expect((await call(m, '/order/dispense', { orderNo: b.orderNo, success: true })).body.data.orderStatus).toBe(OrderStatus.dispensed);
    expect(await stockOf(m)).toBe(0);
    // an unpaid order cannot be dispensed
    await t.ctx.db.updateTable('pay_aisle').set({ stock: 3 }).where('machineId', '=', m.machineId).where('aisleNo', '=', 'A1').execute();
    const c = (await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    expect((await call(m, '/order/dispense', { orderNo: c.orderNo, success: true })).body.msg).toBe(fill(tm.dispenseNotPaid, { status: '处理中' }));
    expect(await stockOf(m)).toBe(3);
  });

  it('fails and refunds a paid order whose dispense is never reported, so the machine can sell again', async () => {
    const m = await makeMachine(3);
    const a = (await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    await payOnPage(a.codeUrl);
    expect((await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.msg).toBe(tm.dispenseInProgress);
    await rt.sweepOrders(); // not yet: within the timeout
    expect((await order(a.orderNo)).orderStatus).toBe(OrderStatus.paid);
    t.clock.advance(t.ctx.config.pay.dispenseTimeoutMs + 1_000);
    try {
      await rt.sweepOrders();
    } finally {
      t.clock.advance(-(t.ctx.config.pay.dispenseTimeoutMs + 1_000));
    }
    expect(await order(a.orderNo)).toMatchObject({ orderStatus: OrderStatus.dispenseFailed, dispenseMessage: tm.dispenseTimedOut, refundNeeded: 0, refundedAmount: 250 });
    expect(await refundsOf(a.orderNo)).toEqual([{ payAmount: -250, orderStatus: OrderStatus.refunded, remark: messages.order.autoRefundDispense }]);
    expect(await stockOf(m)).toBe(3);
    // a late success report is refused; the machine sells again
    expect((await call(m, '/order/dispense', { orderNo: a.orderNo, success: true })).body.msg).toBe(fill(tm.dispenseConflict, { status: '出货失败' }));
    expect(await stockOf(m)).toBe(3);
    expect((await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.success).toBe(true);
  });

  it('keeps one order at a time per machine under concurrent creates', async () => {
    const m = await makeMachine(9);
    const answers = await Promise.all(Array.from({ length: 8 }, () => call(m, '/order/create', { aisleNo: 'A1', payType: 3 })));
    expect(answers.some((a) => a.body.success)).toBe(true);
    for (const a of answers) if (!a.body.success) expect([tm.orderInProgress, tm.dispenseInProgress]).toContain(a.body.msg);
    const active = await t.ctx.db.selectFrom('pay_order').select('orderNo').where('machineNo', '=', m.machineNo).where('orderStatus', 'in', [1, 2, 10]).execute();
    expect(active).toHaveLength(1);
    // once that one is paid, every concurrent create is refused
    const winner = answers.filter((a) => a.body.success).map((a) => a.body.data).find((d) => d.orderNo === active[0]!.orderNo)!;
    await payOnPage(winner.codeUrl);
    const again = await Promise.all(Array.from({ length: 5 }, () => call(m, '/order/create', { aisleNo: 'A1', payType: 3 })));
    expect(again.map((a) => a.body.msg)).toEqual(Array(5).fill(tm.dispenseInProgress));
  });

  it('stores the heartbeat: lastSeenAt and the stock each aisle reports', async () => {
    const m = await makeMachine(5);
    const beat = await call(m, '/heartbeat', { aisles: [{ aisleNo: 'A1', stock: 4 }, { aisleNo: 'NOPE', stock: 1 }] });
    expect(beat.body).toMatchObject({ success: true, data: { aisles: 1 } });
    const row = await t.ctx.db.selectFrom('pay_aisle').selectAll().where('machineId', '=', m.machineId).where('aisleNo', '=', 'A1').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ stock: 5, reportedStock: 4 });
    // 货道信息 shows it beside the server's stock; an aisle never reported says so
    const shown = await aislesOf(t.ctx.db, m.machineId);
    expect(shown.find((x) => x.aisleNo === 'A1')).toMatchObject({ stock: 5, reportedStock: 4, reportedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) });
    expect(shown.find((x) => x.aisleNo === 'A2')).toMatchObject({ reportedStock: null, reportedAt: '' });
    expect(Number((await t.ctx.db.selectFrom('pay_machine').select('lastSeenAt').where('machineId', '=', m.machineId).executeTakeFirstOrThrow()).lastSeenAt)).toBeGreaterThan(0);
    expect((await call(m, '/heartbeat', { aisles: [{ aisleNo: 'A1', stock: -1 }] })).body.msg).toBe(tm.aisles);
    // every aisle of the beat in one statement: each its own stock, an aisle named twice its last, others untouched
    const many = await call(m, '/heartbeat', { aisles: [{ aisleNo: 'A2', stock: 3 }, { aisleNo: 'A1', stock: 2 }, { aisleNo: 'A2', stock: 1 }, { aisleNo: 'A9', stock: 7 }] });
    expect(many.body).toMatchObject({ success: true, data: { aisles: 2 } });
    const reported = await t.ctx.db.selectFrom('pay_aisle').select(['aisleNo', 'reportedStock', 'stock']).where('machineId', '=', m.machineId).orderBy('aisleNo').execute();
    expect(reported.filter((a) => a.aisleNo === 'A1' || a.aisleNo === 'A2')).toEqual([{ aisleNo: 'A1', reportedStock: 2, stock: 5 }, { aisleNo: 'A2', reportedStock: 1, stock: 0 }]);
    expect(reported.filter((a) => a.aisleNo !== 'A1' && a.aisleNo !== 'A2').every((a) => a.reportedStock === null)).toBe(true);
    const other = await makeMachine(5); // another machine's aisles of the same numbers are not its
    expect((await t.ctx.db.selectFrom('pay_aisle').select('reportedStock').where('machineId', '=', other.machineId).execute()).every((a) => a.reportedStock === null)).toBe(true);
  });

  it('long-polls the status until it changes', async () => {
    const m = await makeMachine(5);
    const a = (await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    const polled = call(m, '/order/status', { orderNo: a.orderNo, knownStatus: OrderStatus.processing, waitSeconds: 10 });
    setTimeout(() => void payOnPage(a.codeUrl), 300);
    const answer = await polled;
    expect(answer.body.data.orderStatus).toBe(OrderStatus.paid);
  });

  it('refuses a double tap (the same aisle and pay type again within DOUBLE_TAP_MS) instead of closing the QR code just shown', async () => {
    const m = await makeMachine(5);
    await t.ctx.db.updateTable('pay_aisle').set({ stock: 5 }).where('machineId', '=', m.machineId).where('aisleNo', '=', 'A2').execute();
    const first = (await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    expect(await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).toMatchObject({ status: 409, body: { msg: tm.orderInProgress } });
    expect((await order(first.orderNo)).orderStatus).toBe(OrderStatus.processing);
    // another aisle is a change of mind: the first order is closed, the new one shown
    const changed = (await call(m, '/order/create', { aisleNo: 'A2', payType: 3 })).body.data;
    expect((await order(first.orderNo)).orderStatus).toBe(OrderStatus.timedOut);
    // the same aisle again, once the moment has passed
    t.clock.advance(DOUBLE_TAP_MS);
    try {
      expect((await call(m, '/order/create', { aisleNo: 'A2', payType: 3 })).body.success).toBe(true);
    } finally {
      t.clock.advance(-DOUBLE_TAP_MS);
    }
    expect((await order(changed.orderNo)).orderStatus).toBe(OrderStatus.timedOut);
  });
});
