import { generateKeyPairSync } from 'node:crypto';
import { makeCertificates, type FakeCertificates } from '../../../tools/fake-gateways/certificates.ts';

// Keys and certificates that load, for tests that save a 支付配置 (the save parses every key: pay-config/key-checks.ts).
// Made once per test file, on first use.

export type TestRsaKeys = { privatePem: string; publicPem: string; privateBase64: string; publicBase64: string; pkcs1PrivatePem: string };

function rsaKeys(): TestRsaKeys {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = String(privateKey.export({ format: 'pem', type: 'pkcs8' })).trim();
  const publicPem = String(publicKey.export({ format: 'pem', type: 'spki' })).trim();
  return {
    privatePem, publicPem,
    privateBase64: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicBase64: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    pkcs1PrivatePem: String(privateKey.export({ format: 'pem', type: 'pkcs1' })).trim(),
  };
}

const made = new Map<string, TestRsaKeys>();
/** An RSA key pair, one per name (two names: two pairs that do not match). */
export function testRsaKeys(name = 'default'): TestRsaKeys {
  let keys = made.get(name);
  if (!keys) made.set(name, (keys = rsaKeys()));
  return keys;
}

const certificates = new Map<string, FakeCertificates>();
/** A WeChat Pay merchant API certificate issued to `merchantNo` (as the fakes make them: CN = 商户号, p12 password = 商户号). */
export function testMerchantCertificate(merchantNo: string): FakeCertificates & { p12Base64: string } {
  let certs = certificates.get(merchantNo);
  if (!certs) certificates.set(merchantNo, (certs = makeCertificates(merchantNo)));
  return { ...certs, p12Base64: certs.clientP12.toString('base64') };
}

/** A 32-character APIv3 key. */
export const TEST_API_V3_KEY = 'APIv3Key-0123456789abcdefABCDEFG';
