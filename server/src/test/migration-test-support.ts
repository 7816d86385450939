import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll } from 'vitest';
import { useTestDatabase } from './use-test-database.ts';
import { migrateTo } from '../db/migrate.ts';
import { seed } from '../seed.ts';

/**
 * For a migration's test: a database of its own, `migrate()` brings it up to `before` (the migration
 * before the one under test) and seeds it (account 1 owns the tasks); `db` is typed loosely, as the
 * schema of then is not the latest. `finish()` applies the rest.
 */
export function useDatabaseBefore(before: Parameters<typeof migrateTo>[1] & string) {
  const database = useTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-migration-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return {
    db: () => database().db as never as Kysely<any>,
    migrate: async () => {
      await migrateTo(database().db, before);
      await seed(database().db, { adminPassword: 'Admin@123', dataDir, log: () => {} });
    },
    finish: () => migrateTo(database().db),
  };
}

/** A task row of account 1 with every column the early schema requires. */
export const insertTask = (db: Kysely<any>, taskName: string) => db.insertInto('sync_task').values({
  taskName, showType: 1, content: '', imgUrl: '', fileNo: '', fileName: '', qrUrl: '', taskStatus: 1, singleSendNumDay: 1, batchSendNum: 1, batchSendMaxNum: 1,
  intervalSeconds: 1, testNum: 0, testPhone: '', clearNum: 0, isRandomNum: 0, randomPosition: 0, userId: 1, addTime: 0, editTime: 0,
}).returning('taskId').executeTakeFirstOrThrow();
