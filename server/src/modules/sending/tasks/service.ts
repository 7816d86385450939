import { fill, messages, Perm, showTypeFields, ShowType, TASK_QR_URL_DEFAULT, TaskStatus, type TaskSave, type TaskStatusChange, type TaskTestSave } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, forbidden, notFound } from '../../../http/errors.ts';
import { activatedDevicesOf } from './queries.ts';
import { loadVisibleTask } from './task-access.ts';
import { resolveTaskMedia } from './task-files.ts';

const m = messages.task;

/** Adds or edits a task (SPEC §4 showType rules applied); answers its id. */
export async function saveTask(ctx: AppContext, caller: Access, input: TaskSave): Promise<number> {
  const existing = input.taskId === undefined ? undefined : await loadVisibleTask(ctx, caller, input.taskId);
  if (existing && existing.taskStatus === TaskStatus.completed) throw new AppError(m.completedRefused);
  const ownerId = existing ? existing.userId : caller.userId;

  const media = await resolveTaskMedia(ctx, caller, existing, input);
  const shows = showTypeFields(input.showType);
  const content = shows.content ? input.content : '';
  const image = shows.image ? media : { imgUrl: '', fileNo: '', fileName: '' };
  if ((input.showType === ShowType.text || input.showType === ShowType.textImage) && !content) throw new AppError(m.contentRequired);
  if ((input.showType === ShowType.image || input.showType === ShowType.textImage) && !image.imgUrl) throw new AppError(m.imageRequired);
  if (input.showType === ShowType.file && !image.imgUrl) throw new AppError(m.fileRequired);

  // Devices send a task only for the account that activated them.
  const activated = await activatedDevicesOf(ctx.db, ownerId, input.machineCodeList);
  const foreign = input.machineCodeList.filter((code) => !activated.has(code));
  if (foreign.length > 0) throw new AppError(fill(m.devicesNotActivated, { codes: foreign.join(', ') }));

  // Test numbers are an administrator's tool (SPEC §6): others keep what the task already has.
  const mayInsertTest = caller.isAdmin && caller.permissions.has(Perm.taskInsertTest);
  const test = mayInsertTest
    ? { testNum: input.testNum, testPhone: input.testPhone }
    : { testNum: existing?.testNum ?? 0, testPhone: existing?.testPhone ?? '' };

  const now = ctx.now();
  const fields = {
    taskName: input.taskName,
    showType: input.showType,
    content,
    ...image,
    qrUrl: input.qrUrl || TASK_QR_URL_DEFAULT,
    singleSendNumDay: input.singleSendNumDay,
    batchSendNum: input.batchSendNum,
    batchSendMaxNum: input.batchSendMaxNum,
    intervalSeconds: input.intervalSeconds,
    ...test,
    clearNum: input.clearNum,
    isRandomNum: input.isRandomNum,
    randomPosition: input.randomPosition,
    sendStartTime: input.sendStartTime,
    sendEndTime: input.sendEndTime,
    editTime: now,
  };

  return ctx.db.transaction().execute(async (trx) => {
    let taskId: number;
    if (existing) {
      taskId = existing.taskId;
      const result = await trx
        .updateTable('sync_task')
        .set(fields)
        .where('taskId', '=', taskId)
        .where('taskStatus', '!=', TaskStatus.completed)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new AppError(m.completedRefused);
      await trx.deleteFrom('sync_task_device').where('taskId', '=', taskId).execute();
    } else {
      const row = await trx
        .insertInto('sync_task')
        .values({ ...fields, taskStatus: TaskStatus.running, userId: caller.userId, deptId: caller.deptId, addTime: now })
        .returning('taskId')
        .executeTakeFirstOrThrow();
      taskId = row.taskId;
    }
    if (input.machineCodeList.length > 0) {
      await trx.insertInto('sync_task_device').values(input.machineCodeList.map((machineCode) => ({ taskId, machineCode }))).execute();
    }
    return taskId;
  });
}

/** 暂停 / 启动: running ↔ paused; a completed task stays completed. */
export async function changeTaskStatus(ctx: AppContext, caller: Access, input: TaskStatusChange): Promise<void> {
  const task = await loadVisibleTask(ctx, caller, input.taskId);
  if (task.taskStatus === TaskStatus.completed) throw new AppError(m.completedRefused);
  const result = await ctx.db
    .updateTable('sync_task')
    .set({ taskStatus: input.taskStatus, editTime: ctx.now() })
    .where('taskId', '=', task.taskId)
    .where('taskStatus', '!=', TaskStatus.completed)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new AppError(m.completedRefused);
}

/**
 * Deletes a task with its numbers and devices. A running task is refused: its numbers may be leased
 * to devices right now, and a report for a vanished batch would be lost; pause it first.
 */
export async function deleteTask(ctx: AppContext, caller: Access, taskId: number): Promise<string> {
  const task = await loadVisibleTask(ctx, caller, taskId);
  if (task.taskStatus === TaskStatus.running) throw new AppError(m.runningDeleteRefused);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sync_task_number').where('taskId', '=', taskId).execute();
    await trx.deleteFrom('sync_task_device').where('taskId', '=', taskId).execute();
    const result = await trx.deleteFrom('sync_task').where('taskId', '=', taskId).where('taskStatus', '!=', TaskStatus.running).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new AppError(m.runningDeleteRefused);
  });
  return task.taskName;
}

/** 插入测试号码: every testNum numbers the engine inserts testPhone. Administrators only. */
export async function saveTestNumber(ctx: AppContext, caller: Access, input: TaskTestSave): Promise<void> {
  if (!caller.isAdmin) throw forbidden(m.adminOnly);
  const task = await loadVisibleTask(ctx, caller, input.taskId);
  if (task.taskStatus === TaskStatus.completed) throw new AppError(m.completedRefused);
  const testPhone = input.testPhone || task.testPhone;
  if (!testPhone) throw new AppError(m.testPhoneRequired);
  const result = await ctx.db
    .updateTable('sync_task')
    .set({ testNum: input.testNum, testPhone, editTime: ctx.now() })
    .where('taskId', '=', task.taskId)
    .where('taskStatus', '!=', TaskStatus.completed)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound();
}
