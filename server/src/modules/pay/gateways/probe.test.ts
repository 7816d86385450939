import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, messages } from '@huiyun/contract';
import { alipayHarness } from '../../../test/gateways/alipay-harness.ts';
import type { PayAccount } from './gateway.ts';
import { wechatV2Harness } from '../../../test/gateways/wechat-v2-harness.ts';
import { wechatV3Harness } from '../../../test/gateways/wechat-v3-harness.ts';
import { WechatV3Gateway } from './wechat-v3/gateway.ts';

// 检测 (PaymentGateway.probe) against the local fakes with one key wrong at a time: the answer is not valid,
// and the failed check's sentence names the field of the 支付配置 to fix. (Valid with the right keys: the
// gateway contract suite.)

const m = messages.payConfigCheck;
const otherKeys = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = {
  privateKey: () => String(otherKeys().privateKey.export({ format: 'pem', type: 'pkcs8' })),
  publicKey: () => String(otherKeys().publicKey.export({ format: 'pem', type: 'spki' })),
};
const withSecrets = (a: PayAccount, secrets: Partial<PayAccount['secrets']>): PayAccount => ({ ...a, secrets: { ...a.secrets, ...secrets } });
const failures = (r: { checks: { ok: boolean; message: string }[] }) => r.checks.filter((c) => !c.ok).map((c) => c.message);

describe('检测 of a WeChat Pay APIv3 config', () => {
  let h: Awaited<ReturnType<typeof wechatV3Harness>>;
  let certificates: Awaited<ReturnType<typeof wechatV3Harness>>;
  beforeAll(async () => {
    [h, certificates] = await Promise.all([wechatV3Harness(), wechatV3Harness({ platformCertificate: true })]);
  });
  afterAll(async () => {
    await h?.stop();
    await certificates?.stop();
  });

  it('with the right keys says what it proved: the merchant keys, and the answer verified with the platform key', async () => {
    const r = await h.gateway.probe!(h.account);
    expect(r).toMatchObject({ ok: true, message: fill(m.valid, { proved: `${m.v3RequestValid}；${m.v3AnswerValid}` }) });
  });

  it('a wrong merchant private key or certificate serial: 签名错误, check 商户私钥 and 商户证书序列号', async () => {
    for (const account of [withSecrets(h.account, { rsaKey: pem.privateKey() }), { ...h.account, certSerialNo: randomBytes(20).toString('hex').toUpperCase() }]) {
      const r = await h.gateway.probe!(account);
      expect(r.ok).toBe(false);
      expect(failures(r)).toEqual([m.v3SignError]);
      expect(r.message).toBe(fill(m.invalid, { reason: m.v3SignError }));
      expect(r.message).toContain(messages.payConfig.rsaKey);
      expect(r.message).toContain(messages.payConfig.certSerialNo);
    }
  });

  it('a wrong platform public key: the request passes, the answer does not verify: check 平台公钥; a wrong 平台公钥ID says so', async () => {
    const wrongKey = await h.gateway.probe!({ ...h.account, platformPubKey: pem.publicKey() });
    expect(wrongKey.ok).toBe(false);
    expect(wrongKey.checks).toEqual([{ name: m.checkRequest, ok: true, message: m.v3RequestValid }, { name: m.checkAnswer, ok: false, message: m.v3AnswerBadSign }]);
    expect(wrongKey.message).toContain(messages.payConfig.platformPubKey);
    const wrongId = await h.gateway.probe!({ ...h.account, platformPubKeyId: 'PUB_KEY_ID_0000000000000000000000000000' });
    expect(failures(wrongId)).toEqual([m.v3UnknownSerial]);
  });

  it('a key that is not a key names its field before anything is sent', async () => {
    expect(failures(await h.gateway.probe!(withSecrets(h.account, { rsaKey: 'not a key' })))).toEqual([fill(m.keyUnreadable, { label: messages.payConfig.rsaKey })]);
    expect(failures(await h.gateway.probe!({ ...h.account, platformPubKey: 'not a key' }))).toEqual([fill(m.keyUnreadable, { label: messages.payConfig.platformPubKey })]);
  });

  it('platform certificates: valid with the right APIv3 key; a wrong one cannot open them: check APIv3密钥', async () => {
    const right = await certificates.gateway.probe!(certificates.account);
    expect(right.ok).toBe(true);
    expect(right.checks.map((c) => c.message)).toContain(m.v3CertificatesValid);
    const wrong = await certificates.gateway.probe!(withSecrets(certificates.account, { apiV3Key: randomBytes(16).toString('hex') }));
    expect(failures(wrong)).toEqual([m.v3ApiV3Key]);
  });

  it('a gateway that does not answer: 无法连接支付网关', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = await new WechatV3Gateway({ baseUrl: `http://127.0.0.1:${port}` }).probe(h.account);
    expect(failures(r)).toEqual([m.unreachable]);
  });
});

describe('检测 of a WeChat Pay APIv2 config', () => {
  let h: Awaited<ReturnType<typeof wechatV2Harness>>;
  let other: Awaited<ReturnType<typeof wechatV2Harness>>;
  beforeAll(async () => {
    [h, other] = await Promise.all([wechatV2Harness(), wechatV2Harness()]);
  });
  afterAll(async () => {
    await h?.stop();
    await other?.stop();
  });

  it('with the right keys: the APIv2 key and the API certificate (TLS handshake, its 商户号)', async () => {
    const r = await h.gateway.probe!(h.account);
    expect(r.checks).toEqual([
      { name: m.checkRequest, ok: true, message: m.v2RequestValid },
      { name: m.checkApiCert, ok: true, message: fill(m.apiCertValid, { partner: h.account.partner }) },
    ]);
  });

  it('a wrong APIv2 key: 签名错误, check 商户密钥（APIv2密钥）', async () => {
    const r = await h.gateway.probe!(withSecrets(h.account, { partnerKey: randomBytes(16).toString('hex') }));
    expect(failures(r)).toEqual([m.v2SignError]);
    expect(r.message).toContain('APIv2密钥');
  });

  it("another merchant's API certificate, or the wrong certificate password, names API证书", async () => {
    const foreign = await h.gateway.probe!(withSecrets(h.account, { apiCert: other.fake.certs.clientP12.toString('base64'), certPassword: other.fake.account.mchid }));
    expect(failures(foreign)).toEqual([fill(m.apiCertOtherMerchant, { owner: other.fake.account.mchid, partner: h.account.partner })]);
    const password = await h.gateway.probe!(withSecrets(h.account, { certPassword: 'not-the-password' }));
    expect(failures(password)).toEqual([m.apiCertUnreadable]);
  });
});

describe('检测 of an Alipay config', () => {
  let h: Awaited<ReturnType<typeof alipayHarness>>;
  beforeAll(async () => {
    h = await alipayHarness();
  });
  afterAll(() => h?.stop());

  it('with the right keys: the request signature accepted, the answer verified with the 支付宝公钥', async () => {
    const r = await h.gateway.probe!(h.account);
    expect(r).toMatchObject({ ok: true, message: fill(m.valid, { proved: `${m.alipayRequestValid}；${m.alipayAnswerValid}` }) });
  });

  it('a wrong application private key: isv.invalid-signature, check 应用私钥', async () => {
    const r = await h.gateway.probe!(withSecrets(h.account, { appPrivateKey: pem.privateKey() }));
    expect(failures(r)).toEqual([m.alipaySignError]);
    expect(r.message).toContain(messages.payConfig.appPrivateKey);
  });

  it('a wrong Alipay public key: the request passes, the answer does not verify: check 支付宝公钥', async () => {
    const r = await h.gateway.probe!({ ...h.account, alipayPublicKey: pem.publicKey() });
    expect(r.checks).toEqual([{ name: m.checkRequest, ok: true, message: m.alipayRequestValid }, { name: m.checkAnswer, ok: false, message: m.alipayAnswerBadSign }]);
    expect(r.message).toContain(messages.payConfig.alipayPublicKey);
  });
});
