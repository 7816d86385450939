import { startFakeWechatV3, type FakeWechatV3 } from '../../../../tools/fake-gateways/wechat-v3.ts';
import { type PayAccount, WechatV3Gateway } from '../../modules/pay/gateways/index.ts';
import type { ContractHarness } from '../gateway-contract-suite.ts';

/** A 支付配置 for the fake, as an operator would paste the values it prints. */
export function wechatV3AccountOf(fake: FakeWechatV3, id = 1): PayAccount {
  const a = fake.account;
  return {
    id, gateway: 'wechat_v3', partner: a.mchid, appid: a.appid, partnerKey: '', subMchId: '', signType: '', sellerUserId: '',
    certSerialNo: a.certSerialNo, platformPubKeyId: a.platformPubKeyId, platformPubKey: a.platformPublicKey, alipayPublicKey: '',
    secrets: { partnerKey: '', certPassword: '', rsaKey: a.merchantPrivateKey, apiV3Key: a.apiV3Key, appPrivateKey: '', apiCert: '' },
  };
}

/** platformCertificate: the fake signs with a platform certificate the gateway downloads (older merchants). */
export async function wechatV3Harness(options: { platformCertificate?: boolean } = {}): Promise<ContractHarness<PayAccount> & { fake: FakeWechatV3 }> {
  const fake = await startFakeWechatV3(options);
  return {
    fake, gateway: new WechatV3Gateway({ baseUrl: fake.baseUrl }), account: wechatV3AccountOf(fake),
    pay: (orderNo) => fake.pay(orderNo), notifyPaid: (orderNo, o) => fake.notifyPaid(orderNo, o), stop: () => fake.close(),
  };
}
