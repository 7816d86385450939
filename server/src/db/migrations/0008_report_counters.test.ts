import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDbKind } from '../../test/test-database.ts';
import { insertTask, useDatabaseBefore } from '../../test/migration-test-support.ts';

describe.runIf(testDbKind() === 'postgres')('migration 0008_report_counters', () => {
  const schema = useDatabaseBefore('0007_number_batches');

  it('adds a report’s final numbers to the task, its owner and the owner’s day, and answers whether it completed the task', async () => {
    await schema.migrate();
    await schema.finish();
    const db = schema.db();
    const { taskId } = await insertTask(db, 'counted');
    await db.updateTable('sync_task').set({ totalNum: 5 }).where('taskId', '=', taskId).execute();
    const count = async (sent: number, mobile: number, failed: number) => (await sql<{ completed: boolean }>`
      select sync_count_final(${taskId}, ${sent}, ${mobile}, 0, 0, ${sent - mobile}, ${failed}, cast(${1234} as bigint), cast(${'2026-11-23'} as varchar)) as completed
    `.execute(db)).rows[0].completed;

    expect(await count(0, 0, 0)).toBe(false);
    expect(await count(2, 1, 1)).toBe(false);
    expect(await count(1, 1, 1)).toBe(true);
    expect(await count(0, 0, 0)).toBe(false);

    const task = await db.selectFrom('sync_task').select(['totalSendNum', 'smcount', 'socount', 'failNum', 'doneNum', 'taskStatus', 'editTime']).where('taskId', '=', taskId).executeTakeFirstOrThrow();
    expect({ ...task, editTime: Number(task.editTime) }).toEqual({ totalSendNum: 3, smcount: 2, socount: 1, failNum: 2, doneNum: 5, taskStatus: 2, editTime: 1234 });
    const owner = await db.selectFrom('sys_user').select(['totalSendNum', 'smcount', 'socount', 'sendNum', 'hisTotalSendNum']).where('userId', '=', 1).executeTakeFirstOrThrow();
    expect(owner).toEqual({ totalSendNum: 3, smcount: 2, socount: 1, sendNum: 3, hisTotalSendNum: 3 });
    expect(await db.selectFrom('sync_send_daily').select(['userId', 'day', 'sendCount']).execute()).toEqual([{ userId: 1, day: '2026-11-23', sendCount: 3 }]);
  });
});
