import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { messages, PayType } from '@huiyun/contract';
import { startTestApp, type TestApp } from './harness.ts';
import { newTerminalKey, sealTerminalKey } from '../modules/pay/machines/index.ts';
import { type Payments } from '../modules/pay/orders/index.ts';
import { SIM_NOTIFY_PATH, type SimulatedPlatform } from '../modules/pay/gateways/index.ts';
import { signTerminal } from '../modules/pay/terminal/index.ts';

// What the terminal protocol's tests share (one app per test file): machines with aisles and an open
// 终端支付配置 on the simulator, signed calls, the 支付模拟 page, signed notifications.

const tm = messages.terminal;
// live bindings: a test file imports them and reads them once its beforeAll has run
export let t: TestApp;
export let rt: Payments;
export let sim: SimulatedPlatform;
let configId: number;

export type Machine = { machineId: number; machineNo: string; key: string };

/** One test app for the calling test file: started before its tests, stopped after them (t and rt above). */
export function useTerminalApp(): void {
  beforeAll(() => startTerminalApp());
  afterAll(stopTerminalApp);
}

async function startTerminalApp(): Promise<void> {
  t = await startTestApp();
  rt = t.payments;
  sim = rt.simulated;
  sim.options.retryDelaysMs = [10, 10, 10];
  sim.options.duplicateRate = 0;
  const now = Date.now();
  configId = (await t.ctx.db.insertInto('pay_config').values({ deptId: 1, name: '测试-模拟网关', payType: PayType.wechat, gateway: 'simulator', partner: 'MCH-1', appid: 'APP-1', addTime: now, editTime: now })
    .returning('id').executeTakeFirstOrThrow()).id;
}

async function stopTerminalApp(): Promise<void> {
  await rt?.stop();
  await t?.close();
}

let machineCount = 0;
export async function makeMachine(stock = 5, options: { payOpen?: string; status?: number } = {}): Promise<Machine> {
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

export type Signed = { timestamp?: number; nonce?: string; key?: string; machineNo?: string; omit?: boolean };

/** The signature headers of a call (docs/terminal-protocol.md §2) over `raw`. */
export function signedHeaders(m: Machine, path: string, raw: string, s: Signed = {}): Record<string, string> {
  const url = `/terminal/v1${path}`;
  const timestamp = String(s.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = s.nonce ?? randomBytes(12).toString('hex');
  if (s.omit) return {};
  return { 'x-machine-no': s.machineNo ?? m.machineNo, 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': signTerminal(s.key ?? m.key, 'POST', url, timestamp, nonce, raw) };
}

export async function call(m: Machine, path: string, body: unknown, s: Signed = {}) {
  const raw = JSON.stringify(body);
  const headers = { 'content-type': 'application/json', ...signedHeaders(m, path, raw, s) };
  const answer = await t.app.inject({ method: 'POST', url: `/terminal/v1${path}`, headers, payload: raw });
  return { status: answer.statusCode, body: answer.json() };
}

export const order = (orderNo: string) => t.ctx.db.selectFrom('pay_order').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
export const stockOf = async (m: Machine, aisleNo = 'A1') => (await t.ctx.db.selectFrom('pay_aisle').select('stock').where('machineId', '=', m.machineId).where('aisleNo', '=', aisleNo).executeTakeFirstOrThrow()).stock;
export const refundsOf = async (orderNo: string) => t.ctx.db.selectFrom('pay_order as r').innerJoin('pay_order as o', 'o.orderId', 'r.parentId')
  .select(['r.payAmount', 'r.orderStatus', 'r.remark']).where('o.orderNo', '=', orderNo).execute();
export const orderCount = async () => Number((await t.ctx.db.selectFrom('pay_order').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

export async function payOnPage(codeUrl: string) {
  const url = new URL(codeUrl);
  const page = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain(tm.simTitle);
  expect(page.body).toContain(tm.simPay);
  const paid = await t.app.inject({ method: 'POST', url: url.pathname, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `t=${url.searchParams.get('t')}&action=pay` });
  expect(paid.body).toContain(tm.simPaid);
  await sim.settled();
}

/** A notification of `orderNo` signed as the simulator signs, changed by `patch`, posted to `path` (default: the body route). */
export async function signedNotification(orderNo: string, patch: Record<string, unknown> = {}, path = SIM_NOTIFY_PATH) {
  const o = await order(orderNo);
  const raw = JSON.stringify({ orderNo, transId: `LATE${o.orderId}`, amount: o.payAmount, mchId: 'MCH-1', appId: 'APP-1', payTime: Date.now(), notifyId: 'x', ...patch });
  const timestamp = String(Date.now());
  const config = { id: configId, partnerKey: '' };
  return t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', 'x-sim-timestamp': timestamp, 'x-sim-signature': sim.sign(config, timestamp, raw) }, payload: raw });
}

/** The 支付配置 of the fixture's 终端支付配置 (its simulator config). */
export const fixtureConfigId = () => configId;
