import { parseArgs } from 'node:util';
import { loadConfig } from '../../server/src/config.ts';
import { backupDataDir, BackupError } from '../../server/src/infra/data-dir-backup.ts';
import fs from 'node:fs';
import { keyReminder } from './key-reminder.ts';

// npm run backup -- --to DIR [--with-key] [--data-dir DIR]: a consistent copy of the embedded deployment's
// DATA_DIR (database, stored files, manifest) while the server runs. README "备份与恢复".

const { values } = parseArgs({ options: { to: { type: 'string' }, 'with-key': { type: 'boolean', default: false }, 'data-dir': { type: 'string' } } });
if (!values.to) {
  console.error('usage: npm run backup -- --to DIR [--with-key] [--data-dir DIR]   (DATA_DIR from the environment, default ./data)');
  process.exit(2);
}
const config = loadConfig({ ...process.env, ...(values['data-dir'] ? { DATA_DIR: values['data-dir'] } : {}) });
const version = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'dev';
const started = performance.now();
try {
  const manifest = await backupDataDir({ dataDir: config.dataDir, to: values.to, withKey: values['with-key'], fileStore: config.fileStore.kind, version });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`backup of ${config.dataDir} in ${values.to}: ${seconds} s, database ${(manifest.databaseBytes / 1e6).toFixed(1)} MB (migration ${manifest.migration}), `
    + `${manifest.files.store === 's3' ? 'stored files in the S3 bucket (back the bucket up on its own)' : `${manifest.files.count} stored files (${(manifest.files.bytes / 1e6).toFixed(1)} MB)${manifest.files.missing.length ? `, ${manifest.files.missing.length} missing` : ''}`}; `
    + `rows: ${Object.entries(manifest.counts).map(([t, n]) => `${t} ${n}`).join(', ')}`);
  console.log(keyReminder(config, manifest.key === 'included'));
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`backup refused: ${error.message}`);
  process.exit(1);
}
