import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { backupDataDir, BackupError, backupsIn, restoreDataDir, type BackupManifest } from './data-dir-backup.ts';
import { msUntil, runScheduledBackup } from './scheduled-backup.ts';

// The backup's refusals and what it keeps apart; the drill (backup-drill.test.ts) proves a restore.

const dirs: string[] = [];
const temp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-bk-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A DATA_DIR with a database holding two stored files' rows (one file lost), and a key file. */
function dataDir(): string {
  const dir = temp();
  const db = new DatabaseSync(path.join(dir, 'huiyun.db'));
  db.exec(`create table kysely_migration (name text primary key, timestamp text);
    insert into kysely_migration values ('0001_foundation', ''), ('0036_sms_replies', '');
    create table sys_upload ("filePath" text); insert into sys_upload values ('2026/11/a.txt'), ('2026/11/gone.txt');
    create table pay_order (x int); insert into pay_order values (1), (2), (3);`);
  db.close();
  fs.mkdirSync(path.join(dir, 'uploads/2026/11'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'uploads/2026/11/a.txt'), '13800138000\n');
  fs.writeFileSync(path.join(dir, 'uploads/2026/11/orphan.part'), 'half');
  fs.writeFileSync(path.join(dir, 'pay-secret.key'), 'KEY');
  return dir;
}

describe('backupDataDir / restoreDataDir', () => {
  it('copies the database and the stored files its rows name, with a manifest; the key only when asked', async () => {
    const from = dataDir();
    const to = path.join(temp(), 'b');
    const manifest = await backupDataDir({ dataDir: from, to, version: '1.2.3' });
    expect(manifest).toMatchObject({ version: '1.2.3', migration: '0036_sms_replies', key: 'not included', files: { count: 1, missing: ['2026/11/gone.txt'], store: 'local' } });
    expect(manifest.counts.pay_order).toBe(3);
    expect(fs.readdirSync(to).sort()).toEqual(['huiyun.db', 'manifest.json', 'uploads']);
    expect(fs.existsSync(path.join(to, 'uploads/2026/11/orphan.part'))).toBe(false);
    const keyed = path.join(temp(), 'k');
    expect((await backupDataDir({ dataDir: from, to: keyed, withKey: true })).key).toBe('included');
    expect(fs.readFileSync(path.join(keyed, 'pay-secret.key'), 'utf8')).toBe('KEY');
  });

  it('refuses a target that is not empty, a DATA_DIR without a database, and leaves nothing half-written', async () => {
    const from = dataDir();
    const full = temp();
    fs.writeFileSync(path.join(full, 'x'), '');
    await expect(backupDataDir({ dataDir: from, to: full })).rejects.toThrow(BackupError);
    const to = path.join(temp(), 'none');
    await expect(backupDataDir({ dataDir: temp(), to })).rejects.toThrow(/no database/);
    expect(fs.existsSync(to)).toBe(false);
  });

  it('restores into an empty place only, from a backup only', async () => {
    const backup = path.join(temp(), 'b');
    await backupDataDir({ dataDir: dataDir(), to: backup, withKey: true });
    const restored = path.join(temp(), 'r');
    restoreDataDir({ from: backup, dataDir: restored });
    expect(fs.readdirSync(restored).sort()).toEqual(['huiyun.db', 'pay-secret.key', 'uploads']);
    expect(fs.statSync(path.join(restored, 'pay-secret.key')).mode & 0o777).toBe(0o600);
    expect(() => restoreDataDir({ from: backup, dataDir: restored })).toThrow(/not empty/);
    expect(() => restoreDataDir({ from: temp(), dataDir: path.join(temp(), 'x') })).toThrow(/not a backup/);
  });

  it('restores nothing from a backup unlike its manifest, or made by a newer version', async () => {
    const backup = path.join(temp(), 'b');
    await backupDataDir({ dataDir: dataDir(), to: backup });
    const manifestFile = path.join(backup, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
    const refused = (changed: Partial<BackupManifest>, reason: RegExp) => {
      fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, ...changed }));
      const target = path.join(temp(), 'r');
      expect(() => restoreDataDir({ from: backup, dataDir: target })).toThrow(reason);
      expect(fs.existsSync(target)).toBe(false);
    };
    refused({ counts: { ...manifest.counts, pay_order: 4 } }, /pay_order: the manifest says 4 rows, the database has 3/);
    refused({ files: { ...manifest.files, count: 2 } }, /stored files: the manifest says 2, the backup holds 1/);
    refused({ migration: '0035_device_capabilities_window_delivery' }, /migration/);
    const newer = new DatabaseSync(path.join(backup, 'huiyun.db'));
    newer.exec(`insert into kysely_migration values ('9999_from_a_newer_version', '')`);
    newer.close();
    refused({ migration: '9999_from_a_newer_version' }, /newer version/);
  });
});

describe('the scheduled backup', () => {
  it('waits until the next HH:mm of the local clock', () => {
    const now = new Date(2026, 10, 28, 3, 0, 0);
    expect(msUntil('03:30', now)).toBe(30 * 60_000);
    expect(msUntil('02:00', now)).toBe(23 * 3_600_000);
    expect(msUntil('03:00', now)).toBe(24 * 3_600_000);
  });

  it('keeps the last BACKUP_KEEP backups', async () => {
    const from = dataDir();
    const dir = temp();
    const config = loadConfig({ DATA_DIR: from, BACKUP_DIR: dir, BACKUP_KEEP: '2' });
    for (const hour of [1, 2, 3]) await runScheduledBackup(config, 'test', new Date(2026, 10, 28, hour, 30, 0));
    expect(backupsIn(dir)).toEqual(['huiyun-20261128-023000', 'huiyun-20261128-033000']);
  });
});
