import type { TestApp } from './harness.ts';

// Rows written straight into a test's database, for tests whose subject is another screen.

/** The columns of a task row at their SPEC §9 defaults. */
export const TASK_DEFAULTS = {
  showType: 1, content: '', imgUrl: '', fileNo: '', fileName: '', qrUrl: 'http://', singleSendNumDay: 300, batchSendNum: 10, batchSendMaxNum: 10, intervalSeconds: 1, testNum: 0, testPhone: '', clearNum: 0, isRandomNum: 0, randomPosition: 0,
};

/** A task row straight in the database (the task screen's own calls are tested elsewhere). */
export async function insertTask(t: TestApp, values: { taskName: string; userId: number; deptId: number | null; taskStatus?: number }): Promise<number> {
  const now = Date.now();
  const row = await t.ctx.db
    .insertInto('sync_task')
    .values({ ...TASK_DEFAULTS, taskName: values.taskName, userId: values.userId, deptId: values.deptId, taskStatus: values.taskStatus ?? 0, addTime: now, editTime: now })
    .returning('taskId')
    .executeTakeFirstOrThrow();
  return row.taskId;
}

export async function insertCompany(t: TestApp, deptNo: string): Promise<number> {
  const now = Date.now();
  const row = await t.ctx.db
    .insertInto('sys_dept')
    .values({ deptName: `公司${deptNo}`, deptNo, parentId: 0, addUser: 'test', editUser: 'test', addTime: now, editTime: now })
    .returning('deptId')
    .executeTakeFirstOrThrow();
  return row.deptId;
}
