// The server's time zone must not matter: Alipay reads every time as Beijing time.
import { inTimeZone } from '../../../../test/time-zone.ts';
import { createSign, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayContract, startReceiver } from '../../../../test/gateway-contract-suite.ts';
import { GatewayVerifyError, type ClosedNotification, type PaidNotification, type PayAccount } from '../gateway.ts';
import { AlipayGateway } from './gateway.ts';
import { alipayHarness } from '../../../../test/gateways/alipay-harness.ts';

inTimeZone('UTC');

gatewayContract('alipay', { refundNotifications: false }, () => alipayHarness());

describe('Alipay specifics (TZ=UTC)', () => {
  let h: Awaited<ReturnType<typeof alipayHarness>>;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    h = await alipayHarness();
    rx = await startReceiver(h.gateway);
  });
  afterAll(async () => {
    await h?.stop();
    await rx?.close();
  });
  const create = async (amount: number) => {
    const orderNo = `T${Date.now()}${Math.random().toString(16).slice(2, 8)}`;
    await h.gateway.createPayment(h.account, { orderNo, amount, subject: '雪碧', expireAt: Date.now() + 60_000, notifyUrl: `${rx.origin}/gateway/alipay/notify/${orderNo}` });
    return orderNo;
  };

  it('stamps requests in Beijing time while the process runs in UTC', async () => {
    expect(new Date().getTimezoneOffset()).toBe(0);
    await create(100);
    const stamped = h.fake.timestamps.at(-1)!;
    const beijing = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(stamped.slice(0, 16)).toBe(beijing);
  });

  it('an unscanned QR does not exist at Alipay: query and close answer closed, not an error', async () => {
    const orderNo = await create(100);
    expect(await h.gateway.query(h.account, orderNo)).toEqual({ state: 'closed' });
    expect(await h.gateway.close(h.account, orderNo)).toEqual({ state: 'closed' });
  });

  it('a scanned, unpaid trade exists: query says unpaid, close closes it, and it stays closed', async () => {
    const orderNo = await create(100);
    const page = await fetch(`${h.fake.baseUrl}/pay/${orderNo}`); // the customer scans: the trade now exists
    expect(page.status).toBe(200);
    expect(await h.gateway.query(h.account, orderNo)).toEqual({ state: 'unpaid' });
    expect(await h.gateway.close(h.account, orderNo)).toEqual({ state: 'closed' });
    expect(h.fake.books.payments.get(orderNo)?.status).toBe('closed');
    expect(await h.fake.pay(orderNo)).toBeUndefined(); // a closed trade takes no payment
  });

  it('reads the pay time of a notification as Beijing time', async () => {
    const orderNo = await create(100);
    const before = Date.now();
    await h.pay(orderNo);
    const paid = (await h.gateway.verifyNotification(h.account, (await rx.next('notify', orderNo, 0)).body, {})) as PaidNotification;
    expect(paid.payTime).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(paid.payTime).toBeLessThanOrEqual(Date.now());
  });

  it('after a full refund Alipay notifies TRADE_CLOSED: verified, and reported as no payment (it must not touch money)', async () => {
    const orderNo = await create(300);
    await h.pay(orderNo);
    const from = rx.received.length;
    expect((await h.gateway.refund(h.account, { orderNo, refundNo: `R${orderNo}`, amount: 300 })).state).toBe('success');
    const closed = await rx.next('notify', orderNo, from);
    expect(new URLSearchParams(closed.body).get('trade_status')).toBe('TRADE_CLOSED');
    const told = (await h.gateway.verifyNotification(h.account, closed.body, {})) as ClosedNotification;
    expect(told).toMatchObject({ closed: true, orderNo });
  });

  it("verifies a value holding '%' (checkNotifySign V1 threw on it) and answers the literal text success", async () => {
    const orderNo = await create(100);
    await h.gateway.createPayment(h.account, { orderNo: `${orderNo}P`, amount: 100, subject: '100% 果汁', expireAt: Date.now() + 60_000, notifyUrl: `${rx.origin}/gateway/alipay/notify/${orderNo}P` });
    await h.pay(`${orderNo}P`);
    const r = await rx.next('notify', `${orderNo}P`, 0);
    expect(new URLSearchParams(r.body).get('subject')).toBe('100% 果汁');
    await expect(Promise.resolve(h.gateway.verifyNotification(h.account, r.body, {}))).resolves.toMatchObject({ orderNo: `${orderNo}P`, amount: 100 });
    expect(h.gateway.acknowledgement(true, '').body).toBe('success');
  });
});

describe('Alipay notifications are verified with the 签名方式 of the 支付配置 only', () => {
  const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const gateway = new AlipayGateway({ gatewayUrl: 'http://127.0.0.1:9/gateway.do' });
  const accountOf = (signType: 'RSA2' | 'RSA'): PayAccount => ({
    id: 7, gateway: 'alipay', partner: '2088000000000001', appid: '2021000000000001', partnerKey: '', subMchId: '', signType, sellerUserId: '',
    certSerialNo: '', platformPubKeyId: '', platformPubKey: '', alipayPublicKey: String(alipay.publicKey.export({ format: 'pem', type: 'spki' })),
    secrets: { partnerKey: '', certPassword: '', rsaKey: '', apiV3Key: '', appPrivateKey: String(app.privateKey.export({ format: 'pem', type: 'pkcs8' })), apiCert: '' },
  });
  /** A paid notification signed by Alipay's key (the one matching 支付宝公钥) with `algorithm`, naming `signType`. */
  const notification = (algorithm: 'RSA-SHA1' | 'RSA-SHA256', signType: 'RSA' | 'RSA2') => {
    const form: Record<string, string> = {
      app_id: '2021000000000001', charset: 'utf-8', gmt_payment: '2026-11-28 10:00:00', notify_type: 'trade_status_sync', out_trade_no: 'T2026112810000000D3',
      seller_id: '2088000000000001', total_amount: '2.50', trade_no: '2026112822001400000000000001', trade_status: 'TRADE_SUCCESS', version: '1.0',
    };
    const text = Object.keys(form).sort().map((k) => `${k}=${form[k]}`).join('&');
    return new URLSearchParams({ ...form, sign: createSign(algorithm).update(text, 'utf8').sign(alipay.privateKey, 'base64'), sign_type: signType }).toString();
  };

  it('refuses sign_type=RSA (RSA-SHA1) on a config whose 签名方式 is RSA2, and RSA2 on an RSA config', () => {
    expect(() => gateway.verifyNotification(accountOf('RSA2'), notification('RSA-SHA1', 'RSA'))).toThrow(GatewayVerifyError);
    expect(() => gateway.verifyNotification(accountOf('RSA'), notification('RSA-SHA256', 'RSA2'))).toThrow(GatewayVerifyError);
  });

  it('accepts each algorithm on the config that names it (the notifications above are properly signed)', () => {
    expect(gateway.verifyNotification(accountOf('RSA2'), notification('RSA-SHA256', 'RSA2'))).toMatchObject({ orderNo: 'T2026112810000000D3', amount: 250 });
    expect(gateway.verifyNotification(accountOf('RSA'), notification('RSA-SHA1', 'RSA'))).toMatchObject({ orderNo: 'T2026112810000000D3', amount: 250 });
  });
});
