import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newSecretKeyBase64, SecretBox, SecretBoxError, secretKeyFromBase64 } from './secret-box.ts';
import { loadSecretBox, SECRET_KEY_FILE } from './secret-key.ts';

const keyA = secretKeyFromBase64(newSecretKeyBase64());
const keyB = secretKeyFromBase64(newSecretKeyBase64());

describe('SecretBox', () => {
  it('seals so that the clear text is nowhere in the sealed value, and opens it again', () => {
    const box = new SecretBox(keyA);
    const sealed = box.seal('pay_config.partnerKey', 'merchant-key-0123456789');
    expect(sealed).not.toContain('merchant-key');
    expect(sealed.startsWith(`s1.${keyA.id}.`)).toBe(true);
    expect(box.open('pay_config.partnerKey', sealed)).toBe('merchant-key-0123456789');
    expect(box.seal('p', 'same')).not.toBe(box.seal('p', 'same')); // a fresh IV each time
  });

  it('does not open a value moved to another purpose, tampered with, or under an unknown key', () => {
    const box = new SecretBox(keyA);
    const sealed = box.seal('pay_config.partnerKey', 'secret');
    expect(() => box.open('pay_config.rsaKey', sealed)).toThrow(SecretBoxError);
    const parts = sealed.split('.');
    parts[4] = Buffer.from('x').toString('base64url');
    expect(() => box.open('pay_config.partnerKey', parts.join('.'))).toThrow(SecretBoxError);
    expect(() => new SecretBox(keyB).open('pay_config.partnerKey', sealed)).toThrow(/not in the key ring/);
    expect(() => box.open('pay_config.partnerKey', 'clear text')).toThrow(/not a sealed value/);
  });

  it('opens a value of a previous key and tells it is not current', () => {
    const old = new SecretBox(keyA).seal('p', 'v');
    const rotated = new SecretBox(keyB, [keyA]);
    expect(rotated.open('p', old)).toBe('v');
    expect(rotated.isCurrent(old)).toBe(false);
    expect(rotated.isCurrent(rotated.seal('p', 'v'))).toBe(true);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => secretKeyFromBase64(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
  });
});

describe('loadSecretBox', () => {
  const dirs: string[] = [];
  const tempDir = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-key-')); dirs.push(d); return d; };
  afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

  it('creates a key file of mode 0600 once, logs its path but not its content, and reads it after', () => {
    const dataDir = tempDir();
    const logged: string[] = [];
    const first = loadSecretBox({ dataDir, paySecretPreviousKeys: [] }, (m) => logged.push(m));
    const file = path.join(dataDir, SECRET_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(file);
    expect(logged[0]).not.toContain(fs.readFileSync(file, 'utf8').trim());
    const second = loadSecretBox({ dataDir, paySecretPreviousKeys: [] }, (m) => logged.push(m));
    expect(logged).toHaveLength(1);
    expect(second.open('p', first.seal('p', 'v'))).toBe('v');
  });

  it('uses PAY_SECRET_KEY when set and writes no file', () => {
    const dataDir = tempDir();
    const key = newSecretKeyBase64();
    const box = loadSecretBox({ dataDir, paySecretKey: key, paySecretPreviousKeys: [] }, () => {});
    expect(box.current.id).toBe(secretKeyFromBase64(key).id);
    expect(fs.existsSync(path.join(dataDir, SECRET_KEY_FILE))).toBe(false);
  });
});
