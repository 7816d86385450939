import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { backupDataDir, backupsIn, scheduledBackupName, type BackupManifest } from './data-dir-backup.ts';

// The embedded deployment's nightly backup (BACKUP_DIR, BACKUP_AT, BACKUP_KEEP): the same backup as
// `npm run backup`, into BACKUP_DIR/huiyun-YYYYMMDD-HHmmss, the oldest beyond BACKUP_KEEP removed. The key is
// not in it (README "备份与恢复"). On PostgreSQL there is no such file to copy: pg_dump is the recipe.

type Log = { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/** Milliseconds from `now` to the next HH:mm of the local clock. */
export function msUntil(at: string, now: Date): number {
  const [hours, minutes] = at.split(':').map(Number) as [number, number];
  const next = new Date(now);
  next.setHours(hours, minutes, 0, 0);
  if (next.getTime() <= now.getTime()) next.setDate(next.getDate() + 1);
  return next.getTime() - now.getTime();
}

/** One scheduled backup, then the oldest beyond `keep` removed. Answers the manifest and the folders removed. */
export async function runScheduledBackup(config: Pick<Config, 'dataDir' | 'backup' | 'fileStore'>, version: string, now = new Date()): Promise<{ to: string; manifest: BackupManifest; removed: string[] }> {
  const dir = config.backup.dir!;
  const to = path.join(dir, scheduledBackupName(now));
  const manifest = await backupDataDir({ dataDir: config.dataDir, to, fileStore: config.fileStore.kind, version });
  const all = backupsIn(dir);
  const removed = all.slice(0, Math.max(0, all.length - config.backup.keep));
  for (const name of removed) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  return { to, manifest, removed };
}

export function startScheduledBackups(config: Pick<Config, 'dataDir' | 'backup' | 'fileStore'>, version: string, log: Log): { stop: () => Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runScheduledBackup(config, version).then(
        ({ to, manifest, removed }) => log.info({ to, databaseBytes: manifest.databaseBytes, files: manifest.files.count, removed }, 'scheduled backup written (the payment secret key is not in it)'),
        (error: unknown) => log.error({ err: error }, 'scheduled backup failed'),
      ).finally(schedule);
    }, msUntil(config.backup.at, new Date()));
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
