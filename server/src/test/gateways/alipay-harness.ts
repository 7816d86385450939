import { startFakeAlipay, type FakeAlipay } from '../../../../tools/fake-gateways/alipay.ts';
import { type PayAccount, AlipayGateway } from '../../modules/pay/gateways/index.ts';
import type { ContractHarness } from '../gateway-contract-suite.ts';

/** A 支付配置 for the fake, as an operator would paste the values it prints. */
export function alipayAccountOf(fake: FakeAlipay, id = 1): PayAccount {
  const a = fake.account;
  return {
    id, gateway: 'alipay', partner: a.sellerId, appid: a.appId, partnerKey: '', subMchId: '', signType: 'RSA2', sellerUserId: '',
    certSerialNo: '', platformPubKeyId: '', platformPubKey: '', alipayPublicKey: a.alipayPublicKey,
    secrets: { partnerKey: '', certPassword: '', rsaKey: '', apiV3Key: '', appPrivateKey: a.appPrivateKey, apiCert: '' },
  };
}

export async function alipayHarness(): Promise<ContractHarness<PayAccount> & { fake: FakeAlipay }> {
  const fake = await startFakeAlipay();
  return {
    fake, gateway: new AlipayGateway({ gatewayUrl: fake.gatewayUrl }), account: alipayAccountOf(fake),
    pay: (orderNo) => fake.pay(orderNo), notifyPaid: (orderNo, o) => fake.notifyPaid(orderNo, o as never), stop: () => fake.close(),
  };
}
