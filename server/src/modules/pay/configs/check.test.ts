import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, messages, PayType } from '@huiyun/contract';
import { startFakeAlipay, type FakeAlipay } from '../../../../../tools/fake-gateways/alipay.ts';
import { seededConfigs } from '../../../../../tools/fake-gateways/seed.ts';
import { startFakeWechatV2, type FakeWechatV2 } from '../../../../../tools/fake-gateways/wechat-v2.ts';
import { startFakeWechatV3, type FakeWechatV3 } from '../../../../../tools/fake-gateways/wechat-v3.ts';
import { twoCompanies } from '../../../test/companies.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { WechatV2Gateway } from '../gateways/index.ts';

// POST /api/Config/check on SQLite and (TEST_DATABASE_URL) PostgreSQL: the saved config, as the console saved it,
// checked against the local fakes: valid with the right keys, a sentence naming the field with a wrong one;
// permission 支付配置-检测 and the list's data scope; operation-logged without a key; no secret in the answer.

const m = messages.payConfigCheck;
let t: TestApp;
let v3: FakeWechatV3;
let v2: FakeWechatV2;
let alipay: FakeAlipay;
let adminA: string;
let adminB: string;
let userA: string;
const ids: Record<string, number> = {};

const save = async (token: string, body: Record<string, unknown>) => {
  const answer = await t.call('POST', '/api/Config/save', { token, body });
  expect(answer.body).toMatchObject({ success: true });
  return answer.body.data.id as number;
};
const check = (token: string, body: unknown) => t.call('POST', '/api/Config/check', { token, body });
const otherPrivateKey = () => String(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
const otherPublicKey = () => String(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'pem', type: 'spki' }));

beforeAll(async () => {
  [v3, v2, alipay] = await Promise.all([startFakeWechatV3(), startFakeWechatV2(), startFakeAlipay()]);
  t = await startTestApp({ WECHATPAY_BASE_URL: v3.baseUrl, ALIPAY_GATEWAY_URL: alipay.gatewayUrl });
  // APIv2 on its own HTTPS port, its CA trusted (production: one host for both, the system's CAs)
  t.payments.gateways.replace(new WechatV2Gateway({ baseUrl: v2.baseUrl, tlsCa: v2.certs.caPem }));
  ({ adminA, adminB, userA } = await twoCompanies(t, 'chk', '检测'));
  const configs = seededConfigs({ v3, v2, alipay }, 'https://pay.example.com');
  const byGateway = Object.fromEntries(configs.map((c) => [c.gateway, c]));
  ids.v3 = await save(adminA, byGateway.wechat_v3!);
  ids.v3WrongKey = await save(adminA, { ...byGateway.wechat_v3, name: 'V3 私钥错', rsaKey: otherPrivateKey() });
  ids.v2 = await save(adminA, byGateway.wechat_v2!);
  ids.v2WrongKey = await save(adminA, { ...byGateway.wechat_v2, name: 'V2 密钥错', partnerKey: 'f'.repeat(32) });
  ids.alipay = await save(adminA, byGateway.alipay!);
  ids.alipayWrongKey = await save(adminA, { ...byGateway.alipay, name: '支付宝公钥错', alipayPublicKey: otherPublicKey() });
  ids.simulator = await save(adminA, { name: '模拟网关', payType: PayType.wechat, gateway: 'simulator', partner: '', notifyUrl: '', partnerKey: '' });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([v3?.close(), v2?.close(), alipay?.close()]);
});

describe('支付配置 → 检测', () => {
  it('answers valid for each gateway with the right keys, with what it proved', async () => {
    for (const [key, proved] of [['v3', m.v3RequestValid], ['v2', m.v2RequestValid], ['alipay', m.alipayRequestValid], ['simulator', m.simulatorValid]] as const) {
      const { status, body } = await check(adminA, { id: ids[key] });
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, data: { ok: true } });
      expect(body.msg).toBe(body.data.message);
      expect(body.data.message).toContain(proved);
    }
  });

  it('with a wrong key: not valid, the sentence names the field to fix', async () => {
    for (const [key, reason] of [['v3WrongKey', m.v3SignError], ['v2WrongKey', m.v2SignError], ['alipayWrongKey', m.alipayAnswerBadSign]] as const) {
      const { status, body } = await check(adminA, { id: ids[key] });
      expect(status).toBe(200);
      expect(body.data.ok).toBe(false);
      expect(body.msg).toBe(fill(m.invalid, { reason }));
    }
  });

  it('never answers or logs a secret; the operation log names the config', async () => {
    const secrets = [v3.account.merchantPrivateKey, v3.account.apiV3Key, v2.account.apiKey, alipay.account.appPrivateKey];
    for (const id of Object.values(ids)) {
      const { raw } = await check(adminA, { id });
      expect(secrets.filter((s) => raw.body.includes(s))).toEqual([]);
    }
    const logged = await t.ctx.db.selectFrom('sys_oper_log').selectAll().where('action', '=', m.action).execute();
    expect(logged.length).toBeGreaterThanOrEqual(Object.keys(ids).length);
    expect(logged.every((row) => row.module === messages.payConfig.title)).toBe(true);
    expect(logged.map((row) => row.target)).toContain(`id ${ids.v3} 微信支付 V3（本地模拟）`);
    // a key whole, or a piece of its body
    const text = JSON.stringify(logged);
    expect(secrets.filter((s) => text.includes(s.length > 80 ? s.slice(40, 80) : s))).toEqual([]);
  });

  it('needs 支付配置-检测 and the config in the caller\'s companies; an unknown or malformed id is refused in Chinese', async () => {
    expect((await check(userA, { id: ids.v3 })).status).toBe(403);
    expect((await check(adminB, { id: ids.v3 })).status).toBe(403);
    const missing = await check(adminA, { id: 2_000_000_000 });
    expect(missing.status).toBe(404);
    for (const id of [undefined, 'x', -1, 2_147_483_648]) {
      const refused = await check(adminA, { id });
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it('the permission exists in the database, granted to 公司管理员 (the seed adds a new code at start)', async () => {
    const granted = await t.ctx.db
      .selectFrom('sys_permission as p')
      .innerJoin('sys_role_permission as rp', 'rp.permissionId', 'p.permissionId')
      .select(['p.permissionName', 'rp.roleId'])
      .where('p.permission', '=', 'pay:Config:check')
      .execute();
    expect(granted.map((g) => g.permissionName)).toContain('支付配置-检测');
    expect(granted.length).toBe(2); // 超级管理员 and 公司管理员
  });
});
