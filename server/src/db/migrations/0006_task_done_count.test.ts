import { describe, expect, it } from 'vitest';
import { TaskNumberState } from '@huiyun/contract';
import { insertTask, useDatabaseBefore } from '../../test/migration-test-support.ts';

describe('migration 0006_task_done_count', () => {
  const schema = useDatabaseBefore('0005_number_order');

  it('counts each task’s rows already final (sent, failed, blocked) into doneNum', async () => {
    await schema.migrate();
    const db = schema.db();
    const a = await insertTask(db, 'a');
    const b = await insertTask(db, 'b');
    const states = [TaskNumberState.pending, TaskNumberState.leased, TaskNumberState.sent, TaskNumberState.sent, TaskNumberState.failed, TaskNumberState.blocked];
    await db.insertInto('sync_task_number').values(states.map((state, i) => ({ taskId: a.taskId, phone: 13_800_000_000 + i, carrier: 1, state }))).execute();

    await schema.finish();
    const done = await db.selectFrom('sync_task').select(['taskId', 'doneNum']).orderBy('taskId').execute();
    expect(done).toEqual([{ taskId: a.taskId, doneNum: 4 }, { taskId: b.taskId, doneNum: 0 }]);
  });
});
