import { Kysely, type CompiledQuery } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { fill, messages, OrderStatus, PayType } from '@huiyun/contract';
import { SIM_NOTIFY_PATH } from '../gateways/index.ts';
import { ThrottledWarnings } from '../alarms/index.ts';
import { insertOrder } from '../../../test/orders.ts';
import { handlePaidNotification } from './notify.ts';
import { createPaymentRuntime } from './runtime.ts';
import { call, fixtureConfigId, makeMachine, order, refundsOf, rt, sim, signedNotification, t, useTerminalApp } from '../../../test/terminal-fixture.ts';

// Paid notifications through the simulator's notify route: cross-checks, alarms, a payment after close.

const tm = messages.terminal;
useTerminalApp();

describe('paid notifications', () => {
  it('refuses a mismatching notification with an alarm and changes nothing', async () => {
    const m = await makeMachine(5);
    const a = (await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    const before = await order(a.orderNo);
    for (const [patch, field] of [[{ amount: 1 }, 'amount'], [{ mchId: 'OTHER' }, 'mchId'], [{ appId: 'X' }, 'appId']] as const) {
      const answer = await signedNotification(a.orderNo, patch);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(fill(tm.notifyMismatch, { field }));
    }
    const forged = await t.app.inject({ method: 'POST', url: SIM_NOTIFY_PATH, headers: { 'content-type': 'application/json', 'x-sim-timestamp': String(Date.now()), 'x-sim-signature': 'ab'.repeat(32) }, payload: JSON.stringify({ orderNo: a.orderNo, transId: 'F', amount: 250 }) });
    expect(forged.json()).toMatchObject({ code: 'FAIL', message: tm.notifyBadSignature });
    expect(await order(a.orderNo)).toEqual(before);
    const alarms = await t.ctx.db.selectFrom('pay_alarm').select('kind').where('orderNo', '=', a.orderNo).execute();
    expect(alarms.map((x) => x.kind).sort()).toEqual(['notifyMismatch', 'notifyMismatch', 'notifyMismatch']); // a forged one is only logged
    // the right one moves it, once
    expect((await signedNotification(a.orderNo)).json().code).toBe('SUCCESS');
    expect((await signedNotification(a.orderNo)).json().code).toBe('SUCCESS');
    expect((await order(a.orderNo)).orderStatus).toBe(OrderStatus.paid);
  });

  it('records a payment for a closed order for an automatic refund before acknowledging it', async () => {
    const m = await makeMachine(5);
    const a = (await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    t.clock.advance(6 * 60_000);
    try {
      await rt.sweepOrders();
    } finally {
      t.clock.advance(-6 * 60_000);
    }
    expect(await order(a.orderNo)).toMatchObject({ orderStatus: OrderStatus.timedOut, refundNeeded: 0 });
    // the page refuses to pay a closed order
    const url = new URL(a.codeUrl);
    const page = await t.app.inject({ method: 'POST', url: url.pathname, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `t=${url.searchParams.get('t')}&action=pay` });
    expect(page.body).toContain(tm.simClosed);
    // a payment still arriving (the gateway took the money after all) is recorded and marked for refund, then acknowledged
    await t.ctx.db.updateTable('pay_sim_payment').set({ status: 'paid', transId: 'LATE', payTime: Date.now() }).where('orderNo', '=', a.orderNo).execute();
    const late = await signedNotification(a.orderNo);
    expect(late.json().code).toBe('SUCCESS');
    expect(await order(a.orderNo)).toMatchObject({ orderStatus: OrderStatus.timedOut, transId: expect.stringMatching(/^LATE/) });
    expect((await t.ctx.db.selectFrom('pay_alarm').select('kind').where('orderNo', '=', a.orderNo).execute()).map((x) => x.kind)).toEqual(['latePayment']);
    // … and refunded in full right after, once, however often the notification comes again
    await rt.settled();
    expect((await signedNotification(a.orderNo)).json().code).toBe('SUCCESS');
    await rt.settled();
    await rt.sweepOrders();
    expect(await order(a.orderNo)).toMatchObject({ orderStatus: OrderStatus.timedOut, refundNeeded: 0, refundedAmount: 250 });
    expect(await refundsOf(a.orderNo)).toEqual([{ payAmount: -250, orderStatus: OrderStatus.refunded, remark: messages.order.autoRefundLate }]);
    // a repeat after the refund is a repeat: no second alarm, no new mark
    expect((await signedNotification(a.orderNo)).json().code).toBe('SUCCESS');
    expect(await order(a.orderNo)).toMatchObject({ refundNeeded: 0 });
    expect((await t.ctx.db.selectFrom('pay_alarm').select('kind').where('orderNo', '=', a.orderNo).execute()).map((x) => x.kind)).toEqual(['latePayment']);
  });

  it('writes nothing for unsigned notifications, whatever order they name, and logs them once a minute', async () => {
    const now = Date.now();
    const otherGateway = (await t.ctx.db.insertInto('pay_config').values({ deptId: 1, name: 'D3-别的网关', payType: PayType.wechat, gateway: 'wechat_v2', partner: 'MCH-D3', addTime: now, editTime: now })
      .returning('id').executeTakeFirstOrThrow()).id;
    const orderOn = async (configId: number) => {
      const orderNo = `D3-${configId}-${now}`;
      await insertOrder(t.ctx.db, { orderNo, machineNo: orderNo, orderStatus: OrderStatus.processing, createTime: now, payTime: null, configId, updateTime: now });
      return orderNo;
    };
    const numbers = [await orderOn(otherGateway), await orderOn(999_999), 'D3-NO-SUCH-ORDER'];
    const alarms = async () => Number((await t.ctx.db.selectFrom('pay_alarm').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await alarms();
    const warnings: { alarm?: string; heldBack?: number }[] = [];
    const log = { warn: (fields: object) => void warnings.push(fields), error: () => undefined };
    // a runtime with a throttle of its own on a clock the test moves: what earlier tests logged holds nothing back here
    let clock = now;
    const own = { ...createPaymentRuntime(t.ctx), strangers: new ThrottledWarnings(() => clock) };
    const sendAll = async () => {
      for (const orderNo of numbers) {
        for (let i = 0; i < 25; i++) {
          const answer = await handlePaidNotification(own, 'simulator', JSON.stringify({ orderNo }), {}, log);
          expect(answer.ok).toBe(false);
        }
      }
    };
    try {
      await sendAll();
      // one line per kind of refusal, not one per request
      expect(warnings.map((w) => [w.alarm, w.heldBack]).sort()).toEqual([['badSignature', 0], ['configMissing', 0], ['unknownOrder', 0]]);
      clock += 59_999;
      await sendAll();
      expect(warnings).toHaveLength(3); // within the minute: only counted
      clock += 1;
      await sendAll();
      // a minute on: each kind once more, with the count held back since (24 + 25 per kind)
      expect(warnings.slice(3).map((w) => [w.alarm, w.heldBack]).sort()).toEqual([['badSignature', 49], ['configMissing', 49], ['unknownOrder', 49]]);
    } finally {
      await own.stop();
    }
    expect(await alarms()).toBe(before);
    // the route, too: 25 unsigned posts, no alarm
    for (let i = 0; i < 25; i++) {
      const answer = await t.app.inject({ method: 'POST', url: SIM_NOTIFY_PATH, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ orderNo: numbers[0] }) });
      expect(answer.statusCode).toBe(400);
    }
    expect(await alarms()).toBe(before);
    expect((await order(numbers[0]!)).orderStatus).toBe(OrderStatus.processing);
    // signed with that order's 支付配置 but sent by another gateway than it names: now an operator must look
    const raw = JSON.stringify({ orderNo: numbers[0], transId: 'D3', amount: 100, mchId: 'MCH-D3', appId: '', payTime: now, notifyId: 'x' });
    const timestamp = String(Date.now());
    const signed = await rt.handlePaidNotification('simulator', raw, { 'x-sim-timestamp': timestamp, 'x-sim-signature': sim.sign({ id: otherGateway, partnerKey: '' }, timestamp, raw) }, log);
    expect(signed).toEqual({ ok: false, message: fill(tm.notifyMismatch, { field: 'gateway' }) });
    expect((await t.ctx.db.selectFrom('pay_alarm').select('kind').where('orderNo', '=', numbers[0]!).execute()).map((x) => x.kind)).toEqual(['configMismatch']);
  });

  it('pays a notification at its order\'s URL, which names the 支付配置, in one statement, and reads nothing for a forged one', async () => {
    const m = await makeMachine(5);
    const a = (await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    const { notifyUrl } = await t.ctx.db.selectFrom('pay_sim_payment').select('notifyUrl').where('orderNo', '=', a.orderNo).executeTakeFirstOrThrow();
    const path = new URL(notifyUrl).pathname;
    expect(path).toBe(`/gateway/simulator/config/${fixtureConfigId()}/notify/${a.orderNo}`);
    const before = await order(a.orderNo);
    // signed with another key (the URL's 支付配置 is not the signer's): refused, and not a statement on pay_order
    const forged = await orderStatementsDuring(() => t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', 'x-sim-timestamp': String(Date.now()), 'x-sim-signature': 'ab'.repeat(32) }, payload: JSON.stringify({ orderNo: a.orderNo, transId: 'F', amount: 250 }) }));
    expect(forged.result.json()).toMatchObject({ code: 'FAIL', message: tm.notifyBadSignature });
    expect(forged.statements).toEqual([]);
    // a mismatch goes the long way: the order read, the alarm recorded, nothing moved
    const cheaper = await signedNotification(a.orderNo, { amount: 1 }, path);
    expect(cheaper.json()).toMatchObject({ code: 'FAIL', message: fill(tm.notifyMismatch, { field: 'amount' }) });
    expect(await order(a.orderNo)).toEqual(before);
    expect((await t.ctx.db.selectFrom('pay_alarm').select('kind').where('orderNo', '=', a.orderNo).execute()).map((x) => x.kind)).toEqual(['notifyMismatch']);
    // the right one: paid by one statement, no read before it
    const paid = await orderStatementsDuring(() => signedNotification(a.orderNo, {}, path));
    expect(paid.result.json().code).toBe('SUCCESS');
    expect(paid.statements).toHaveLength(1);
    expect(paid.statements[0]).toMatch(/^update "pay_order"/);
    expect(await order(a.orderNo)).toMatchObject({ orderStatus: OrderStatus.paid, transId: `LATE${before.orderId}` });
    // a repeat is acknowledged and changes nothing
    const paidRow = await order(a.orderNo);
    expect((await signedNotification(a.orderNo, { transId: 'AGAIN' }, path)).json().code).toBe('SUCCESS');
    expect(await order(a.orderNo)).toEqual(paidRow);
    // the same order at a URL naming another 支付配置: what is signed with this one's key does not verify there
    const now = Date.now();
    const other = (await t.ctx.db.insertInto('pay_config').values({ deptId: 1, name: '测试-另一个模拟网关', payType: PayType.wechat, gateway: 'simulator', partner: 'MCH-1', appid: 'APP-1', addTime: now, editTime: now })
      .returning('id').executeTakeFirstOrThrow()).id;
    const b = (await call(await makeMachine(5), '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    const elsewhere = await signedNotification(b.orderNo, {}, `/gateway/simulator/config/${other}/notify/${b.orderNo}`);
    expect(elsewhere.json()).toMatchObject({ code: 'FAIL', message: tm.notifyBadSignature });
    expect((await order(b.orderNo)).orderStatus).toBe(OrderStatus.processing);
  });

  it('answers 400 to a 支付配置 id out of the integer range in the notify URL, before any query (PostgreSQL answered 500)', async () => {
    const orderNo = 'T2026112810000000ABCDEF12';
    for (const configId of ['2147483648', '4294967296', '9999999999', '99999999999999999999', '0', '007', '-1', 'abc']) {
      const spy = vi.spyOn(Kysely.prototype, 'executeQuery');
      try {
        const answer = await t.app.inject({ method: 'POST', url: `/gateway/simulator/config/${configId}/notify/${orderNo}`, headers: { 'content-type': 'application/json' }, payload: '{}' });
        expect(answer.statusCode, configId).toBe(400);
        expect(answer.body, configId).toBe(tm.notifyBadConfigId);
        expect(spy, configId).not.toHaveBeenCalled();
      } finally {
        spy.mockRestore();
      }
    }
    // a refund number of digits is only a refund number (the simulator takes no refund notification)
    for (const refundNo of ['2147483648', '9999999999']) {
      const answer = await t.app.inject({ method: 'POST', url: `/gateway/simulator/refund-notify/${refundNo}`, headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(answer.statusCode, refundNo).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'FAIL' });
    }
    // the largest id is an id: no such 支付配置, no such order
    const largest = await t.app.inject({ method: 'POST', url: `/gateway/simulator/config/2147483647/notify/${orderNo}`, headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(largest.statusCode).toBe(400);
    expect(largest.json()).toMatchObject({ code: 'FAIL', message: tm.notifyUnknownOrder });
  });
});

/** `work`'s result and the statements on pay_order it ran (their SQL), through any Kysely instance or transaction. */
async function orderStatementsDuring<R>(work: () => Promise<R>): Promise<{ result: R; statements: string[] }> {
  const spy = vi.spyOn(Kysely.prototype, 'executeQuery');
  try {
    const result = await work();
    const sqlOf = (query: unknown) => ('sql' in (query as object) ? (query as CompiledQuery).sql : (query as { compile: () => CompiledQuery }).compile().sql);
    return { result, statements: spy.mock.calls.map(([query]) => sqlOf(query)).filter((sql) => sql.includes('"pay_order"')) };
  } finally {
    spy.mockRestore();
  }
}
