import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { dataDirPointer, E2E_PORT } from './env.ts';

/**
 * Runs `work` on this port's suite database (SQLite, e2e/server.ts), for rows no screen makes; waits for
 * the server's writes (busy timeout) and closes it after.
 */
export function withSuiteDatabase<T>(work: (db: DatabaseSync) => T): T {
  const dataDir = fs.readFileSync(dataDirPointer(E2E_PORT), 'utf8').trim();
  const db = new DatabaseSync(path.join(dataDir, 'huiyun.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    return work(db);
  } finally {
    db.close();
  }
}

/** 'YYYY-MM-DD HH:mm' in Asia/Shanghai (the console's zone) → epoch ms, for the times of such rows. */
export function shanghaiTime(text: string): number {
  return Date.parse(`${text.replace(' ', 'T')}:00+08:00`);
}
