import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskNumberState } from '@huiyun/contract';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { migrateTo } from '../migrate.ts';
import { seed } from '../seed.ts';

describe('migration 0007_number_batches', () => {
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

  it('starts each task’s cursor after the numbers the engine touched and gives back the pending ones below it', async () => {
    await migrateTo(t.db, '0006_task_done_count');
    const db = t.db as never as Kysely<any>; // the schema as of 0006, not the latest
    await seed(t.db, { adminPassword: 'Admin@123', dataDir, log: () => {} }); // account 1 owns the tasks
    const task = (taskName: string) => db.insertInto('sync_task').values({
      taskName, showType: 1, content: '', imgUrl: '', fileNo: '', fileName: '', qrUrl: '', taskStatus: 1, singleSendNumDay: 1, batchSendNum: 1, batchSendMaxNum: 1,
      intervalSeconds: 1, testNum: 0, testPhone: '', clearNum: 0, isRandomNum: 0, randomPosition: 0, userId: 1, addTime: 0, editTime: 0,
    }).returning('taskId').executeTakeFirstOrThrow();
    const a = await task('a');
    const b = await task('b');
    const { pending, leased, sent, failed } = TaskNumberState;
    // a: a retry waiting (pending below the last touched number), a live lease, untouched numbers after
    const states = [sent, pending, leased, failed, pending, pending];
    const ids = [];
    for (const [i, state] of states.entries()) {
      const lease = state === leased ? { batchId: 'b_old', machineCode: 'm1', leaseUntil: 9_000_000_000_000 } : {};
      ids.push((await db.insertInto('sync_task_number').values({ taskId: a.taskId, phone: 13_800_000_000 + i, carrier: 1, state, ...lease }).returning('id').executeTakeFirstOrThrow()).id);
    }
    await db.insertInto('sync_task_number').values({ taskId: b.taskId, phone: 13_900_000_000, carrier: 1 }).execute();

    await migrateTo(t.db);
    expect(await db.selectFrom('sync_task_cursor').selectAll().execute()).toEqual([{ taskId: a.taskId, claimedTo: ids[3] }]);
    const rows = await db.selectFrom('sync_task_number').select(['id', 'state', 'leaseUntil', 'batchId']).where('taskId', '=', a.taskId).orderBy('id').execute();
    expect(rows.map((r) => [r.state, r.leaseUntil === null ? null : Number(r.leaseUntil), r.batchId])).toEqual([
      [sent, null, null], [leased, 0, null], [leased, 9_000_000_000_000, 'b_old'], [failed, null, null], [pending, null, null], [pending, null, null],
    ]);
  });
});
