import { PayType } from '@huiyun/contract';
import { startFakeAlipay } from '../../../../../tools/fake-gateways/alipay.ts';
import { alipayAccountOf } from '../../../test/gateways/alipay-harness.ts';
import { realGatewaySuite } from '../../../test/real-gateway-suite.ts';

// Alipay 当面付 end to end: form notifications signed RSA2; the acknowledgement is the text `success`.
realGatewaySuite('alipay', { refundNotifications: false }, async () => {
  const fake = await startFakeAlipay();
  return {
    gateway: 'alipay', payType: PayType.alipay, fake: { ...fake, books: fake.books, notifyRefund: undefined } as never, account: alipayAccountOf(fake), env: { ALIPAY_GATEWAY_URL: fake.gatewayUrl },
    signtest: false,
    accepted: fake.acknowledged,
  };
});
