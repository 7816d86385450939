import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fill, messages, OrderStatus, PayType, payConfigSecretFields, TransType } from '@huiyun/contract';
import { startFakeWechatV2, type FakeWechatV2 } from '../../../../../tools/fake-gateways/wechat-v2.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { insertOrder } from '../../../test/orders.ts';
import { type PayAccount, WechatV2Gateway, payConfigPurpose } from '../gateways/index.ts';
import { wechatV2AccountOf } from '../../../test/gateways/wechat-v2-harness.ts';
import type { Payments } from './payments.ts';
import type { Log } from './runtime.ts';

// A WeChat Pay V2 refund through a 支付配置 whose API certificate does not load here never leaves this server:
// it ends 退款失败 at once, its amount released, with a refundFailed alarm — as a refund whose gateway cannot be
// built — instead of 200 退款已提交 and 退款中 forever with an error line every sweep. The configs are written
// to the database directly: the save route now refuses such certificates.

const m = messages.order;
let fake: FakeWechatV2;
let t: TestApp;
let rt: Payments;
let token: string;

beforeAll(async () => {
  fake = await startFakeWechatV2();
  t = await startTestApp({ WECHATPAY_BASE_URL: fake.baseUrl });
  rt = t.payments;
  // the fake's TLS certificate is its own CA's (production: the system's CAs)
  rt.gateways.replace(new WechatV2Gateway({ baseUrl: fake.baseUrl, tlsCa: fake.certs.caPem }));
  token = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await rt?.stop();
  await t?.close();
  await fake?.close();
});

/** A 支付配置 row as stored, bypassing the save checks: the fake's account with `secrets` changed. */
async function configWith(name: string, secrets: Partial<PayAccount['secrets']>) {
  const a = wechatV2AccountOf(fake);
  const all = { ...a.secrets, ...secrets };
  const sealed = Object.fromEntries(payConfigSecretFields.map((f) => [f, all[f] ? t.ctx.secrets.seal(payConfigPurpose(f), all[f]) : '']));
  const now = Date.now();
  const { id } = await t.ctx.db.insertInto('pay_config').values({
    deptId: 1, name, payType: PayType.wechat, gateway: 'wechat_v2', partner: a.partner, appid: a.appid, signType: a.signType, notifyUrl: 'https://pay.example.com/', ...sealed, addTime: now, editTime: now,
  }).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** An order paid through the config: in pay_order, and at the fake (its orderquery answers SUCCESS). */
async function paidOrder(configId: number, amount = 50) {
  const now = Date.now();
  const orderNo = `RU${now}${randomBytes(4).toString('hex')}`;
  const a = fake.account;
  fake.books.open({ orderNo, amount, mchId: a.mchid, appId: a.appid, subject: '可乐', notifyUrl: 'http://127.0.0.1:9/notify', expireAt: now + 60_000, createTime: now } as never);
  fake.books.pay(orderNo, `TX-${orderNo}`, now);
  const orderId = await insertOrder(t.ctx.db, {
    orderNo, transId: `TX-${orderNo}`, machineNo: 'RU-1', goodsName: '可乐', goodsPrice: amount, aisleNo: 'A1', mchId: a.mchid, createTime: now, configId, updateTime: now,
  });
  return { orderId, orderNo };
}

const row = (orderId: number) => t.ctx.db.selectFrom('pay_order').selectAll().where('orderId', '=', orderId).executeTakeFirstOrThrow();
const refundsOf = (orderId: number) => t.ctx.db.selectFrom('pay_order').selectAll().where('parentId', '=', orderId).execute();
const alarmsOf = async (orderNo: string) => (await t.ctx.db.selectFrom('pay_alarm').select('kind').where('orderNo', '=', orderNo).execute()).map((a) => a.kind);
const notSent = fill(m.refundNotSent, { label: messages.payConfig.apiCert });
const silentLog = () => ({ warn: vi.fn(), error: vi.fn() }) satisfies Log;

/** A sweep once every refund's lease (PAY_RECOVER_SECONDS) has run out. */
async function sweepLater(log: Log) {
  t.clock.advance(6 * 60_000);
  try {
    return await rt.sweepRefunds({ log });
  } finally {
    t.clock.advance(-6 * 60_000);
  }
}

describe('a WeChat Pay V2 refund whose API certificate does not load here', () => {
  it.each([
    ['garbage', () => ({ apiCert: '这不是证书' })],
    ['random base64', () => ({ apiCert: randomBytes(1200).toString('base64') })],
    ['a truncated PKCS#12', () => ({ apiCert: fake.certs.clientP12.toString('base64').slice(0, 800) })],
    ['the wrong 证书密码', () => ({ certPassword: 'not-the-password' })],
    ['a PEM certificate without its key', () => ({ apiCert: fake.certs.clientCertPem })],
  ] as const)('ends 退款失败 at once (%s): reserve released, refundFailed alarm, nothing at the gateway', async (kind, broken) => {
    const configId = await configWith(`退款证书坏-${kind}`, broken());
    const { orderId, orderNo } = await paidOrder(configId);
    const answer = await t.call('POST', '/api/Order/refund', { token, body: { orderId, amount: '0.30', reason: '测试', requestKey: randomBytes(8).toString('hex') } });
    expect(answer.status).toBe(409);
    expect(answer.body.msg).toBe(fill(m.refundFailed, { reason: notSent }));
    const [refund] = await refundsOf(orderId);
    expect(refund).toMatchObject({ orderStatus: OrderStatus.refundFailed, failReason: notSent, payAmount: -30, claimBy: '' });
    expect(await row(orderId)).toMatchObject({ reservedAmount: 0, refundedAmount: 0 });
    expect(await alarmsOf(orderNo)).toEqual(['refundFailed']);
    expect([...fake.books.refunds.values()].filter((r) => r.orderNo === orderNo)).toEqual([]);
    // nothing is left for the sweeper: no error line, no claim
    const log = silentLog();
    expect(await sweepLater(log)).toMatchObject({ refundsClaimed: 0, refundsFailed: 0 });
    expect(log.error).not.toHaveBeenCalled();
  });

  it('a refund left 退款中 by such a config is ended by the next sweep, once, without an error line', async () => {
    const configId = await configWith('退款证书坏-遗留', { apiCert: '这不是证书' });
    const { orderId, orderNo } = await paidOrder(configId);
    const now = Date.now();
    // as the code before left it: 12, its amount reserved on the order
    await insertOrder(t.ctx.db, {
      orderNo: `${orderNo}R0000abcd`, transType: TransType.refund, machineNo: 'RU-1', goodsName: '可乐', goodsPrice: 50, payAmount: -50,
      aisleNo: 'A1', orderStatus: OrderStatus.refunding, mchId: fake.account.mchid, createTime: now, payTime: null, configId, updateTime: now, parentId: orderId, requestKey: 'left-12',
    });
    await t.ctx.db.updateTable('pay_order').set({ reservedAmount: 50 }).where('orderId', '=', orderId).execute();
    const log = silentLog();
    expect(await sweepLater(log)).toMatchObject({ refundsClaimed: 1, refundsSettled: 1, refundsFailed: 0 });
    expect(log.error).not.toHaveBeenCalled();
    expect((await refundsOf(orderId))[0]).toMatchObject({ orderStatus: OrderStatus.refundFailed, failReason: notSent });
    expect(await row(orderId)).toMatchObject({ reservedAmount: 0, refundedAmount: 0 });
    expect(await alarmsOf(orderNo)).toEqual(['refundFailed']);
    expect(await sweepLater(log)).toMatchObject({ refundsClaimed: 0 });
    expect(log.error).not.toHaveBeenCalled();
  });

  it('the same refund through a config whose certificate loads goes through (the control)', async () => {
    const configId = await configWith('退款证书好', {});
    const { orderId } = await paidOrder(configId);
    const answer = await t.call('POST', '/api/Order/refund', { token, body: { orderId, amount: '0.30', reason: '测试', requestKey: randomBytes(8).toString('hex') } });
    expect(answer.status, answer.body.msg).toBe(200);
    expect((await refundsOf(orderId))[0]?.orderStatus).toBeOneOf([OrderStatus.refunding, OrderStatus.refunded]);
  });
});
