// Run away from Beijing time: every time WeChat Pay sends or reads is Beijing time, whatever the server's TZ.
import { inTimeZone } from '../../../../test/time-zone.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayContract, startReceiver } from '../../../../test/gateway-contract-suite.ts';
import { GatewayVerifyError } from '../gateway.ts';
import { WechatV3Gateway } from './gateway.ts';
import { wechatV3Harness } from '../../../../test/gateways/wechat-v3-harness.ts';

inTimeZone('UTC');

gatewayContract('wechat_v3 (public key mode, PUB_KEY_ID_)', { refundNotifications: true }, () => wechatV3Harness());
gatewayContract('wechat_v3 (platform certificates from /v3/certificates)', { refundNotifications: true }, () => wechatV3Harness({ platformCertificate: true }));

describe('WeChat Pay APIv3 notifications', () => {
  let h: Awaited<ReturnType<typeof wechatV3Harness>>;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let orderNo: string;
  beforeAll(async () => {
    h = await wechatV3Harness();
    rx = await startReceiver(h.gateway);
    orderNo = `T${Date.now()}V3`;
    await h.gateway.createPayment(h.account, { orderNo, amount: 100, subject: '水', expireAt: Date.now() + 60_000, notifyUrl: `${rx.origin}/gateway/wechat_v3/notify/${orderNo}` });
    await h.pay(orderNo);
    await rx.next('notify', orderNo, 0);
  });
  afterAll(async () => {
    await h?.stop();
    await rx?.close();
  });
  const sent = async (o: Parameters<typeof h.fake.notifyPaid>[1]) => {
    const from = rx.received.length;
    await h.fake.notifyPaid(orderNo, o);
    return rx.next('notify', orderNo, from);
  };

  it("refuses WeChat's signature probe (WECHATPAY/SIGNTEST/…) even though the rest is genuine", async () => {
    const probe = await sent({ signature: 'signtest' });
    expect(String(probe.headers['wechatpay-signature'])).toMatch(/^WECHATPAY\/SIGNTEST\//);
    await expect(h.gateway.verifyNotification(h.account, probe.body, probe.headers)).rejects.toThrow(/probe/);
  });

  it('refuses a notification signed more than 300 s ago or ahead, accepts one within', async () => {
    // judged by a gateway whose clock is set against the notification's own signed time, so how long the
    // delivery took (seconds on a loaded machine) cannot move it across the bound
    const signed = await sent({});
    const at = Number(signed.headers['wechatpay-timestamp']) * 1000;
    const verifyAt = (ms: number) => new WechatV3Gateway({ baseUrl: h.fake.baseUrl, now: () => at + ms }).verifyNotification(h.account, signed.body, signed.headers);
    for (const offset of [301_000, -301_000]) await expect(verifyAt(offset)).rejects.toThrow(/300/);
    for (const offset of [300_000, -300_000, 0]) await expect(verifyAt(offset)).resolves.toMatchObject({ orderNo });
  });

  it('refuses a platform key serial it does not know, and a resource under another APIv3 key', async () => {
    const good = await sent({});
    await expect(h.gateway.verifyNotification(h.account, good.body, { ...good.headers, 'wechatpay-serial': 'PUB_KEY_ID_0000' })).rejects.toBeInstanceOf(GatewayVerifyError);
    const otherKey = { ...h.account, secrets: { ...h.account.secrets, apiV3Key: 'x'.repeat(32) } };
    await expect(h.gateway.verifyNotification(otherKey, good.body, good.headers)).rejects.toThrow(/APIv3 key/);
  });

  it('acknowledges with 204 and refuses with a 4xx {"code":"FAIL"} (a 200 with FAIL is not retried by WeChat)', () => {
    expect(h.gateway.acknowledgement(true, 'ok').status).toBe(204);
    const refusal = h.gateway.acknowledgement(false, '签名错误');
    expect(refusal.status).toBe(400);
    expect(JSON.parse(refusal.body)).toEqual({ code: 'FAIL', message: '签名错误' });
  });
});
