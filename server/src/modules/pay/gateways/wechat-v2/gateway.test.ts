// Run away from Beijing time: every time WeChat Pay sends or reads is Beijing time, whatever the server's TZ.
import { inTimeZone } from '../../../../test/time-zone.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayContract } from '../../../../test/gateway-contract-suite.ts';
import { wechatV2Harness } from '../../../../test/gateways/wechat-v2-harness.ts';

inTimeZone('UTC');

gatewayContract('wechat_v2 (MD5)', { refundNotifications: true }, () => wechatV2Harness('MD5'));
gatewayContract('wechat_v2 (HMAC-SHA256)', { refundNotifications: true }, () => wechatV2Harness('HMAC-SHA256'));

describe('WeChat Pay APIv2 specifics', () => {
  let h: Awaited<ReturnType<typeof wechatV2Harness>>;
  beforeAll(async () => {
    h = await wechatV2Harness();
  });
  afterAll(() => h?.stop());

  it('refunds only with the merchant API certificate: without it nothing is sent, and another certificate is refused', async () => {
    const orderNo = `T${Date.now()}V2`;
    await h.gateway.createPayment(h.account, { orderNo, amount: 100, subject: '水', expireAt: Date.now() + 60_000, notifyUrl: 'http://127.0.0.1:9/gateway/wechat_v2/notify/x' });
    await h.fake.pay(orderNo);
    const noCert = { ...h.account, secrets: { ...h.account.secrets, apiCert: '' } };
    await expect(h.gateway.refund(noCert, { orderNo, refundNo: `R${orderNo}`, amount: 100 })).rejects.toThrow(/certificate/);
    const other = await wechatV2Harness();
    try {
      const foreign = { ...h.account, secrets: { ...h.account.secrets, apiCert: other.fake.certs.clientP12.toString('base64'), certPassword: other.fake.account.mchid } };
      await expect(h.gateway.refund(foreign, { orderNo, refundNo: `R${orderNo}`, amount: 100 })).rejects.toThrow(/证书错误/);
    } finally {
      await other.stop();
    }
    expect(h.fake.books.refunds.size).toBe(0);
  });

  it('acknowledges with the SUCCESS XML (anything else makes WeChat retry)', () => {
    expect(h.gateway.acknowledgement(true, '').body).toBe('<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>');
    expect(h.gateway.acknowledgement(false, '签名错误').body).toContain('FAIL');
  });
});
