import { createDecipheriv, createSign, createVerify, randomBytes, type KeyObject } from 'node:crypto';
import { GatewayVerifyError } from '../gateway.ts';

// WeChat Pay APIv3's signatures (node:crypto only): requests signed with the merchant's API key
// (WECHATPAY2-SHA256-RSA2048 over METHOD\nURL\ntimestamp\nnonce\nbody\n), answers and notifications
// verified with the platform key their Wechatpay-Serial names (RSA-SHA256 over timestamp\nnonce\nbody\n,
// the raw bytes as received), ±300 s, and encrypted resources opened with the APIv3 key (AEAD_AES_256_GCM).

export const CLOCK_SKEW_S = 300;
export const SIGNTEST_PREFIX = 'WECHATPAY/SIGNTEST/';

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

/** `nonce`: a fixed one for the signing vectors only; a request gets a fresh one. */
export function authorization(input: { mchid: string; serialNo: string; key: KeyObject; method: string; url: string; body: string; now: number; nonce?: string }): string {
  const timestamp = String(Math.floor(input.now / 1000));
  const nonce = input.nonce ?? randomBytes(16).toString('hex').toUpperCase();
  const signature = createSign('RSA-SHA256').update(`${input.method}\n${input.url}\n${timestamp}\n${nonce}\n${input.body}\n`).sign(input.key, 'base64');
  return `WECHATPAY2-SHA256-RSA2048 mchid="${input.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${input.serialNo}"`;
}

/**
 * Verifies a signed answer or notification: the signature header, the clock (±300 s of `now`, ms), the
 * key named by Wechatpay-Serial. Refuses WeChat's probes (WECHATPAY/SIGNTEST/…). Throws GatewayVerifyError.
 */
export function verifySigned(headers: Headers, rawBody: string, keyOf: (serial: string) => KeyObject | undefined, now: number): void {
  const signature = header(headers, 'wechatpay-signature');
  const timestamp = header(headers, 'wechatpay-timestamp');
  const nonce = header(headers, 'wechatpay-nonce');
  const serial = header(headers, 'wechatpay-serial');
  if (!signature || !timestamp || !nonce || !serial) throw new GatewayVerifyError('missing Wechatpay-* headers');
  if (signature.startsWith(SIGNTEST_PREFIX)) throw new GatewayVerifyError('signature probe (WECHATPAY/SIGNTEST/)');
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now / 1000 - Number(timestamp)) > CLOCK_SKEW_S) throw new GatewayVerifyError('timestamp outside ±300 s');
  const key = keyOf(serial);
  if (!key) throw new GatewayVerifyError(`unknown Wechatpay-Serial ${serial.slice(0, 64)}`);
  const ok = createVerify('RSA-SHA256').update(`${timestamp}\n${nonce}\n${rawBody}\n`).verify(key, signature, 'base64');
  if (!ok) throw new GatewayVerifyError('bad signature');
}

export type EncryptedResource = { algorithm?: string; ciphertext: string; nonce: string; associated_data?: string };

/** Opens an AEAD_AES_256_GCM resource (ciphertext = base64 of the encrypted bytes and the 16-byte tag). */
export function decryptResource(resource: EncryptedResource, apiV3Key: string): string {
  if (resource.algorithm !== undefined && resource.algorithm !== 'AEAD_AES_256_GCM') throw new GatewayVerifyError(`unknown algorithm ${resource.algorithm}`);
  const key = Buffer.from(apiV3Key, 'utf8');
  if (key.length !== 32) throw new GatewayVerifyError('the APIv3 key must be 32 bytes');
  const data = Buffer.from(String(resource.ciphertext), 'base64');
  if (data.length < 17) throw new GatewayVerifyError('ciphertext too short');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(String(resource.nonce), 'utf8'));
    decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
    decipher.setAuthTag(data.subarray(-16));
    return Buffer.concat([decipher.update(data.subarray(0, -16)), decipher.final()]).toString('utf8');
  } catch {
    throw new GatewayVerifyError('resource does not decrypt with the APIv3 key');
  }
}
