// `npm run secrets:reseal` — re-seal every payment secret and terminal key under the current key
// (docs/architecture.md, "Payment secrets"). Two ways to rotate:
//   PAY_SECRET_KEY set:  give every instance PAY_SECRET_KEY=<new> and PAY_SECRET_PREVIOUS_KEYS=<old>,
//                        run this once, then drop PAY_SECRET_PREVIOUS_KEYS.
//   key file in DATA_DIR: stop the servers, run `npm run secrets:reseal -- --new-key-file`, start them:
//                        a new key is made, everything re-sealed under it, then the file replaced.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import { resealAll } from './infra/sealed-columns.ts';
import { newSecretKeyBase64, SecretBox, secretKeyFromBase64 } from './infra/secret-box.ts';
import { loadSecretBox, SECRET_KEY_FILE } from './infra/secret-key.ts';

async function main() {
  const config = loadConfig();
  const newKeyFile = process.argv.includes('--new-key-file');
  if (newKeyFile && config.paySecretKey) throw new ConfigError('--new-key-file rotates the key file; PAY_SECRET_KEY is set, so rotate it with PAY_SECRET_PREVIOUS_KEYS instead');
  const loaded = loadSecretBox(config, (m) => console.log(m));
  const fresh = newKeyFile ? newSecretKeyBase64() : undefined;
  const box = fresh ? new SecretBox(secretKeyFromBase64(fresh), [loaded.current, ...config.paySecretPreviousKeys.map((k) => secretKeyFromBase64(k))]) : loaded;
  const db = connectDatabase(config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl, prepared: false, poolSize: 2 } : { kind: 'sqlite', file: path.join(config.dataDir, 'huiyun.db') });
  try {
    const count = await resealAll(db, box);
    if (fresh) {
      const file = path.join(config.dataDir, SECRET_KEY_FILE);
      fs.writeFileSync(`${file}.new`, `${fresh}\n`, { mode: 0o600 });
      fs.renameSync(`${file}.new`, file);
    }
    console.log(`re-sealed ${count} secret value(s) under key ${box.current.id}${fresh ? `; ${path.join(config.dataDir, SECRET_KEY_FILE)} now holds the new key` : ''}`);
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
