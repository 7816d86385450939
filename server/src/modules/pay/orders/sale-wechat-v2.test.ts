import { PayType } from '@huiyun/contract';
import { startFakeWechatV2 } from '../../../../../tools/fake-gateways/wechat-v2.ts';
import { WechatV2Gateway } from '../gateways/index.ts';
import { wechatV2AccountOf } from '../../../test/gateways/wechat-v2-harness.ts';
import { realGatewaySuite } from '../../../test/real-gateway-suite.ts';

// WeChat Pay APIv2 end to end: XML notifications signed MD5; the acknowledgement is XML SUCCESS.
// Refunds go with the merchant API certificate the 支付配置 holds sealed (apiCert, PKCS#12 base64).
realGatewaySuite('wechat_v2', { refundNotifications: true }, async () => {
  const fake = await startFakeWechatV2();
  return {
    gateway: 'wechat_v2', payType: PayType.wechat, fake: fake as never, account: wechatV2AccountOf(fake), env: { WECHATPAY_BASE_URL: fake.baseUrl },
    // the fake's TLS certificate is its own CA's (production: the system's CAs)
    adapt: (rt) => void rt.gateways.replace(new WechatV2Gateway({ baseUrl: fake.baseUrl, tlsCa: fake.certs.caPem })),
    signtest: false,
    accepted: fake.acknowledged,
  };
});
