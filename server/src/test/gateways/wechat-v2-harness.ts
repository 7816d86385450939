import { startFakeWechatV2, type FakeWechatV2 } from '../../../../tools/fake-gateways/wechat-v2.ts';
import { type PayAccount, WechatV2Gateway } from '../../modules/pay/gateways/index.ts';
import type { ContractHarness } from '../gateway-contract-suite.ts';

/** A 支付配置 for the fake, as an operator would paste the values it prints (the API certificate as PKCS#12 base64). */
export function wechatV2AccountOf(fake: FakeWechatV2, signType: 'MD5' | 'HMAC-SHA256' = 'MD5', id = 1): PayAccount {
  const a = fake.account;
  return {
    id, gateway: 'wechat_v2', partner: a.mchid, appid: a.appid, partnerKey: '', subMchId: '', signType, sellerUserId: '',
    certSerialNo: '', platformPubKeyId: '', platformPubKey: '', alipayPublicKey: '',
    secrets: { partnerKey: a.apiKey, certPassword: '', rsaKey: '', apiV3Key: '', appPrivateKey: '', apiCert: fake.certs.clientP12.toString('base64') },
  };
}

export async function wechatV2Harness(signType: 'MD5' | 'HMAC-SHA256' = 'MD5'): Promise<ContractHarness<PayAccount> & { fake: FakeWechatV2 }> {
  const fake = await startFakeWechatV2();
  return {
    fake, gateway: new WechatV2Gateway({ baseUrl: fake.baseUrl, tlsCa: fake.certs.caPem }), account: wechatV2AccountOf(fake, signType),
    pay: (orderNo) => fake.pay(orderNo), notifyPaid: (orderNo, o) => fake.notifyPaid(orderNo, o as never), stop: () => fake.close(),
  };
}
