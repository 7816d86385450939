import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Payment secrets and terminal keys are sealed at rest with AES-256-GCM. A sealed value is one string:
//   s1.<keyId>.<iv>.<tag>.<ciphertext>   (base64url parts)
// The key id travels beside the ciphertext, so a value sealed under an earlier key is still opened
// while its key is in the ring (PAY_SECRET_PREVIOUS_KEYS) and `npm run secrets:reseal` moves it to the
// current key. The purpose (e.g. 'pay_config.partnerKey') is bound as additional data: a sealed value
// copied into another column does not open there.

const VERSION = 's1';
const KEY_BYTES = 32;
const IV_BYTES = 12;

export type SecretKey = { id: string; key: Buffer };

export class SecretBoxError extends Error {}

/** A key from its base64 form; the id is derived from the key, so the same key always has the same id. */
export function secretKeyFromBase64(base64: string, name = 'PAY_SECRET_KEY'): SecretKey {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new SecretBoxError(`${name} must be ${KEY_BYTES} bytes in base64 (got ${key.length} bytes)`);
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

export function newSecretKeyBase64(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

export class SecretBox {
  readonly current: SecretKey;
  private readonly ring: Map<string, Buffer>;

  constructor(current: SecretKey, previous: SecretKey[] = []) {
    this.current = current;
    this.ring = new Map([...previous, current].map((k) => [k.id, k.key]));
  }

  seal(purpose: string, clear: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
    return [VERSION, this.current.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(purpose: string, sealed: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretBoxError('not a sealed value');
    const [, keyId, iv, tag, body] = parts as [string, string, string, string, string];
    const key = this.ring.get(keyId);
    if (!key) throw new SecretBoxError(`sealed under key ${keyId}, which is not in the key ring`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(`sealed value for ${purpose} does not open under key ${keyId}`);
    }
  }

  /** The key id a sealed value names (without opening it). */
  static keyIdOf(sealed: string): string | undefined {
    const parts = sealed.split('.');
    return parts.length === 5 && parts[0] === VERSION ? parts[1] : undefined;
  }

  isCurrent(sealed: string): boolean {
    return SecretBox.keyIdOf(sealed) === this.current.id;
  }
}
