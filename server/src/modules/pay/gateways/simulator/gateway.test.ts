import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Kysely, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages, OrderStatus, PayType } from '@huiyun/contract';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';
import { insertOrder } from '../../../../test/orders.ts';
import type { Payments } from '../../orders/index.ts';
import { SIM_NOTIFY_PATH } from './gateway.ts';
import type { SimulatedPlatform } from './platform.ts';
import { simulatedPlatformService } from './platform-service.ts';

// The simulator gateway on its own: retries until acknowledged, duplicates, lost attempts, refunds;
// and the order sweeper started and stopped as main.ts does.

let t: TestApp;
let rt: Payments;
let sim: SimulatedPlatform;
let configId: number;
const config = () => ({ id: configId, gateway: 'simulator', partner: 'MCH-S', appid: '', partnerKey: '' });

beforeAll(async () => {
  t = await startTestApp();
  rt = t.payments;
  sim = rt.simulated;
  const now = Date.now();
  configId = (await t.ctx.db.insertInto('pay_config').values({ deptId: 1, name: '模拟', payType: PayType.wechat, gateway: 'simulator', partner: 'MCH-S', addTime: now, editTime: now }).returning('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await rt?.stop();
  await t?.close();
});

async function unpaidOrder(expireAt = Date.now() + 60_000) {
  const orderNo = `SIMT-${randomBytes(4).toString('hex')}`;
  const now = Date.now();
  await insertOrder(t.ctx.db, { orderNo, machineNo: orderNo, goodsPrice: 150, orderStatus: OrderStatus.processing, createTime: now, payTime: null, configId, mchId: 'MCH-S', expireAt });
  const { codeUrl } = await sim.createPayment(config(), { orderNo, amount: 150, subject: '测试', expireAt, notifyUrl: `http://localhost${SIM_NOTIFY_PATH}` });
  return { orderNo, token: new URL(codeUrl).searchParams.get('t')! };
}
const statusOf = async (orderNo: string) => (await t.ctx.db.selectFrom('pay_order').select('orderStatus').where('orderNo', '=', orderNo).executeTakeFirstOrThrow()).orderStatus;

describe('the simulator gateway', () => {
  it('checks an order number\'s shape before any query: NUL and the like answer 4xx on both databases', async () => {
    const { orderNo } = await unpaidOrder();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const json = { 'content-type': 'application/json' };
    const asked = [
      { method: 'GET', url: '/gateway/simulator/pay/%00?t=x' },
      { method: 'GET', url: '/gateway/simulator/pay/a%00' },
      { method: 'GET', url: `/gateway/simulator/pay/${'A'.repeat(65)}?t=x` },
      { method: 'POST', url: '/gateway/simulator/pay/%00', headers: form, payload: 't=x&action=pay' },
      { method: 'POST', url: `/gateway/simulator/pay/${orderNo}%01`, headers: form, payload: 't=x&action=pay' },
    ] as const;
    for (const request of asked) {
      const answer = await t.app.inject(request);
      expect(answer.statusCode, request.url).toBe(404);
      expect(answer.body).toContain(messages.terminal.simMissing);
    }
    for (const bad of ['\u0000', 'a\u0000', ' ', 'x'.repeat(65)]) {
      const answer = await t.app.inject({ method: 'POST', url: SIM_NOTIFY_PATH, headers: json, payload: JSON.stringify({ orderNo: bad }) });
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'FAIL', message: messages.terminal.notifyUnknownOrder });
    }
    expect(await statusOf(orderNo)).toBe(OrderStatus.processing);
  });

  it('retries a lost or unacknowledged notification until acknowledged, and sends duplicates now and then', async () => {
    const { orderNo, token } = await unpaidOrder();
    const attempts: boolean[] = [];
    // one roll per attempt (below failRate 0.5: lost on the way), then one for a duplicate after the acknowledgement
    const rolls = [0.9, 0.1, 0.1, 0.9, 0.0];
    Object.assign(sim.options, { failRate: 0.5, duplicateRate: 0.05, retryDelaysMs: [5, 5, 5, 5], random: () => rolls.shift() ?? 0.9 });
    const deliver = sim.options.deliver;
    let refuseFirst = true;
    sim.options.deliver = async (url, body, headers) => {
      if (refuseFirst) {
        refuseFirst = false;
        attempts.push(false);
        return false; // the merchant was down
      }
      const acked = await deliver(url, body, headers);
      attempts.push(acked);
      return acked;
    };
    try {
      expect(await sim.pay(orderNo, token)).toBe('paid');
      await sim.settled();
    } finally {
      Object.assign(sim.options, { failRate: 0, duplicateRate: 0, random: undefined, deliver });
    }
    // attempt 1 refused, attempts 2 and 3 lost, attempt 4 acknowledged, then one duplicate (also acknowledged)
    expect(attempts).toEqual([false, true, true]);
    expect(await statusOf(orderNo)).toBe(OrderStatus.paid);
    expect(await sim.pay(orderNo, token)).toBe('alreadyPaid');
    expect(await sim.pay(orderNo, 'nope')).toBe('missing');
  });

  it('the first attempt (sent from the payment just made) and a retry (read back) say the same, as stored', async () => {
    const { orderNo, token } = await unpaidOrder();
    const bodies: Record<string, unknown>[] = [];
    Object.assign(sim.options, { retryDelaysMs: [5] });
    const deliver = sim.options.deliver;
    sim.options.deliver = async (url, body, headers) => {
      bodies.push(JSON.parse(body) as Record<string, unknown>);
      return bodies.length === 1 ? false : deliver(url, body, headers); // the first is not acknowledged
    };
    try {
      expect(await sim.pay(orderNo, token)).toBe('paid');
      await sim.settled();
    } finally {
      sim.options.deliver = deliver;
    }
    const payment = await t.ctx.db.selectFrom('pay_sim_payment').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
    const stored = { orderNo, transId: payment.transId, amount: 150, mchId: 'MCH-S', appId: '', payTime: Number(payment.payTime) };
    expect(bodies.map(({ notifyId: _, ...fields }) => fields)).toEqual([stored, stored]);
    const order = await t.ctx.db.selectFrom('pay_order').select(['orderStatus', 'transId', 'payTime']).where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
    expect(order).toEqual({ orderStatus: OrderStatus.paid, transId: payment.transId, payTime: Number(payment.payTime) });
  });

  it('sends an unacknowledged paid notification again after a restart (its background service, as the payments service starts it), and an acknowledged one never', async () => {
    const { orderNo, token } = await unpaidOrder();
    Object.assign(sim.options, { failRate: 1, retryDelaysMs: [1] });
    try {
      expect(await sim.pay(orderNo, token)).toBe('paid');
      await sim.settled();
    } finally {
      sim.options.failRate = 0;
    }
    expect(await statusOf(orderNo)).toBe(OrderStatus.processing); // the server "died" before any attempt arrived
    const logged: string[] = [];
    const errors: unknown[] = [];
    const log = { info: (msg: unknown) => void logged.push(String(msg)), error: (e: unknown) => void errors.push(e) } as unknown as FastifyBaseLogger;
    // (its start does not hold the server's listening up: the log line tells that it ran)
    await simulatedPlatformService(sim, true).start(log);
    for (let i = 0; i < 500 && logged.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(errors).toEqual([]);
    expect(logged.some((msg) => /simulator gateway: \d+ unacknowledged/.test(msg))).toBe(true);
    await sim.settled();
    expect(await statusOf(orderNo)).toBe(OrderStatus.paid);
    const row = await t.ctx.db.selectFrom('pay_sim_payment').select('acknowledged').where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
    expect(row.acknowledged).toBe(1);
    const unacknowledged = await t.ctx.db.selectFrom('pay_sim_payment').select('orderNo').where('status', '=', 'paid').where('acknowledged', '=', 0).execute();
    expect(unacknowledged.map((r) => r.orderNo)).not.toContain(orderNo);
  });

  it('gives up after its retries when never acknowledged (the sweeper\'s query finds the payment)', async () => {
    const { orderNo, token } = await unpaidOrder(Date.now() - 1);
    await t.ctx.db.updateTable('pay_sim_payment').set({ expireAt: Date.now() + 60_000 }).where('orderNo', '=', orderNo).execute();
    Object.assign(sim.options, { failRate: 1, retryDelaysMs: [1, 1] });
    try {
      expect(await sim.pay(orderNo, token)).toBe('paid');
      await sim.settled();
    } finally {
      sim.options.failRate = 0;
    }
    expect(await statusOf(orderNo)).toBe(OrderStatus.processing);
    expect(await sim.query(config(), orderNo)).toMatchObject({ state: 'paid', amount: 150 });
    // the sweeper, started as main.ts starts it, asks the gateway and marks it paid
    const swept: number[] = [];
    const sweeper = rt.startOrderSweeper({ everyMs: 20, onSwept: (c) => swept.push(c.paid) });
    for (let i = 0; i < 100 && (await statusOf(orderNo)) !== OrderStatus.paid; i++) await new Promise((r) => setTimeout(r, 20));
    await sweeper.stop();
    expect(await statusOf(orderNo)).toBe(OrderStatus.paid);
    expect(swept).toContain(1);
  });

  it('refuses to pay an expired or closed payment and refunds no more than was paid', async () => {
    const expired = await unpaidOrder(Date.now() - 1);
    expect(await sim.pay(expired.orderNo, expired.token)).toBe('expired');
    const closed = await unpaidOrder();
    expect(await sim.close(config(), closed.orderNo)).toEqual({ state: 'closed' });
    expect(await sim.pay(closed.orderNo, closed.token)).toBe('closed');
    expect(await sim.refund(config(), { orderNo: closed.orderNo, refundNo: 'R-0', amount: 1 })).toMatchObject({ state: 'failed' });

    const paid = await unpaidOrder();
    sim.options.failRate = 1;
    try {
      await sim.pay(paid.orderNo, paid.token);
      await sim.settled();
    } finally {
      sim.options.failRate = 0;
    }
    expect(await sim.refund(config(), { orderNo: paid.orderNo, refundNo: 'R-1', amount: 100 })).toEqual({ state: 'success' });
    expect(await sim.refund(config(), { orderNo: paid.orderNo, refundNo: 'R-1', amount: 100 })).toEqual({ state: 'success' }); // same refund number: same answer, once
    expect(await sim.refund(config(), { orderNo: paid.orderNo, refundNo: 'R-2', amount: 51 })).toMatchObject({ state: 'failed' });
    expect(await sim.refund(config(), { orderNo: paid.orderNo, refundNo: 'R-3', amount: 50 })).toEqual({ state: 'success' });
    expect(await sim.queryRefund(config(), 'R-2')).toEqual({ state: 'failed' });
    expect(await sim.queryRefund(config(), 'R-9')).toEqual({ state: 'unknown' });
  });

  it('answers a garbled notification with a refusal, never a 5xx', async () => {
    for (const payload of ['{not json', '', JSON.stringify({ orderNo: 'NONE', amount: 1 }), JSON.stringify([1, 2])]) {
      const answer = await t.app.inject({ method: 'POST', url: SIM_NOTIFY_PATH, headers: { 'content-type': 'application/json' }, payload });
      expect(answer.statusCode, payload).toBe(400);
    }
  });

  it('writes the payments asked for at once in one statement, each answered once its row is stored', async () => {
    const orderNos = Array.from({ length: 5 }, () => `SIMB-${randomBytes(4).toString('hex')}`);
    const spy = vi.spyOn(Kysely.prototype, 'executeQuery');
    let inserts: string[];
    try {
      const made = await Promise.all(orderNos.map((orderNo) => sim.createPayment(config(), { orderNo, amount: 150, subject: '测试', expireAt: Date.now() + 60_000, notifyUrl: `http://localhost${SIM_NOTIFY_PATH}` })));
      expect(made.every((m, i) => m.codeUrl.includes(orderNos[i]!))).toBe(true);
      inserts = spy.mock.calls.map(([query]) => (query as CompiledQuery).sql).filter((sql) => sql?.startsWith('insert into "pay_sim_payment"'));
    } finally {
      spy.mockRestore();
    }
    expect(inserts).toHaveLength(1);
    const stored = await t.ctx.db.selectFrom('pay_sim_payment').select('orderNo').where('orderNo', 'in', orderNos).execute();
    expect(stored.map((r) => r.orderNo).sort()).toEqual([...orderNos].sort());
  });

  it('pays on a page token naming its 支付配置 by one statement, and still on a token of the mac alone (codes shown before)', async () => {
    const fresh = await unpaidOrder();
    expect(fresh.token).toMatch(new RegExp(`^${configId}\\.[A-Za-z0-9_-]{22}$`));
    const paySpy = vi.spyOn(Kysely.prototype, 'executeQuery');
    let statements: string[];
    try {
      expect(await sim.pay(fresh.orderNo, fresh.token)).toBe('paid');
      statements = paySpy.mock.calls.map(([query]) => (query as CompiledQuery).sql).filter((sql) => sql?.includes('pay_sim_payment'));
    } finally {
      paySpy.mockRestore();
    }
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^update "pay_sim_payment"/);
    expect(await sim.pay(fresh.orderNo, fresh.token)).toBe('alreadyPaid');
    await sim.settled();
    expect(await statusOf(fresh.orderNo)).toBe(OrderStatus.paid);

    const older = await unpaidOrder();
    const macAlone = older.token.slice(older.token.indexOf('.') + 1);
    expect(await sim.pageView(older.orderNo, macAlone)).toMatchObject({ orderNo: older.orderNo, status: 'open' });
    expect(await sim.pay(older.orderNo, `${configId + 1}.${macAlone}`)).toBe('missing'); // another config's id: not its token
    expect(await sim.pay(older.orderNo, 'x'.repeat(22))).toBe('missing');
    expect(await sim.pay(older.orderNo, macAlone)).toBe('paid');
    await sim.settled();
    expect(await statusOf(older.orderNo)).toBe(OrderStatus.paid);

    const expired = await unpaidOrder(Date.now() - 1);
    expect(await sim.pay(expired.orderNo, expired.token)).toBe('expired');
  });
});
