import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';

// Keys as operators paste them: PEM, or the bare base64 the merchant platforms show (DER: SPKI or PKCS#1
// for public keys, PKCS#8 or PKCS#1 for private keys), or a certificate. Parsed once per text.

const cache = new Map<string, KeyObject>();

function cached(kind: string, text: string, make: () => KeyObject): KeyObject {
  const id = `${kind}\n${text}`;
  let key = cache.get(id);
  if (!key) {
    key = make();
    if (cache.size >= 500) cache.clear();
    cache.set(id, key);
  }
  return key;
}

const bare = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'base64');

export function publicKeyOf(text: string): KeyObject {
  return cached('public', text, () => {
    const t = text.trim();
    if (t.includes('BEGIN CERTIFICATE')) return new X509Certificate(t).publicKey;
    if (t.startsWith('-----')) return createPublicKey(t);
    try {
      return createPublicKey({ key: bare(t), format: 'der', type: 'spki' });
    } catch {
      return createPublicKey({ key: bare(t), format: 'der', type: 'pkcs1' });
    }
  });
}

export function privateKeyOf(text: string): KeyObject {
  return cached('private', text, () => {
    const t = text.trim();
    if (t.startsWith('-----')) return createPrivateKey(t);
    try {
      return createPrivateKey({ key: bare(t), format: 'der', type: 'pkcs8' });
    } catch {
      return createPrivateKey({ key: bare(t), format: 'der', type: 'pkcs1' });
    }
  });
}

/** A key as PEM (SPKI / PKCS#8): what libraries that take key text want. */
export const pemOf = (key: KeyObject): string =>
  String(key.type === 'private' ? key.export({ format: 'pem', type: 'pkcs8' }) : key.export({ format: 'pem', type: 'spki' }));
