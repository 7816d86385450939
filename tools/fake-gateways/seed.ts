import { PayType } from '@huiyun/contract';
import { api, must } from '../terminal-simulator/setup.ts';
import type { FakeAlipay } from './alipay.ts';
import type { FakeWechatV2 } from './wechat-v2.ts';
import type { FakeWechatV3 } from './wechat-v3.ts';

// `npm run fake-gateways -- --seed --server URL --admin user:PASSWORD`: writes the running fakes' values into
// three 支付配置 of the signed-in operator's company (the demo company for admin), through the console API as
// an operator would paste them — saved again (same name) on every start, since the fakes make new keys.

export const SEEDED_NAMES = { wechat_v3: '微信支付 V3（本地模拟）', wechat_v2: '微信支付 V2（本地模拟）', alipay: '支付宝（本地模拟）' } as const;

type Fakes = { v3: FakeWechatV3; v2: FakeWechatV2; alipay: FakeAlipay };

/** The 支付配置 of the fakes given, as the console's 支付配置 dialog would send them. */
export function seededConfigs(f: Partial<Fakes>, server: string) {
  const notifyUrl = (gateway: string) => `${server}/gateway/${gateway}/notify`;
  return [
    ...(f.v3 ? [{
      name: SEEDED_NAMES.wechat_v3, payType: PayType.wechat, gateway: 'wechat_v3', partner: f.v3.account.mchid, appid: f.v3.account.appid, notifyUrl: notifyUrl('wechat_v3'),
      certSerialNo: f.v3.account.certSerialNo, apiV3Key: f.v3.account.apiV3Key, rsaKey: f.v3.account.merchantPrivateKey,
      platformPubKeyId: f.v3.account.platformPubKeyId, platformPubKey: f.v3.account.platformPublicKey,
    }] : []),
    ...(f.v2 ? [{
      name: SEEDED_NAMES.wechat_v2, payType: PayType.wechat, gateway: 'wechat_v2', partner: f.v2.account.mchid, appid: f.v2.account.appid, notifyUrl: notifyUrl('wechat_v2'),
      signType: 'MD5', partnerKey: f.v2.account.apiKey, apiCert: f.v2.certs.clientP12.toString('base64'),
    }] : []),
    ...(f.alipay ? [{
      name: SEEDED_NAMES.alipay, payType: PayType.alipay, gateway: 'alipay', partner: f.alipay.account.sellerId, appid: f.alipay.account.appId, notifyUrl: notifyUrl('alipay'),
      signType: 'RSA2', appPrivateKey: f.alipay.account.appPrivateKey, alipayPublicKey: f.alipay.account.alipayPublicKey,
    }] : []),
  ];
}

/** Saves the 支付配置 of the fakes given (a config of the same name is updated); answers their ids by gateway. */
export async function seedPayConfigs(f: Partial<Fakes>, options: { server: string; admin: string; password: string }): Promise<Partial<Record<keyof typeof SEEDED_NAMES, number>>> {
  const server = options.server.replace(/\/+$/, '');
  const token = must('login', await api<{ token: string }>(server, undefined, '/sync/login', { userName: options.admin, passwd: options.password })).token;
  const idOf = async (name: string) => must('支付配置列表', await api<{ id: number; name: string }[]>(server, token, '/api/Config/list', { page: 1, limit: 50, name })).find((c) => c.name === name)?.id;
  const ids: Partial<Record<keyof typeof SEEDED_NAMES, number>> = {};
  for (const config of seededConfigs(f, server)) {
    const known = await idOf(config.name);
    must(`支付配置 ${config.name}`, await api(server, token, '/api/Config/save', known ? { ...config, id: known } : config));
    const id = known ?? (await idOf(config.name));
    if (!id) throw new Error(`支付配置 ${config.name} not found after saving it`);
    ids[config.gateway as keyof typeof SEEDED_NAMES] = id;
  }
  return ids;
}
