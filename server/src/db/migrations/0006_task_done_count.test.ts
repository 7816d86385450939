import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskNumberState } from '@huiyun/contract';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { migrateTo } from '../migrate.ts';
import { seed } from '../seed.ts';

describe('migration 0006_task_done_count', () => {
  let t: TestDatabase;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-migration-'));
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t.db.destroy();
    await t.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts each task’s rows already final (sent, failed, blocked) into doneNum', async () => {
    await migrateTo(t.db, '0005_number_order');
    const db = t.db as never as Kysely<any>; // the schema as of 0005, not the latest
    await seed(t.db, { adminPassword: 'Admin@123', dataDir, log: () => {} }); // account 1 owns the tasks
    const task = (taskName: string) => db.insertInto('sync_task').values({
      taskName, showType: 1, content: '', imgUrl: '', fileNo: '', fileName: '', qrUrl: '', taskStatus: 1, singleSendNumDay: 1, batchSendNum: 1, batchSendMaxNum: 1,
      intervalSeconds: 1, testNum: 0, testPhone: '', clearNum: 0, isRandomNum: 0, randomPosition: 0, userId: 1, addTime: 0, editTime: 0,
    }).returning('taskId').executeTakeFirstOrThrow();
    const a = await task('a');
    const b = await task('b');
    const states = [TaskNumberState.pending, TaskNumberState.leased, TaskNumberState.sent, TaskNumberState.sent, TaskNumberState.failed, TaskNumberState.blocked];
    await db.insertInto('sync_task_number').values(states.map((state, i) => ({ taskId: a.taskId, phone: 13_800_000_000 + i, carrier: 1, state }))).execute();

    await migrateTo(t.db);
    const done = await db.selectFrom('sync_task').select(['taskId', 'doneNum']).orderBy('taskId').execute();
    expect(done).toEqual([{ taskId: a.taskId, doneNum: 4 }, { taskId: b.taskId, doneNum: 0 }]);
  });
});
