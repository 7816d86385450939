import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, MachineStatus, messages, OrderStatus, PayType } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { aislesOf } from '../machine/queries.ts';
import { newTerminalKey, sealTerminalKey } from '../machine/terminal-key.ts';
import { paymentRuntime, type PaymentRuntime } from '../order/runtime.ts';
import { refusal, saleStatuses, statusLabel, transition, transitions, type OrderEvent } from '../order/state-machine.ts';
import { announceMovesTo } from '../order/status-waiters.ts';
import { sweepOrders } from '../order/sweeper.ts';
import { SIM_NOTIFY_PATH } from '../gateway/simulator.ts';
import { NonceStore, signTerminal } from './auth.ts';

const tm = messages.terminal;
let t: TestApp;
let rt: PaymentRuntime;
let configId: number;

type Machine = { machineId: number; machineNo: string; key: string };

beforeAll(async () => {
  t = await startTestApp();
  rt = paymentRuntime(t.ctx);
  rt.simulator.options.retryDelaysMs = [10, 10, 10];
  rt.simulator.options.duplicateRate = 0;
  const now = Date.now();
  configId = (await t.ctx.db.insertInto('pay_config').values({ deptId: 1, name: '测试-模拟网关', payType: PayType.wechat, gateway: 'simulator', partner: 'MCH-1', appid: 'APP-1', addTime: now, editTime: now })
    .returning('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await rt?.simulator.stop();
  await t?.close();
});

let machineCount = 0;
async function makeMachine(stock = 5, options: { payOpen?: string; status?: number } = {}): Promise<Machine> {
  const now = Date.now();
  const key = newTerminalKey();
  const machineNo = `TM-${++machineCount}-${randomBytes(2).toString('hex')}`;
  const { machineId } = await t.ctx.db.insertInto('pay_machine').values({ machineNo, machineName: machineNo, deptId: 1, status: options.status ?? 1, terminalKey: sealTerminalKey(t.ctx.secrets, key), lastSeenAt: null, addTime: now, editTime: now })
    .returning('machineId').executeTakeFirstOrThrow();
  await t.ctx.db.insertInto('pay_aisle').values([
    { machineId, aisleNo: 'A1', layer: 1, aisleColumn: 1, goodsName: '矿泉水', price: 250, capacity: 10, stock, status: 1, addTime: now, editTime: now },
    { machineId, aisleNo: 'A2', layer: 1, aisleColumn: 2, goodsName: '可乐', price: 300, capacity: 10, stock: 0, status: 1, addTime: now, editTime: now },
    { machineId, aisleNo: 'A3', layer: 1, aisleColumn: 3, goodsName: '停用', price: 300, capacity: 10, stock: 3, status: 0, addTime: now, editTime: now },
  ]).execute();
  await t.ctx.db.insertInto('pay_terminal_config').values({ deptId: 1, machineNo, payType: PayType.wechat, configId, configName: '测试', payOpen: options.payOpen ?? 'T', addTime: now, editTime: now }).execute();
  return { machineId, machineNo, key };
}

type Signed = { timestamp?: number; nonce?: string; key?: string; machineNo?: string; omit?: boolean };
async function call(m: Machine, path: string, body: unknown, s: Signed = {}) {
  const raw = JSON.stringify(body);
  const url = `/terminal/v1${path}`;
  const timestamp = String(s.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = s.nonce ?? randomBytes(12).toString('hex');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (!s.omit) {
    headers['x-machine-no'] = s.machineNo ?? m.machineNo;
    headers['x-timestamp'] = timestamp;
    headers['x-nonce'] = nonce;
    headers['x-signature'] = signTerminal(s.key ?? m.key, 'POST', url, timestamp, nonce, raw);
  }
  const answer = await t.app.inject({ method: 'POST', url, headers, payload: raw });
  return { status: answer.statusCode, body: answer.json() };
}

const order = (orderNo: string) => t.ctx.db.selectFrom('pay_order').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
const stockOf = async (m: Machine, aisleNo = 'A1') => (await t.ctx.db.selectFrom('pay_aisle').select('stock').where('machineId', '=', m.machineId).where('aisleNo', '=', aisleNo).executeTakeFirstOrThrow()).stock;
const refundsOf = async (orderNo: string) => t.ctx.db.selectFrom('pay_order as r').innerJoin('pay_order as o', 'o.orderId', 'r.parentId')
  .select(['r.payAmount', 'r.orderStatus', 'r.remark']).where('o.orderNo', '=', orderNo).execute();
const orderCount = async () => Number((await t.ctx.db.selectFrom('pay_order').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

async function payOnPage(codeUrl: string) {
  const url = new URL(codeUrl);
  const page = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain(tm.simTitle);
  expect(page.body).toContain(tm.simPay);
  const paid = await t.app.inject({ method: 'POST', url: url.pathname, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `t=${url.searchParams.get('t')}&action=pay` });
  expect(paid.body).toContain(tm.simPaid);
  await rt.simulator.settled();
}

async function signedNotification(orderNo: string, patch: Record<string, unknown> = {}) {
  const o = await order(orderNo);
  const raw = JSON.stringify({ orderNo, transId: `LATE${o.orderId}`, amount: o.payAmount, mchId: 'MCH-1', appId: 'APP-1', payTime: Date.now(), notifyId: 'x', ...patch });
  const timestamp = String(Date.now());
  const config = { id: configId, partnerKey: '' };
  return t.app.inject({ method: 'POST', url: SIM_NOTIFY_PATH, headers: { 'content-type': 'application/json', 'x-sim-timestamp': timestamp, 'x-sim-signature': rt.simulator.sign(config, timestamp, raw) }, payload: raw });
}

describe('the order state machine', () => {
  const events = Object.keys(transitions) as OrderEvent[];
  it('moves exactly the allowed (status, event) pairs; the others change nothing and say why', async () => {
    const now = Date.now();
    const announced: number[] = []; // the moves other instances hear of: those a machine's poll waits for
    const stopAnnouncing = announceMovesTo((orderId) => announced.push(orderId));
    for (const status of saleStatuses) {
      for (const event of events) {
        const orderNo = `SM-${status}-${event}-${randomBytes(3).toString('hex')}`;
        const { orderId } = await t.ctx.db.insertInto('pay_order').values({ deptId: 1, orderNo, payType: 3, transType: 1, machineNo: `SM-${orderNo}`, goodsPrice: 100, payAmount: 100, orderStatus: status, createTime: now, payTime: null })
          .returning('orderId').executeTakeFirstOrThrow();
        const result = await transition(t.ctx.db, orderId, event, now);
        const after = (await order(orderNo)).orderStatus;
        const allowed = transitions[event].from.includes(status);
        expect(result.moved, `${status} ${event}`).toBe(allowed);
        expect(announced.includes(orderId), `${status} ${event} announced`).toBe(allowed && (event === 'paid' || event === 'close'));
        if (allowed) expect(after).toBe(transitions[event].to);
        else {
          expect(after).toBe(status);
          expect(result).toMatchObject({ moved: false, status, reason: refusal(status, event) });
          expect(refusal(status, event)).toBe(fill(tm.transitionRefused, { status: statusLabel(status), event: tm.events[event] }));
        }
      }
    }
    stopAnnouncing();
  });
});

describe('the terminal protocol', () => {
  it('signs as the worked example of docs/terminal-protocol.md says', () => {
    expect(signTerminal('bXlfdGVybWluYWxfa2V5X2Zvcl90aGVfZG9jcw', 'POST', '/terminal/v1/order/create', '1764000000', '9f8e7d6c5b4a3210', '{"aisleNo":"A1","payType":3}'))
      .toBe('6879bbaee501bded783f58154f44fe2ac9c009fbb109264b655f511a253d0801');
  });

  it('refuses unsigned, stale, replayed, wrong-key, unknown and disabled callers, changing nothing', async () => {
    const m = await makeMachine();
    const other = await makeMachine();
    const disabled = await makeMachine(5, { status: MachineStatus.disabled });
    const before = await orderCount();
    const body = { aisleNo: 'A1', payType: PayType.wechat };
    expect(await call(m, '/order/create', body, { omit: true })).toMatchObject({ status: 401, body: { success: false, msg: tm.unsigned } });
    expect(await call(m, '/order/create', body, { timestamp: Math.floor(Date.now() / 1000) - 301 })).toMatchObject({ status: 401, body: { msg: tm.badTimestamp } });
    expect(await call(m, '/order/create', body, { timestamp: Math.floor(Date.now() / 1000) + 400 })).toMatchObject({ status: 401, body: { msg: tm.badTimestamp } });
    expect(await call(m, '/order/create', body, { key: other.key })).toMatchObject({ status: 401, body: { msg: tm.badSignature } });
    expect(await call(m, '/order/create', body, { machineNo: 'NO-SUCH' })).toMatchObject({ status: 401, body: { msg: tm.badSignature } });
    expect(await call(disabled, '/order/create', body)).toMatchObject({ status: 401, body: { msg: tm.machineDisabled } });
    expect(await orderCount()).toBe(before);
    // a replayed nonce: the first call passes, the same nonce again is refused
    const nonce = randomBytes(12).toString('hex');
    expect((await call(m, '/heartbeat', { aisles: [] }, { nonce })).body.success).toBe(true);
    expect(await call(m, '/heartbeat', { aisles: [] }, { nonce })).toMatchObject({ status: 401, body: { msg: tm.replayed } });
    expect(await call(m, '/order/create', body, { nonce })).toMatchObject({ status: 401, body: { msg: tm.replayed } });
    // the same nonce sent five times at once (one group write): exactly one passes
    const twin = randomBytes(12).toString('hex');
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(m, '/heartbeat', { aisles: [] }, { nonce: twin })));
    expect(answers.filter((a) => a.body.success)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401 && a.body.msg === tm.replayed)).toHaveLength(4);
    // stored before the call went on: another instance, or this one after a restart, refuses it too
    expect(await new NonceStore(t.ctx.db).claim(m.machineId, nonce, Date.now() + 600_000)).toBe(false);
    expect(await new NonceStore(t.ctx.db).claim(m.machineId, twin, Date.now() + 600_000)).toBe(false);
    expect(await new NonceStore(t.ctx.db).claim(other.machineId, nonce, Date.now() + 600_000)).toBe(true); // a nonce is per machine
    // a body changed after signing
    const raw = JSON.stringify(body);
    const ts = String(Math.floor(Date.now() / 1000));
    const sig = signTerminal(m.key, 'POST', '/terminal/v1/order/create', ts, 'n0nce-123', raw);
    const tampered = await t.app.inject({ method: 'POST', url: '/terminal/v1/order/create', headers: { 'content-type': 'application/json', 'x-machine-no': m.machineNo, 'x-timestamp': ts, 'x-nonce': 'n0nce-123', 'x-signature': sig }, payload: JSON.stringify({ ...body, aisleNo: 'A2' }) });
    expect(tampered.json().msg).toBe(tm.badSignature);
    expect(await orderCount()).toBe(before);
  });

  it('takes a machine 停用, 启用, given a new key, renumbered or deleted on the console at its next call', async () => {
    const m = await makeMachine();
    await t.ctx.db.deleteFrom('pay_terminal_config').where('machineNo', '=', m.machineNo).execute(); // so its number may change
    const token = await t.login('admin', ADMIN_PASSWORD);
    const console = async (url: string, body: unknown, method = 'POST') => {
      const answer = await t.call(method, url, { token, body });
      expect(answer.body).toMatchObject({ success: true });
      return answer.body.data;
    };
    const beat = (who: Machine) => call(who, '/heartbeat', { aisles: [] });
    expect((await beat(m)).body.success).toBe(true); // read, and kept by this instance
    await console('/api/Machine/status', { machineId: m.machineId, status: MachineStatus.disabled });
    expect(await beat(m)).toMatchObject({ status: 401, body: { msg: tm.machineDisabled } });
    await console('/api/Machine/status', { machineId: m.machineId, status: MachineStatus.enabled });
    expect((await beat(m)).body.success).toBe(true);
    const { terminalKey } = await console('/api/Machine/resetKey', { machineId: m.machineId });
    expect(await beat(m)).toMatchObject({ status: 401, body: { msg: tm.badSignature } });
    const rekeyed = { ...m, key: terminalKey as string };
    expect((await beat(rekeyed)).body.success).toBe(true);
    const renumbered = { ...rekeyed, machineNo: `${m.machineNo}-B` };
    await console('/api/Machine/save', { machineId: m.machineId, machineNo: renumbered.machineNo, machineName: 'renumbered', status: MachineStatus.enabled });
    expect(await beat(rekeyed)).toMatchObject({ status: 401, body: { msg: tm.badSignature } });
    expect((await beat(renumbered)).body.success).toBe(true);
    await console(`/api/Machine/delete?ids=${m.machineId}`, undefined, 'DELETE');
    expect(await beat(renumbered)).toMatchObject({ status: 401, body: { msg: tm.badSignature } });
  });

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
    rt.simulator.notify(orderNo);
    await rt.simulator.settled();
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
    await sweepOrders(t.ctx, rt);
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
    await sweepOrders(t.ctx, rt); // not yet: within the timeout
    expect((await order(a.orderNo)).orderStatus).toBe(OrderStatus.paid);
    t.clock.advance(t.ctx.config.pay.dispenseTimeoutMs + 1_000);
    try {
      await sweepOrders(t.ctx, rt);
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
});

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
      await sweepOrders(t.ctx, rt);
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
    await sweepOrders(t.ctx, rt);
    expect(await order(a.orderNo)).toMatchObject({ orderStatus: OrderStatus.timedOut, refundNeeded: 0, refundedAmount: 250 });
    expect(await refundsOf(a.orderNo)).toEqual([{ payAmount: -250, orderStatus: OrderStatus.refunded, remark: messages.order.autoRefundLate }]);
  });
});

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
      await sweepOrders(t.ctx, rt);
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
    const close = rt.simulator.close.bind(rt.simulator);
    rt.simulator.close = async (config, orderNo) => {
      closes.push(orderNo);
      return close(config, orderNo);
    };
    t.clock.advance(6 * 60_000);
    try {
      const [a, b] = await Promise.all([sweepOrders(t.ctx, rt), sweepOrders(t.ctx, rt)]);
      const mine = closes.filter((n) => orders.includes(n));
      expect(mine.sort()).toEqual([...orders].sort());
      expect(a.closed + b.closed).toBeGreaterThanOrEqual(orders.length);
    } finally {
      t.clock.advance(-6 * 60_000);
      rt.simulator.close = close;
    }
    for (const n of orders) expect((await order(n)).orderStatus).toBe(OrderStatus.timedOut);
  });
});
