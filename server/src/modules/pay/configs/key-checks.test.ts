import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fill, messages, type PayConfigField, type PayGateway } from '@huiyun/contract';
import { TEST_API_V3_KEY, testMerchantCertificate, testRsaKeys } from '../../../test/pay-keys.ts';
import { payConfigKeyProblem } from './key-checks.ts';

// Each key and certificate of a 支付配置 is parsed at save: the malformed values an attack on the save route got
// stored (16 of 17 saved with 支付配置保存成功！) are each refused here with a message naming the field.

const m = messages.payConfig;
const MCH = '1900000109';
const OTHER_MCH = '1900000222';

/** The problem of a config of `gateway` with `values` (every field taken as changed by the save). */
function problemOf(gateway: PayGateway, values: Partial<Record<PayConfigField, string>>, changed: (field: PayConfigField) => boolean = () => true) {
  return payConfigKeyProblem(gateway, { valueOf: (field) => values[field] ?? '', changed });
}

const own = () => testMerchantCertificate(MCH);
const merchant = testRsaKeys('merchant');
const platform = testRsaKeys('platform');
const stranger = testRsaKeys('stranger');
const v2 = (apiCert: string, certPassword = '') => problemOf('wechat_v2', { partner: MCH, apiCert, certPassword });
const v3 = (values: Partial<Record<PayConfigField, string>>) => problemOf('wechat_v3', { rsaKey: merchant.privatePem, apiV3Key: TEST_API_V3_KEY, platformPubKey: platform.publicPem, ...values });
const alipay = (values: Partial<Record<PayConfigField, string>>) => problemOf('alipay', { appPrivateKey: merchant.privatePem, alipayPublicKey: platform.publicPem, ...values });
const label = (field: PayConfigField) => ({ label: m[field] });

describe('the 17 malformed values, each refused naming its field', () => {
  it.each([
    // WeChat Pay V2: the merchant API certificate
    ['apiCert: garbage text', () => v2('这不是证书，只是一段文字'), fill(m.apiCertMalformed, label('apiCert'))],
    ['apiCert: random base64', () => v2(randomBytes(1500).toString('base64')), fill(m.apiCertMalformed, label('apiCert'))],
    ['apiCert: a truncated PKCS#12', () => v2(own().p12Base64.slice(0, 1200)), fill(m.apiCertMalformed, label('apiCert'))],
    ['apiCert: a PKCS#12 with the wrong 证书密码', () => v2(own().p12Base64, 'not-the-password'), fill(m.apiCertPassword, label('apiCert'))],
    ['apiCert: a PKCS#12 of another 商户号', () => v2(testMerchantCertificate(OTHER_MCH).p12Base64, OTHER_MCH), fill(m.apiCertMerchant, { ...label('apiCert'), partner: MCH, owner: OTHER_MCH })],
    ['apiCert: a PEM certificate without its key', () => v2(own().clientCertPem), fill(m.apiCertNoKey, label('apiCert'))],
    ['apiCert: a key without its certificate', () => v2(own().clientKeyPem), fill(m.apiCertNoCert, label('apiCert'))],
    ['apiCert: a mismatched pair', () => v2(`${own().clientCertPem}\n${stranger.privatePem}`), fill(m.apiCertMismatch, label('apiCert'))],
    // WeChat Pay V3
    ['rsaKey: garbage', () => v3({ rsaKey: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----' }), fill(m.keyMalformed, label('rsaKey'))],
    ['rsaKey: a public key', () => v3({ rsaKey: merchant.publicPem }), fill(m.keyNotPrivate, label('rsaKey'))],
    ['apiV3Key: 31 characters', () => v3({ apiV3Key: TEST_API_V3_KEY.slice(1) }), fill(m.keyLength, { ...label('apiV3Key'), length: 32 })],
    ['platformPubKey: garbage', () => v3({ platformPubKey: 'PEM' }), fill(m.keyMalformed, label('platformPubKey'))],
    ['platformPubKey: a private key', () => v3({ platformPubKey: platform.privatePem }), fill(m.keyNotPublic, label('platformPubKey'))],
    // Alipay
    ['appPrivateKey: garbage', () => alipay({ appPrivateKey: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' }), fill(m.keyMalformed, label('appPrivateKey'))],
    ['appPrivateKey: a public key', () => alipay({ appPrivateKey: merchant.publicBase64 }), fill(m.keyNotPrivate, label('appPrivateKey'))],
    ['alipayPublicKey: a private key', () => alipay({ alipayPublicKey: platform.privatePem }), fill(m.keyNotPublic, label('alipayPublicKey'))],
    ['alipayPublicKey: garbage', () => alipay({ alipayPublicKey: 'not a key' }), fill(m.keyMalformed, label('alipayPublicKey'))],
  ])('%s', (_kind, problem, message) => {
    expect(problem()).toBe(message);
  });

  it('refuses a private key as a public one whatever its form (PKCS#1 PEM, bare base64), and a key that is not RSA', () => {
    expect(alipay({ alipayPublicKey: platform.pkcs1PrivatePem })).toBe(fill(m.keyNotPublic, label('alipayPublicKey')));
    expect(alipay({ alipayPublicKey: platform.privateBase64 })).toBe(fill(m.keyNotPublic, label('alipayPublicKey')));
    expect(alipay({ alipayPublicKey: `${own().clientCertPem}\n${own().clientKeyPem}` })).toBe(fill(m.keyNotPublic, label('alipayPublicKey')));
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(v3({ rsaKey: String(ec.privateKey.export({ format: 'pem', type: 'pkcs8' })) })).toBe(fill(m.keyNotRsa, label('rsaKey')));
  });
});

describe('values that load are taken', () => {
  it('WeChat Pay V2: the PKCS#12 with the 商户号 as password or its own 证书密码, a PEM certificate with its key', () => {
    expect(v2(own().p12Base64)).toBeUndefined();
    expect(v2(own().p12Base64.replace(/(.{64})/g, '$1\n'))).toBeUndefined(); // pasted base64 in lines
    expect(v2(own().p12Base64, MCH)).toBeUndefined();
    expect(v2(`${own().clientCertPem}\n${own().clientKeyPem}`)).toBeUndefined();
    expect(v2(`${own().clientKeyPem}\n${own().clientCertPem}`)).toBeUndefined();
  });

  it('WeChat Pay V3 and Alipay: keys as PEM (PKCS#8, PKCS#1) or bare base64, a platform key given as a certificate', () => {
    expect(v3({})).toBeUndefined();
    expect(v3({ rsaKey: merchant.pkcs1PrivatePem })).toBeUndefined();
    expect(v3({ rsaKey: merchant.privateBase64, platformPubKey: platform.publicBase64 })).toBeUndefined();
    expect(v3({ platformPubKey: own().clientCertPem })).toBeUndefined();
    expect(alipay({})).toBeUndefined();
    expect(alipay({ appPrivateKey: merchant.privateBase64, alipayPublicKey: platform.publicBase64 })).toBeUndefined();
  });

  it('checks only what the save changes (a masked value sent back is not checked again), and no empty value', () => {
    const broken = { partner: MCH, apiCert: 'garbage', certPassword: '' };
    expect(problemOf('wechat_v2', broken, () => false)).toBeUndefined();
    // a new 证书密码 or 商户号 checks the certificate kept with it
    expect(problemOf('wechat_v2', { partner: MCH, apiCert: own().p12Base64, certPassword: 'wrong' }, (f) => f === 'certPassword')).toBe(fill(m.apiCertPassword, label('apiCert')));
    expect(problemOf('wechat_v2', { partner: OTHER_MCH, apiCert: own().p12Base64, certPassword: MCH }, (f) => f === 'partner')).toBe(fill(m.apiCertMerchant, { ...label('apiCert'), partner: OTHER_MCH, owner: MCH }));
    expect(problemOf('wechat_v3', { rsaKey: 'garbage', apiV3Key: 'short' }, (f) => f === 'apiV3Key')).toBe(fill(m.keyLength, { ...label('apiV3Key'), length: 32 }));
    expect(problemOf('wechat_v3', { rsaKey: merchant.privatePem, apiV3Key: TEST_API_V3_KEY, platformPubKey: '' })).toBeUndefined();
    // the simulator has no keys to parse
    expect(problemOf('simulator', { partnerKey: 'anything' })).toBeUndefined();
  });
});
