import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { messages, type TaskSave } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { ownsOrAdministers, type Access } from '../../../http/caller.ts';
import { AppError } from '../../../http/errors.ts';
import { downloadUrlOf, type StoredFileRow } from '../../../infra/file-storage.ts';
import { visibleTasks } from './task-access.ts';

// The stored files a task shows (its image or file, sync_task.imgUrl / fileNo). A task references only a
// file its owner may see: one the owner uploaded, or one of the task's company. That is checked when the
// task is saved and again whenever the file is served through the task (to whoever sees the task, to the
// task's devices), so a link written into a task is never the proof of access.

const m = messages.task;

type FileOwner = Pick<StoredFileRow, 'userId' | 'deptId'>;
type TaskOwner = { userId: number; deptId: number | null };
type TaskRow = TaskOwner & { fileNo: string; imgUrl: string };

/** The owner of a task may see this file: its own upload, or its company's. */
export function ownerMaySee(task: TaskOwner, file: FileOwner): boolean {
  return (file.userId !== null && file.userId === task.userId) || (file.deptId !== null && file.deptId === task.deptId);
}

/** ownerMaySee as a condition on sync_task (aliased `alias`). */
export function ownerMaySeeFile(file: FileOwner, alias: 'sync_task' | 't' = 'sync_task') {
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>): Expression<SqlBool> => {
    const either: Expression<SqlBool>[] = [];
    if (file.userId !== null) either.push(eb(sql.ref<number>(`${alias}.userId`), '=', file.userId));
    if (file.deptId !== null) either.push(eb(sql.ref<number | null>(`${alias}.deptId`), '=', file.deptId));
    return eb.or(either);
  };
}

/**
 * Download rule 3 (files/service.ts loadDownloadable): the image or file of a task the caller can see,
 * when the task's owner may see it.
 */
export async function taskFileVisible(ctx: AppContext, caller: Access, file: StoredFileRow): Promise<boolean> {
  const attached = await ctx.db
    .selectFrom('sync_task')
    .select('taskId')
    .where(visibleTasks(caller))
    .where((eb) => eb.or([eb('fileNo', '=', file.fileNo), eb('imgUrl', '=', downloadUrlOf(file.filePath))]))
    .where(ownerMaySeeFile(file))
    .limit(1)
    .executeTakeFirst();
  return attached !== undefined;
}

/**
 * The image / file of a task being saved by `caller` (`existing`: the task as stored, when edited). A
 * stored upload (fileNo, or a link to /download/file) decides name and link; it must be one the caller
 * may see itself, or the one the task already shows (else it is as unknown as a made-up one), and one
 * the task's owner may see. Any other link (http, https) is kept as given.
 */
export async function resolveTaskMedia(ctx: AppContext, caller: Access, existing: TaskRow | undefined, input: TaskSave) {
  const owner: TaskOwner = existing ?? { userId: caller.userId, deptId: caller.deptId };
  let stored;
  if (input.fileNo) {
    stored = await ctx.db.selectFrom('sys_upload').selectAll().where('fileNo', '=', input.fileNo).executeTakeFirst();
  } else if (input.imgUrl.startsWith('/download/file?')) {
    const filePath = new URLSearchParams(input.imgUrl.slice('/download/file?'.length)).get('filePath');
    stored = filePath ? await ctx.db.selectFrom('sys_upload').selectAll().where('filePath', '=', filePath).executeTakeFirst() : undefined;
  } else {
    if (input.imgUrl && !/^https?:\/\//.test(input.imgUrl)) throw new AppError(m.imgUrlInvalid);
    return { imgUrl: input.imgUrl, fileNo: '', fileName: input.fileName };
  }
  const kept = stored !== undefined && existing !== undefined
    && ((stored.fileNo !== '' && existing.fileNo === stored.fileNo) || existing.imgUrl === downloadUrlOf(stored.filePath));
  if (!stored || !(kept || ownsOrAdministers(caller, stored))) throw new AppError(m.fileUnknown);
  if (!ownerMaySee(owner, stored)) throw new AppError(m.fileNotOwners);
  return input.fileNo
    ? { imgUrl: downloadUrlOf(stored.filePath), fileNo: stored.fileNo, fileName: stored.fileName }
    : { imgUrl: downloadUrlOf(stored.filePath), fileNo: '', fileName: input.fileName };
}
