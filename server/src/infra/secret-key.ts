import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { newSecretKeyBase64, SecretBox, secretKeyFromBase64 } from './secret-box.ts';

export const SECRET_KEY_FILE = 'pay-secret.key';

/**
 * The secret box of this instance: PAY_SECRET_KEY when set, else the key file in DATA_DIR, created at
 * first start (mode 0600; its path is logged once, never its content). Several instances must share one
 * key — set PAY_SECRET_KEY on each (README, configuration).
 */
export function loadSecretBox(config: Pick<Config, 'dataDir' | 'paySecretKey' | 'paySecretPreviousKeys'>, log: (message: string) => void): SecretBox {
  const previous = config.paySecretPreviousKeys.map((k, i) => secretKeyFromBase64(k, `PAY_SECRET_PREVIOUS_KEYS[${i}]`));
  if (config.paySecretKey) return new SecretBox(secretKeyFromBase64(config.paySecretKey), previous);
  return new SecretBox(secretKeyFromBase64(readOrCreateKeyFile(config.dataDir, log), SECRET_KEY_FILE), previous);
}

function readOrCreateKeyFile(dataDir: string, log: (message: string) => void): string {
  const file = path.join(dataDir, SECRET_KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx': two instances starting at once on one DATA_DIR cannot both write a key; the loser reads.
    fs.writeFileSync(file, `${newSecretKeyBase64()}\n`, { mode: 0o600, flag: 'wx' });
    log(`payment secret key created at ${file} (PAY_SECRET_KEY unset); keep it with the database backups`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if ((fs.statSync(file).mode & 0o077) !== 0) log(`payment secret key file ${file} is readable by others than its owner; chmod 600 it`);
  }
  return fs.readFileSync(file, 'utf8');
}
