import { PayType } from '@huiyun/contract';
import { startFakeWechatV3 } from '../../../../../tools/fake-gateways/wechat-v3.ts';
import { wechatV3AccountOf } from '../../../test/gateways/wechat-v3-harness.ts';
import { realGatewaySuite } from '../../../test/real-gateway-suite.ts';

// WeChat Pay APIv3 end to end: JSON notifications, signed by the platform key, resource encrypted.
realGatewaySuite('wechat_v3', { refundNotifications: true }, async () => {
  const fake = await startFakeWechatV3();
  return {
    gateway: 'wechat_v3', payType: PayType.wechat, fake, account: wechatV3AccountOf(fake), env: { WECHATPAY_BASE_URL: fake.baseUrl },
    signtest: true,
    // 200/204 acknowledge; 4xx/5xx with {"code":"FAIL"} refuse (WeChat retries)
    accepted: fake.acknowledged,
  };
});
