import { describe, expect, it } from 'vitest';
import { TaskNumberState } from '@huiyun/contract';
import { insertTask, useDatabaseBefore } from '../../test/migration-test-support.ts';

describe('migration 0007_number_batches', () => {
  const schema = useDatabaseBefore('0006_task_done_count');

  it('starts each task’s cursor after the numbers the engine touched and gives back the pending ones below it', async () => {
    await schema.migrate();
    const db = schema.db();
    const a = await insertTask(db, 'a');
    const b = await insertTask(db, 'b');
    const { pending, leased, sent, failed } = TaskNumberState;
    // a: a retry waiting (pending below the last touched number), a live lease, untouched numbers after
    const states = [sent, pending, leased, failed, pending, pending];
    const ids = [];
    for (const [i, state] of states.entries()) {
      const lease = state === leased ? { batchId: 'b_old', machineCode: 'm1', leaseUntil: 9_000_000_000_000 } : {};
      ids.push((await db.insertInto('sync_task_number').values({ taskId: a.taskId, phone: 13_800_000_000 + i, carrier: 1, state, ...lease }).returning('id').executeTakeFirstOrThrow()).id);
    }
    await db.insertInto('sync_task_number').values({ taskId: b.taskId, phone: 13_900_000_000, carrier: 1 }).execute();

    await schema.finish();
    expect(await db.selectFrom('sync_task_cursor').selectAll().execute()).toEqual([{ taskId: a.taskId, claimedTo: ids[3] }]);
    const rows = await db.selectFrom('sync_task_number').select(['id', 'state', 'leaseUntil', 'batchId']).where('taskId', '=', a.taskId).orderBy('id').execute();
    expect(rows.map((r) => [r.state, r.leaseUntil === null ? null : Number(r.leaseUntil), r.batchId])).toEqual([
      [sent, null, null], [leased, 0, null], [leased, 9_000_000_000_000, 'b_old'], [failed, null, null], [pending, null, null], [pending, null, null],
    ]);
  });
});
