import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fill, messages, OrderStatus, PayType, payConfigSecretFields, TransType, type PayConfigField } from '@huiyun/contract';
import { startFakeAlipay, type FakeAlipay } from '../../../../../tools/fake-gateways/alipay.ts';
import type { FakeBooks } from '../../../../../tools/fake-gateways/books.ts';
import { startFakeWechatV3, type FakeWechatV3 } from '../../../../../tools/fake-gateways/wechat-v3.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { alipayAccountOf } from '../../../test/gateways/alipay-harness.ts';
import { insertOrder } from '../../../test/orders.ts';
import { type PayAccount, payConfigPurpose } from '../gateways/index.ts';
import { wechatV3AccountOf } from '../../../test/gateways/wechat-v3-harness.ts';
import { newTerminalKey, sealTerminalKey } from '../machines/index.ts';
import { signedHeaders, type Machine } from '../../../test/terminal-fixture.ts';
import type { Payments } from './payments.ts';
import type { Log } from './runtime.ts';

// A WeChat Pay V3 or Alipay call through a 支付配置 whose private key (商户私钥, 应用私钥) or the public key its answer
// is verified with does not load here never leaves this server (gateway.ts loadBeforeSending): a refund ends
// 退款失败 at once, its amount released, with a refundFailed alarm, instead of 退款中 with an error line every sweep;
// a purchase is refused naming the field. The configs are written to the database directly: the save refuses them.

const m = messages.order;
let v3: FakeWechatV3;
let alipay: FakeAlipay;
let t: TestApp;
let rt: Payments;
let token: string;

beforeAll(async () => {
  v3 = await startFakeWechatV3();
  alipay = await startFakeAlipay();
  t = await startTestApp({ WECHATPAY_BASE_URL: v3.baseUrl, ALIPAY_GATEWAY_URL: alipay.gatewayUrl });
  rt = t.payments;
  token = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await rt?.stop();
  await t?.close();
  await v3?.close();
  await alipay?.close();
});

const otherPublicKey = () => String(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'pem', type: 'spki' }));

type Gateway = 'wechat_v3' | 'alipay';
const gateways = {
  wechat_v3: { payType: PayType.wechat, books: (): FakeBooks => v3.books, account: (): PayAccount => wechatV3AccountOf(v3), mchId: () => v3.account.mchid, appId: () => v3.account.appid },
  alipay: { payType: PayType.alipay, books: (): FakeBooks => alipay.books, account: (): PayAccount => alipayAccountOf(alipay), mchId: () => alipay.account.sellerId, appId: () => alipay.account.appId },
};

/** What is broken: a secret or a plain field of the fake's account, and the field a refusal names. */
type Broken = { secrets?: Partial<PayAccount['secrets']>; fields?: Partial<Pick<PayAccount, 'platformPubKey' | 'alipayPublicKey'>>; field: PayConfigField };

/** A 支付配置 row as stored, bypassing the save checks: the fake's account with `broken` applied. */
async function configWith(gateway: Gateway, name: string, broken: Omit<Broken, 'field'>) {
  const a = { ...gateways[gateway].account(), ...broken.fields };
  const all = { ...a.secrets, ...broken.secrets };
  const sealed = Object.fromEntries(payConfigSecretFields.map((f) => [f, all[f] ? t.ctx.secrets.seal(payConfigPurpose(f), all[f]) : '']));
  const now = Date.now();
  const { id } = await t.ctx.db.insertInto('pay_config').values({
    deptId: 1, name, payType: gateways[gateway].payType, gateway, partner: a.partner, appid: a.appid, signType: a.signType, certSerialNo: a.certSerialNo,
    platformPubKeyId: a.platformPubKeyId, platformPubKey: a.platformPubKey, alipayPublicKey: a.alipayPublicKey, notifyUrl: 'https://pay.example.com/', ...sealed, addTime: now, editTime: now,
  }).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** An order paid through the config: in pay_order, and at the fake (its query answers paid). */
async function paidOrder(gateway: Gateway, configId: number, amount = 50) {
  const now = Date.now();
  const orderNo = `RK${now}${randomBytes(4).toString('hex')}`;
  const g = gateways[gateway];
  g.books().open({ orderNo, amount, mchId: g.mchId(), appId: g.appId(), subject: '可乐', notifyUrl: 'http://127.0.0.1:9/notify', createTime: now });
  g.books().pay(orderNo, `TX-${orderNo}`, now);
  const orderId = await insertOrder(t.ctx.db, {
    orderNo, transId: `TX-${orderNo}`, payType: g.payType, machineNo: 'RK-1', goodsName: '可乐', goodsPrice: amount, aisleNo: 'A1', mchId: g.mchId(), createTime: now, configId, updateTime: now,
  });
  return { orderId, orderNo };
}

const row = (orderId: number) => t.ctx.db.selectFrom('pay_order').selectAll().where('orderId', '=', orderId).executeTakeFirstOrThrow();
const refundsOf = (orderId: number) => t.ctx.db.selectFrom('pay_order').selectAll().where('parentId', '=', orderId).execute();
const alarmsOf = async (orderNo: string) => (await t.ctx.db.selectFrom('pay_alarm').select('kind').where('orderNo', '=', orderNo).execute()).map((a) => a.kind);
const refundsAtFake = (gateway: Gateway, orderNo: string) => [...gateways[gateway].books().refunds.values()].filter((r) => r.orderNo === orderNo);
const silentLog = () => ({ warn: vi.fn(), error: vi.fn() }) satisfies Log;
const notSent = (field: PayConfigField) => fill(m.refundNotSent, { label: messages.payConfig[field] });

/** A sweep once every lease (PAY_RECOVER_SECONDS) and order (5 minutes) has run out. */
async function later<T>(fn: () => Promise<T>) {
  t.clock.advance(6 * 60_000);
  try {
    return await fn();
  } finally {
    t.clock.advance(-6 * 60_000);
  }
}

const cases: [string, Gateway, () => Broken][] = [
  ['V3 商户私钥 garbage', 'wechat_v3', () => ({ secrets: { rsaKey: '这不是私钥' }, field: 'rsaKey' })],
  ['V3 商户私钥 random base64', 'wechat_v3', () => ({ secrets: { rsaKey: randomBytes(900).toString('base64') }, field: 'rsaKey' })],
  ['V3 商户私钥 a public key', 'wechat_v3', () => ({ secrets: { rsaKey: otherPublicKey() }, field: 'rsaKey' })],
  ['V3 平台公钥 garbage', 'wechat_v3', () => ({ fields: { platformPubKey: '这不是公钥' }, field: 'platformPubKey' })],
  ['Alipay 应用私钥 garbage', 'alipay', () => ({ secrets: { appPrivateKey: '这不是私钥' }, field: 'appPrivateKey' })],
  ['Alipay 应用私钥 a public key', 'alipay', () => ({ secrets: { appPrivateKey: alipay.account.alipayPublicKey }, field: 'appPrivateKey' })],
  ['Alipay 支付宝公钥 garbage', 'alipay', () => ({ fields: { alipayPublicKey: '这不是公钥' }, field: 'alipayPublicKey' })],
];

describe('a WeChat Pay V3 or Alipay refund whose key does not load here', () => {
  it.each(cases)('ends 退款失败 at once (%s): reserve released, refundFailed alarm, nothing at the gateway', async (kind, gateway, broken) => {
    const b = broken();
    const configId = await configWith(gateway, `退款密钥坏-${kind}`, b);
    const { orderId, orderNo } = await paidOrder(gateway, configId);
    const answer = await t.call('POST', '/api/Order/refund', { token, body: { orderId, amount: '0.30', reason: '测试', requestKey: randomBytes(8).toString('hex') } });
    expect(answer.status).toBe(409);
    expect(answer.body.msg).toBe(fill(m.refundFailed, { reason: notSent(b.field) }));
    const [refund] = await refundsOf(orderId);
    expect(refund).toMatchObject({ orderStatus: OrderStatus.refundFailed, failReason: notSent(b.field), payAmount: -30, claimBy: '' });
    expect(await row(orderId)).toMatchObject({ reservedAmount: 0, refundedAmount: 0 });
    expect(await alarmsOf(orderNo)).toEqual(['refundFailed']);
    expect(refundsAtFake(gateway, orderNo)).toEqual([]);
    // nothing is left for the sweeper: no error line, no claim
    const log = silentLog();
    expect(await later(() => rt.sweepRefunds({ log }))).toMatchObject({ refundsClaimed: 0, refundsFailed: 0 });
    expect(log.error).not.toHaveBeenCalled();
  });

  it.each([['wechat_v3', 'rsaKey'], ['alipay', 'appPrivateKey']] as const)('%s: a refund left 退款中 by such a config cannot be asked about: it stays 退款中 (it may have left under the keys of then), a warning each sweep, no error', async (gateway, field) => {
    const configId = await configWith(gateway, `退款密钥坏-遗留-${gateway}`, { secrets: { [field]: '这不是私钥' } });
    const { orderId, orderNo } = await paidOrder(gateway, configId);
    const now = Date.now();
    await insertOrder(t.ctx.db, {
      orderNo: `${orderNo}R0000abcd`, payType: gateways[gateway].payType, transType: TransType.refund, machineNo: 'RK-1', goodsName: '可乐', goodsPrice: 50, payAmount: -50,
      aisleNo: 'A1', orderStatus: OrderStatus.refunding, mchId: gateways[gateway].mchId(), createTime: now, payTime: null, configId, updateTime: now, parentId: orderId, requestKey: 'left-12',
    });
    await t.ctx.db.updateTable('pay_order').set({ reservedAmount: 50 }).where('orderId', '=', orderId).execute();
    const log = silentLog();
    expect(await later(() => rt.sweepRefunds({ log }))).toMatchObject({ refundsClaimed: 1, refundsSettled: 0, refundsFailed: 0 });
    expect(log.error).not.toHaveBeenCalled();
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect((await refundsOf(orderId))[0]?.orderStatus).toBe(OrderStatus.refunding);
    expect(await row(orderId)).toMatchObject({ reservedAmount: 50, refundedAmount: 0 });
    expect(await alarmsOf(orderNo)).toEqual([]);
  });

  it.each(['wechat_v3', 'alipay'] as const)('%s: the same refund through a config whose keys load goes through (the control)', async (gateway) => {
    const configId = await configWith(gateway, `退款密钥好-${gateway}`, {});
    const { orderId, orderNo } = await paidOrder(gateway, configId);
    const answer = await t.call('POST', '/api/Order/refund', { token, body: { orderId, amount: '0.30', reason: '测试', requestKey: randomBytes(8).toString('hex') } });
    expect(answer.status, answer.body.msg).toBe(200);
    expect((await refundsOf(orderId))[0]?.orderStatus).toBeOneOf([OrderStatus.refunding, OrderStatus.refunded]);
    expect(refundsAtFake(gateway, orderNo)).toHaveLength(1);
  });
});

describe('a purchase through a 支付配置 whose key does not load here', () => {
  /** A machine selling aisle A1 through the config. */
  async function machineOn(gateway: Gateway, configId: number): Promise<Machine> {
    const now = Date.now();
    const key = newTerminalKey();
    const machineNo = `RK-${randomBytes(3).toString('hex')}`;
    const { machineId } = await t.ctx.db.insertInto('pay_machine').values({ machineNo, machineName: machineNo, deptId: 1, status: 1, terminalKey: sealTerminalKey(t.ctx.secrets, key), lastSeenAt: null, addTime: now, editTime: now })
      .returning('machineId').executeTakeFirstOrThrow();
    await t.ctx.db.insertInto('pay_aisle').values({ machineId, aisleNo: 'A1', layer: 1, aisleColumn: 1, goodsName: '矿泉水', price: 250, capacity: 50, stock: 50, status: 1, addTime: now, editTime: now }).execute();
    await t.ctx.db.insertInto('pay_terminal_config').values({ deptId: 1, machineNo, payType: gateways[gateway].payType, configId, configName: 'broken', payOpen: 'T', addTime: now, editTime: now }).execute();
    return { machineId, machineNo, key };
  }
  const create = (machine: Machine, gateway: Gateway) => {
    const raw = JSON.stringify({ aisleNo: 'A1', payType: gateways[gateway].payType });
    return t.app.inject({ method: 'POST', url: '/terminal/v1/order/create', headers: { 'content-type': 'application/json', ...signedHeaders(machine, '/order/create', raw) }, payload: raw });
  };
  const ordersOf = (machineNo: string) => t.ctx.db.selectFrom('pay_order').selectAll().where('machineNo', '=', machineNo).execute();

  it.each(cases)('is refused naming the field (%s): 400, no open order, nothing at the gateway', async (kind, gateway, broken) => {
    const b = broken();
    const configId = await configWith(gateway, `下单密钥坏-${kind}`, b);
    const machine = await machineOn(gateway, configId);
    const payments = gateways[gateway].books().payments.size;
    const answer = await create(machine, gateway);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().msg).toBe(fill(messages.terminal.payConfigKeyBroken, { label: messages.payConfig[b.field] }));
    // the order written before the call is closed with it: none is left open, and the machine may sell again
    expect((await ordersOf(machine.machineNo)).map((o) => o.orderStatus)).toEqual([OrderStatus.timedOut]);
    expect(gateways[gateway].books().payments.size).toBe(payments);
    // a second try answers the same (the closed order does not hold the machine)
    expect((await create(machine, gateway)).statusCode).toBe(400);
  });

  it('a machine whose unpaid order is on such a config is refused naming the field, not 500: the order stays as it is (it may be paid at the gateway)', async () => {
    const configId = await configWith('alipay', '下单密钥坏-未付', { secrets: { appPrivateKey: '这不是私钥' } });
    const machine = await machineOn('alipay', configId);
    const now = Date.now();
    const orderNo = `RK${now}${randomBytes(4).toString('hex')}`;
    await insertOrder(t.ctx.db, {
      orderNo, payType: PayType.alipay, machineNo: machine.machineNo, goodsName: '矿泉水', goodsPrice: 250, aisleNo: 'A1', orderStatus: OrderStatus.processing,
      mchId: alipay.account.sellerId, createTime: now - 60_000, payTime: null, configId, expireAt: now + 240_000, updateTime: now - 60_000,
    });
    const answer = await create(machine, 'alipay');
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().msg).toBe(fill(messages.terminal.payConfigKeyBroken, { label: messages.payConfig.appPrivateKey }));
    expect((await ordersOf(machine.machineNo)).map((o) => [o.orderNo, o.orderStatus])).toEqual([[orderNo, OrderStatus.processing]]);
  });

  it('an unpaid order left on such a config is not closed blind by the sweeper: a warning, no error line', async () => {
    const configId = await configWith('wechat_v3', '下单密钥坏-遗留', { secrets: { rsaKey: '这不是私钥' } });
    const now = Date.now();
    const orderNo = `RK${now}${randomBytes(4).toString('hex')}`;
    await insertOrder(t.ctx.db, {
      orderNo, machineNo: `RK-${randomBytes(3).toString('hex')}`, goodsName: '可乐', goodsPrice: 50, aisleNo: 'A1', orderStatus: OrderStatus.processing,
      mchId: v3.account.mchid, createTime: now, payTime: null, configId, expireAt: now + 60_000, updateTime: now,
    });
    const log = silentLog();
    const swept = await later(() => rt.sweepOrders({ log }));
    // (the unpaid order of the case above is on a broken config as well)
    expect(swept.claimed).toBeGreaterThanOrEqual(1);
    expect(swept).toMatchObject({ failed: swept.claimed, paid: 0, closed: 0 });
    expect(log.error).not.toHaveBeenCalled();
    expect(log.warn).toHaveBeenCalled();
    expect((await t.ctx.db.selectFrom('pay_order').select('orderStatus').where('orderNo', '=', orderNo).executeTakeFirstOrThrow()).orderStatus).toBe(OrderStatus.processing);
  });
});
