import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, messages, OrderStatus, PayType, REFUND_KEY_PATTERN, RoleId, TransType } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { insertOrder } from '../../../test/orders.ts';
import { AUTO_REFUND_KEY } from './refund.ts';
import type { SimulatedPlatform } from '../gateways/index.ts';
import type { Payments } from './payments.ts';

// Refunds through POST /api/Order/refund and the sweeper, on SQLite and (TEST_DATABASE_URL)
// PostgreSQL: reserve before the gateway, never more than paid, one refund per key, crash windows.

const m = messages.order;
let t: TestApp;
let rt: Payments;
let sim: SimulatedPlatform;
let token: string;
let otherToken: string;
let userToken: string;
let configId: number;
const RECOVER_MS = 60_000;

beforeAll(async () => {
  t = await startTestApp({ PAY_RECOVER_SECONDS: String(RECOVER_MS / 1000) });
  rt = t.payments;
  sim = rt.simulated;
  token = await t.login('admin', ADMIN_PASSWORD);
  const otherDept = await t.createCompany('退款别家公司', 'OTHER-RF');
  await t.createUser({ userName: 'refund-other-admin', roleId: RoleId.companyAdmin, deptId: otherDept });
  otherToken = await t.login('refund-other-admin', 'User@12345');
  await t.createUser({ userName: 'refund-ordinary', roleId: RoleId.ordinaryUser, deptId: 1 });
  userToken = await t.login('refund-ordinary', 'User@12345');
  const now = Date.now();
  configId = (await t.ctx.db.insertInto('pay_config').values({ deptId: 1, name: '退款-模拟网关', payType: PayType.wechat, gateway: 'simulator', partner: 'MCH-RF', appid: 'APP-RF', addTime: now, editTime: now })
    .returning('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await rt?.settled();
  await t?.close();
});

/** A paid order (in pay_order and in the simulator's books, as a real payment would be). */
async function paidOrder(amount: number, status: number = OrderStatus.dispensed, options: { refundNeeded?: number; configId?: number } = {}) {
  const config = options.configId ?? configId;
  const now = Date.now();
  const orderNo = `RF${now}${randomBytes(4).toString('hex')}`;
  const orderId = await insertOrder(t.ctx.db, {
    orderNo, transId: `SIM-${orderNo}`, machineNo: 'RF-1', goodsName: '可乐', goodsPrice: amount, aisleNo: 'A1', orderStatus: status, mchId: 'MCH-RF',
    createTime: now, configId: config, updateTime: now, refundNeeded: options.refundNeeded ?? 0,
  });
  await t.ctx.db.insertInto('pay_sim_payment').values({ orderNo, configId: config, amount, mchId: 'MCH-RF', appId: 'APP-RF', notifyUrl: 'http://127.0.0.1/gateway/simulator/notify', status: 'paid', transId: `SIM-${orderNo}`, expireAt: now, createTime: now, payTime: now }).execute();
  return { orderId, orderNo };
}

const key = () => randomBytes(12).toString('hex');
const refund = (body: Record<string, unknown>, as = token) => t.call('POST', '/api/Order/refund', { token: as, body: { reason: '顾客投诉', requestKey: key(), ...body } });
const row = (orderId: number) => t.ctx.db.selectFrom('pay_order').selectAll().where('orderId', '=', orderId).executeTakeFirstOrThrow();
const refundsOf = (orderId: number) => t.ctx.db.selectFrom('pay_order').selectAll().where('parentId', '=', orderId).orderBy('orderId').execute();
const gatewayRefunds = (orderNo: string) => t.ctx.db.selectFrom('pay_sim_refund').selectAll().where('orderNo', '=', orderNo).execute();

/** What must hold for every order whatever happened: refunded + reserved ≤ paid, refunded = Σ 退款成功. */
async function expectBooksBalance(orderId: number) {
  const order = await row(orderId);
  const refunds = await refundsOf(orderId);
  const succeeded = refunds.filter((r) => r.orderStatus === OrderStatus.refunded).reduce((sum, r) => sum - r.payAmount, 0);
  const underWay = refunds.filter((r) => r.orderStatus === OrderStatus.refundCreated || r.orderStatus === OrderStatus.refunding).reduce((sum, r) => sum - r.payAmount, 0);
  expect(order.refundedAmount).toBe(succeeded);
  expect(order.reservedAmount).toBe(underWay);
  expect(order.refundedAmount + order.reservedAmount).toBeLessThanOrEqual(order.payAmount);
  const atGateway = (await gatewayRefunds(order.orderNo)).filter((r) => r.status === 'success').reduce((sum, r) => sum + r.amount, 0);
  expect(atGateway).toBe(succeeded);
}

describe('退款 (POST /api/Order/refund)', () => {
  it('refunds part of an order, then the rest; the refund is its own row, linked, negative, with its own number', async () => {
    const { orderId, orderNo } = await paidOrder(500);
    const first = await refund({ orderId, amount: '1.20', reason: '少找零' });
    expect(first.body).toMatchObject({ success: true, msg: m.refundSucceeded });
    expect(first.body.data.refund).toMatchObject({ transType: TransType.refund, payAmount: '-1.20', orderStatus: OrderStatus.refunded, parentId: orderId, remark: '少找零', refundableAmount: '0.00' });
    expect(first.body.data.refund.orderNo).toMatch(new RegExp(`^${orderNo}R[0-9A-F]{8}$`));
    expect(first.body.data.order).toMatchObject({ orderId, refundedAmount: '1.20', refundableAmount: '3.80', orderStatus: OrderStatus.dispensed });
    const rest = await refund({ orderId, amount: '3.80' });
    expect(rest.body).toMatchObject({ success: true, data: { order: { refundedAmount: '5.00', refundableAmount: '0.00' } } });
    expect((await refund({ orderId, amount: '0.01' })).body).toMatchObject({ success: false, msg: m.refundNothingLeft });
    const detail = await t.call('POST', '/api/Order/detail', { token, body: { orderId } });
    expect(detail.body.data.refunds.map((r: { payAmount: string }) => r.payAmount)).toEqual(['-3.80', '-1.20']);
    await expectBooksBalance(orderId);
    const logged = await t.ctx.db.selectFrom('sys_oper_log').selectAll().where('module', '=', m.title).orderBy('operId', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(logged).toMatchObject({ action: m.refund });
  });

  it('refuses bad input with the field\'s message and changes nothing', async () => {
    const { orderId } = await paidOrder(300);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: '1.234' }, m.refundAmountFormat],
      [{ amount: '0' }, m.refundAmountFormat],
      [{ amount: '-1' }, m.refundAmountFormat],
      [{ amount: '1e2' }, m.refundAmountFormat],
      // only the console's plain decimal text: no number, space, line break or leading zero
      [{ amount: 1 }, m.refundAmountFormat],
      [{ amount: 1e2 }, m.refundAmountFormat],
      [{ amount: ' 1.00' }, m.refundAmountFormat],
      [{ amount: '1.00\n' }, m.refundAmountFormat],
      [{ amount: '0000001' }, m.refundAmountFormat],
      [{ amount: '01.00' }, m.refundAmountFormat],
      [{ amount: '+1.00' }, m.refundAmountFormat],
      [{ amount: '' }, m.refundAmountRequired],
      [{ amount: null }, m.refundAmountRequired],
      [{ amount: '3.01' }, fill(m.refundExceeds, { refundable: '3.00' })],
      [{ amount: '1', reason: '' }, m.refundReasonRequired],
      [{ amount: '1', reason: '长'.repeat(101) }, m.refundReasonTooLong],
      [{ amount: '1', reason: 'a\u0000b' }, messages.common.controlCharacters],
      [{ amount: '1', requestKey: 'short' }, m.refundKeyInvalid],
      [{ amount: '1', requestKey: 'x'.repeat(65) }, m.refundKeyInvalid],
      [{ amount: '1', orderId: 'x' }, m.orderRequired],
      [{ amount: '1', orderId: 99_999_999 }, m.notFound],
    ];
    for (const [body, message] of cases) {
      const answer = await refund({ orderId, ...body });
      expect(answer.body, JSON.stringify(body)).toMatchObject({ success: false, msg: message });
      expect(answer.status).toBeLessThan(500);
    }
    expect(await refundsOf(orderId)).toEqual([]);
    expect(await row(orderId)).toMatchObject({ refundedAmount: 0, reservedAmount: 0 });
  });

  it('refuses unpaid orders, refund rows, other companies\' orders and callers without the right', async () => {
    const { orderId } = await paidOrder(300);
    const now = Date.now();
    for (const status of [OrderStatus.created, OrderStatus.processing, OrderStatus.timedOut]) {
      const unpaid = await insertOrder(t.ctx.db, { orderNo: `RFU${status}-${key()}`, machineNo: `RFU-${status}`, orderStatus: status, createTime: now, payTime: null, configId });
      expect((await refund({ orderId: unpaid, amount: '1' })).body.msg).toBe(fill(m.refundNotPaid, { status: { 1: '初始化', 10: '处理中', 5: '订单超时' }[status]! }));
    }
    // a payment time alone does not make an order refundable: its status must be one a payment reached
    for (const status of [OrderStatus.created, OrderStatus.processing]) {
      const timed = await insertOrder(t.ctx.db, { orderNo: `RFT${status}-${key()}`, machineNo: `RFT-${status}`, orderStatus: status, createTime: now, payTime: now, configId });
      expect((await refund({ orderId: timed, amount: '1' })).body.msg).toBe(fill(m.refundNotPaid, { status: { 1: '初始化', 10: '处理中' }[status]! }));
    }
    const made = await refund({ orderId, amount: '1' });
    expect((await refund({ orderId: made.body.data.refund.orderId, amount: '0.5' })).body.msg).toBe(m.refundNotConsume);
    expect(await refund({ orderId, amount: '1' }, otherToken)).toMatchObject({ status: 404, body: { msg: m.notFound } });
    expect((await refund({ orderId, amount: '1' }, userToken)).status).toBe(403);
    expect(await refundsOf(orderId)).toHaveLength(1);
    await expectBooksBalance(orderId);
  });

  it('makes one refund of a double click or a retry (the same key), whatever the second one says', async () => {
    const { orderId } = await paidOrder(1000);
    const requestKey = key();
    const first = await refund({ orderId, amount: '2', requestKey });
    const again = await refund({ orderId, amount: '3', requestKey });
    expect(again.body).toMatchObject({ success: true, msg: fill(m.refundRepeated, { status: '退款成功' }), data: { refund: { orderId: first.body.data.refund.orderId, payAmount: '-2.00' } } });
    const burst = await Promise.all(Array.from({ length: 20 }, () => refund({ orderId, amount: '1', requestKey: 'same-key-burst' })));
    expect(new Set(burst.map((a) => a.body.data?.refund.orderId)).size).toBe(1);
    expect(await refundsOf(orderId)).toHaveLength(2);
    expect((await row(orderId)).refundedAmount).toBe(300);
    await expectBooksBalance(orderId);
  });

  it('never refunds more than paid: 50 concurrent requests of 1.00 against 10.00 paid, exactly 10 succeed', async () => {
    const { orderId, orderNo } = await paidOrder(1000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => refund({ orderId, amount: '1.00' })));
    const succeeded = answers.filter((a) => a.body.success);
    expect(succeeded).toHaveLength(10);
    for (const a of answers.filter((x) => !x.body.success)) {
      expect(a.status).toBe(409);
      expect([m.refundNothingLeft, fill(m.refundExceeds, { refundable: '0.00' })]).toContain(a.body.msg);
    }
    expect(await row(orderId)).toMatchObject({ refundedAmount: 1000, reservedAmount: 0 });
    expect((await refundsOf(orderId)).map((r) => r.orderStatus)).toEqual(Array(10).fill(OrderStatus.refunded));
    expect(await gatewayRefunds(orderNo)).toHaveLength(10);
    await expectBooksBalance(orderId);
  });

  it('releases the reservation of a refund the gateway refused; it can be tried again', async () => {
    const { orderId } = await paidOrder(600);
    const failedKey = key();
    sim.options.refundFails = true;
    let failed;
    try {
      failed = await refund({ orderId, amount: '6', requestKey: failedKey });
    } finally {
      sim.options.refundFails = false;
    }
    expect(failed).toMatchObject({ status: 409, body: { success: false, msg: fill(m.refundFailed, { reason: 'simulated failure' }) } });
    // the same request again (a lost answer) answers the same failure, and sends nothing
    const again = await t.call('POST', '/api/Order/refund', { token, body: { orderId, amount: '6', reason: '顾客投诉', requestKey: failedKey } });
    expect(again).toMatchObject({ status: 409, body: { success: false, msg: fill(m.refundFailed, { reason: 'simulated failure' }) } });
    expect(await refundsOf(orderId)).toMatchObject([{ orderStatus: OrderStatus.refundFailed, failReason: 'simulated failure', payAmount: -600 }]);
    expect(await row(orderId)).toMatchObject({ refundedAmount: 0, reservedAmount: 0 });
    expect((await refund({ orderId, amount: '6' })).body.msg).toBe(m.refundSucceeded);
    await expectBooksBalance(orderId);
  });

  it('keeps the database itself from holding refunded + reserved above paid (CHECK)', async () => {
    const { orderId } = await paidOrder(100);
    await expect(t.ctx.db.updateTable('pay_order').set({ reservedAmount: 60, refundedAmount: 50 }).where('orderId', '=', orderId).execute()).rejects.toThrow();
    await expect(t.ctx.db.updateTable('pay_order').set({ reservedAmount: -1 }).where('orderId', '=', orderId).execute()).rejects.toThrow();
    expect(await row(orderId)).toMatchObject({ refundedAmount: 0, reservedAmount: 0 });
  });
});

describe('crash windows: the refund sweeper', () => {
  const later = async <T>(fn: () => Promise<T>): Promise<T> => {
    t.clock.advance(RECOVER_MS + 1_000);
    try {
      return await fn();
    } finally {
      t.clock.advance(-(RECOVER_MS + 1_000));
    }
  };

  it('finishes a refund left in 12 when the gateway\'s answer was lost (it refunded: asked, not sent again)', async () => {
    const { orderId, orderNo } = await paidOrder(400);
    const real = sim.refund.bind(sim);
    sim.refund = async (config, input) => {
      await real(config, input);
      throw new Error('connection reset before the answer');
    };
    try {
      const answer = await refund({ orderId, amount: '4' });
      expect(answer.body).toMatchObject({ success: true, msg: m.refundProcessing, data: { refund: { orderStatus: OrderStatus.refunding } } });
    } finally {
      sim.refund = real;
    }
    expect(await row(orderId)).toMatchObject({ refundedAmount: 0, reservedAmount: 400 });
    // another refund cannot take the reserved money meanwhile
    expect((await refund({ orderId, amount: '0.01' })).body.msg).toBe(m.refundNothingLeft);
    // too early: still the request's
    expect((await rt.sweepRefunds()).refundsClaimed).toBe(0);
    const swept = await later(() => rt.sweepRefunds());
    expect(swept).toMatchObject({ refundsClaimed: 1, refundsSettled: 1 });
    expect(await refundsOf(orderId)).toMatchObject([{ orderStatus: OrderStatus.refunded, claimBy: '' }]);
    expect(await gatewayRefunds(orderNo)).toHaveLength(1);
    await expectBooksBalance(orderId);
  });

  it('sends a refund left in 11 (crash after the reservation, before the gateway) exactly once', async () => {
    const { orderId, orderNo } = await paidOrder(300);
    const now = Date.now();
    // what a crash right after the reserve transaction leaves behind
    await t.ctx.db.transaction().execute(async (trx) => {
      await insertOrder(trx, { orderNo: `${orderNo}RCRASH01`, transType: TransType.refund, machineNo: 'RF-1', goodsPrice: 300, payAmount: -200, orderStatus: OrderStatus.refundCreated, createTime: now, payTime: null, configId, updateTime: now, parentId: orderId, requestKey: key(), remark: '崩溃' });
      await trx.updateTable('pay_order').set({ reservedAmount: 200 }).where('orderId', '=', orderId).execute();
    });
    const [a, b] = await later(() => Promise.all([rt.sweepRefunds(), rt.sweepRefunds()]));
    expect(a.refundsClaimed + b.refundsClaimed).toBe(1);
    expect(await refundsOf(orderId)).toMatchObject([{ orderStatus: OrderStatus.refunded }]);
    expect(await gatewayRefunds(orderNo)).toHaveLength(1);
    expect(await row(orderId)).toMatchObject({ refundedAmount: 200, reservedAmount: 0 });
    await expectBooksBalance(orderId);
  });

  it('leaves a refund the gateway does not answer in 12 with its reservation, and tries again after the lease', async () => {
    const { orderId } = await paidOrder(250);
    const real = sim.refund.bind(sim);
    const query = sim.queryRefund.bind(sim);
    sim.refund = async () => { throw new Error('gateway down'); };
    try {
      expect((await refund({ orderId, amount: '2.5' })).body.msg).toBe(m.refundProcessing);
      expect((await later(() => rt.sweepRefunds())).refundsSettled).toBe(0);
      expect(await row(orderId)).toMatchObject({ reservedAmount: 250, refundedAmount: 0 });
    } finally {
      sim.refund = real;
      sim.queryRefund = query;
    }
    // the lease of the failed attempt runs out, the next sweep finishes it
    t.clock.advance(2 * 60_000);
    try {
      expect((await later(() => rt.sweepRefunds())).refundsSettled).toBe(1);
    } finally {
      t.clock.advance(-2 * 60_000);
    }
    expect(await row(orderId)).toMatchObject({ reservedAmount: 0, refundedAmount: 250 });
    await expectBooksBalance(orderId);
  });

  it('fails a refund whose gateway cannot be built after PAY_RECOVER_SECONDS, releasing it, with an alarm', async () => {
    const now = Date.now();
    const gone = (await t.ctx.db.insertInto('pay_config').values({ deptId: 1, name: '退款-未知网关', payType: PayType.wechat, gateway: 'simulator', partner: 'MCH-RF', appid: 'APP-RF', addTime: now, editTime: now })
      .returning('id').executeTakeFirstOrThrow()).id;
    const byHand = await paidOrder(100, OrderStatus.dispensed, { configId: gone });
    const automatic = await paidOrder(200, OrderStatus.dispenseFailed, { configId: gone });
    await t.ctx.db.updateTable('pay_config').set({ gateway: 'unionpay' }).where('id', '=', gone).execute(); // a gateway this server does not have (as an edit before D5 could leave)
    expect((await refund({ orderId: byHand.orderId, amount: '1.00' })).body.msg).toBe(m.refundProcessing);
    await t.ctx.db.updateTable('pay_order').set({ refundNeeded: 1 }).where('orderId', '=', automatic.orderId).execute();
    await rt.sweepRefunds();
    expect(await row(byHand.orderId)).toMatchObject({ reservedAmount: 100, refundedAmount: 0 });
    expect(await row(automatic.orderId)).toMatchObject({ reservedAmount: 200, refundedAmount: 0, refundNeeded: 0 });
    expect(await later(() => rt.sweepRefunds())).toMatchObject({ refundsClaimed: 2, refundsSettled: 2 });
    for (const [paid, kind] of [[byHand, 'refundFailed'], [automatic, 'autoRefundFailed']] as const) {
      expect(await row(paid.orderId)).toMatchObject({ reservedAmount: 0, refundedAmount: 0 });
      expect(await refundsOf(paid.orderId)).toMatchObject([{ orderStatus: OrderStatus.refundFailed, failReason: m.gatewayUnavailable }]);
      const alarms = await t.ctx.db.selectFrom('pay_alarm').select(['kind', 'detail']).where('orderNo', '=', paid.orderNo).execute();
      expect(alarms).toEqual([{ kind, detail: fill(messages.payAlarm.detailAutoRefundFailed, { refundNo: (await refundsOf(paid.orderId))[0]!.orderNo, reason: m.gatewayUnavailable }) }]);
      await expectBooksBalance(paid.orderId);
    }
    await later(() => rt.sweepRefunds()); // once
    expect(await t.ctx.db.selectFrom('pay_alarm').select('kind').where('orderNo', 'in', [byHand.orderNo, automatic.orderNo]).execute()).toHaveLength(2);
  });
});

describe('automatic refunds', () => {
  it('refunds what is left of a marked order once, even with two sweeps at once', async () => {
    const { orderId, orderNo } = await paidOrder(800, OrderStatus.dispenseFailed);
    expect((await refund({ orderId, amount: '3' })).body.msg).toBe(m.refundSucceeded); // an operator was first with part of it
    await t.ctx.db.updateTable('pay_order').set({ refundNeeded: 1 }).where('orderId', '=', orderId).execute();
    const [a, b] = await Promise.all([rt.sweepOrders(), rt.sweepOrders()]);
    expect(a.autoRefunds + b.autoRefunds).toBeGreaterThanOrEqual(1);
    expect((await refundsOf(orderId)).map((r) => [r.payAmount, r.orderStatus, r.remark])).toEqual([
      [-300, OrderStatus.refunded, '顾客投诉'],
      [-500, OrderStatus.refunded, m.autoRefundDispense],
    ]);
    expect(await row(orderId)).toMatchObject({ refundNeeded: 0, refundedAmount: 800 });
    await rt.sweepOrders();
    expect(await gatewayRefunds(orderNo)).toHaveLength(2);
    await expectBooksBalance(orderId);
  });

  it('returns the whole remainder after a dispense failure even when a console refund used the key "auto-refund"', async () => {
    const { orderId, orderNo } = await paidOrder(250, OrderStatus.paid);
    expect((await refund({ orderId, amount: '0.01', requestKey: 'auto-refund' })).body.msg).toBe(m.refundSucceeded);
    await t.ctx.db.updateTable('pay_order').set({ orderStatus: OrderStatus.dispenseFailed, refundNeeded: 1 }).where('orderId', '=', orderId).execute();
    await rt.sweepRefunds();
    expect(await row(orderId)).toMatchObject({ refundNeeded: 0, refundedAmount: 250, reservedAmount: 0 });
    expect((await refundsOf(orderId)).map((r) => [r.payAmount, r.remark])).toEqual([[-1, '顾客投诉'], [-249, m.autoRefundDispense]]);
    expect(await gatewayRefunds(orderNo)).toHaveLength(2);
    // and no console key can name the automatic refund
    expect(REFUND_KEY_PATTERN.test(AUTO_REFUND_KEY)).toBe(false);
    await expectBooksBalance(orderId);
  });

  it('clears the mark of an order already refunded in full, and alarms when the gateway refuses the automatic refund', async () => {
    const done = await paidOrder(100, OrderStatus.dispenseFailed);
    await refund({ orderId: done.orderId, amount: '1' });
    await t.ctx.db.updateTable('pay_order').set({ refundNeeded: 1 }).where('orderId', '=', done.orderId).execute();
    await rt.sweepRefunds();
    expect(await row(done.orderId)).toMatchObject({ refundNeeded: 0, refundedAmount: 100 });
    expect(await refundsOf(done.orderId)).toHaveLength(1);

    const refused = await paidOrder(100, OrderStatus.dispenseFailed, { refundNeeded: 1 });
    sim.options.refundFails = true;
    try {
      await rt.sweepRefunds();
    } finally {
      sim.options.refundFails = false;
    }
    expect(await refundsOf(refused.orderId)).toMatchObject([{ orderStatus: OrderStatus.refundFailed }]);
    expect(await row(refused.orderId)).toMatchObject({ refundNeeded: 0, reservedAmount: 0, refundedAmount: 0 });
    expect((await t.ctx.db.selectFrom('pay_alarm').select('kind').where('orderNo', '=', refused.orderNo).execute()).map((x) => x.kind)).toEqual(['autoRefundFailed']);
    // the operator refunds it by hand
    expect((await refund({ orderId: refused.orderId, amount: '1' })).body.msg).toBe(m.refundSucceeded);
    await expectBooksBalance(refused.orderId);
  });
});
