import { messages, TaskStatus } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { forbidden } from '../../../http/errors.ts';
import { loadStoredFile } from '../files/index.ts';
import { downloadUrlOf } from '../../../infra/file-storage.ts';
import { ownerMaySeeFile } from '../tasks/index.ts';
import type { DeviceIdentity } from './device-auth.ts';

/**
 * The image or file of a task assigned to this device (and its owner) that is not completed, when the
 * task's owner may see the file (task/task-files.ts); nothing else.
 */
export async function loadDeviceFile(ctx: AppContext, device: DeviceIdentity, filePath: string) {
  const file = await loadStoredFile(ctx, filePath);
  const assigned = await ctx.db
    .selectFrom('sync_task as t')
    .innerJoin('sync_task_device as d', 'd.taskId', 't.taskId')
    .select('t.taskId')
    .where('d.machineCode', '=', device.machineCode)
    .where('t.userId', '=', device.ownerId)
    .where('t.taskStatus', '<>', TaskStatus.completed)
    .where('t.imgUrl', '=', downloadUrlOf(filePath))
    .where(ownerMaySeeFile(file, 't'))
    .limit(1)
    .executeTakeFirst();
  if (!assigned) throw forbidden(messages.device.fileNotAssigned);
  return file;
}
