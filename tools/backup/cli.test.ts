import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, it } from 'vitest';

// npm run backup / npm run restore as an operator runs them: exit codes, the key reminder, the refusals.

const root = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-backup-cli-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const run = (script: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [path.join(root, 'tools/backup', script), ...args], { encoding: 'utf8', env: { ...process.env, PAY_SECRET_KEY: '', ...env } });

it('backs up with a reminder of the key, restores into an empty folder, refuses the rest', { timeout: 60_000 }, () => {
  const data = path.join(dir, 'data');
  fs.mkdirSync(data);
  const db = new DatabaseSync(path.join(data, 'huiyun.db'));
  db.exec(`create table kysely_migration (name text, timestamp text); insert into kysely_migration values ('0036_sms_replies', '');
    create table sys_upload ("filePath" text);`);
  db.close();
  const backup = run('backup.ts', ['--to', path.join(dir, 'copy'), '--data-dir', data]);
  expect(backup.status, backup.stderr).toBe(0);
  expect(backup.stdout).toMatch(/migration 0036_sms_replies/);
  expect(backup.stdout).toMatch(/REMINDER: not in this backup: DATA_DIR\/pay-secret.key/);
  const withEnvKey = run('backup.ts', ['--to', path.join(dir, 'copy2'), '--data-dir', data], { PAY_SECRET_KEY: Buffer.alloc(32, 1).toString('base64') });
  expect(withEnvKey.stdout).toMatch(/REMINDER: not in this backup: PAY_SECRET_KEY/);
  expect(run('backup.ts', ['--to', path.join(dir, 'copy'), '--data-dir', data])).toMatchObject({ status: 1, stderr: expect.stringMatching(/not empty/) });
  expect(run('backup.ts', []).status).toBe(2);
  const restored = run('restore.ts', ['--from', path.join(dir, 'copy'), '--data-dir', path.join(dir, 'restored')]);
  expect(restored.status, restored.stderr).toBe(0);
  expect(restored.stdout).toMatch(/key NOT in the backup/);
  expect(run('restore.ts', ['--from', path.join(dir, 'copy'), '--data-dir', path.join(dir, 'restored')])).toMatchObject({ status: 1, stderr: expect.stringMatching(/not empty/) });
});
