import type { Kysely, Selectable } from 'kysely';
import { AuthCodeUseStatus, formatDateTime, type Task, type TaskListQuery } from '@huiyun/contract';
import type { Database } from '../../db/schema.ts';
import { contains, listPage } from '../../db/list-query.ts';
import type { Access } from '../../http/caller.ts';
import { visibleTasks } from './task-access.ts';

type TaskRow = Selectable<Database['sync_task']> & { userName: string | null };

/** One page of the tasks the caller may see, newest first, with their devices and creator. */
export async function listTasks(db: Kysely<Database>, caller: Access, query: TaskListQuery) {
  // Filters on sync_task alone, so the count reads one table; the creator's name is joined to the page.
  let filtered = db.selectFrom('sync_task').where(visibleTasks(caller));
  if (query.taskName) filtered = filtered.where(contains(db, 'sync_task', 'sync_task.taskName', query.taskName));
  const { rows, ...paged } = await listPage(
    db,
    filtered,
    (qb) => qb.leftJoin('sys_user', 'sys_user.userId', 'sync_task.userId').selectAll('sync_task').select('sys_user.userName').$castTo<TaskRow>(),
    { page: query.pageNum, limit: query.pageSize, sortField: '', sortOrder: '', after: query.after },
    { sortColumns: {}, defaultSort: ['sync_task.taskId', 'desc'], tieBreaker: 'sync_task.taskId' },
  );
  const devices = await devicesOf(db, rows.map((r) => r.taskId));
  return { rows: rows.map((row) => toTask(row, devices.get(row.taskId) ?? [])), ...paged };
}

/** machineCodeList of each task, in a stable order. */
export async function devicesOf(db: Kysely<Database>, taskIds: number[]): Promise<Map<number, string[]>> {
  const byTask = new Map<number, string[]>();
  if (taskIds.length === 0) return byTask;
  const rows = await db
    .selectFrom('sync_task_device')
    .select(['taskId', 'machineCode'])
    .where('taskId', 'in', taskIds)
    .orderBy('taskId')
    .orderBy('machineCode')
    .execute();
  for (const row of rows) {
    const list = byTask.get(row.taskId) ?? [];
    list.push(row.machineCode);
    byTask.set(row.taskId, list);
  }
  return byTask;
}

/** The machine codes among `codes` that `ownerId` has activated (authorization code used). */
export async function activatedDevicesOf(db: Kysely<Database>, ownerId: number, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await db
    .selectFrom('sync_auth_code')
    .select('machineCode')
    .where('authUserId', '=', ownerId)
    .where('useStatus', '=', AuthCodeUseStatus.used)
    .where('machineCode', 'in', codes)
    .execute();
  return new Set(rows.map((r) => r.machineCode).filter((c): c is string => c !== null));
}

function toTask(row: TaskRow, machineCodeList: string[]): Task {
  return {
    taskId: row.taskId,
    taskName: row.taskName,
    showType: row.showType,
    content: row.content,
    imgUrl: row.imgUrl,
    fileNo: row.fileNo,
    fileName: row.fileName,
    qrUrl: row.qrUrl,
    taskStatus: row.taskStatus,
    singleSendNumDay: row.singleSendNumDay,
    batchSendNum: row.batchSendNum,
    batchSendMaxNum: row.batchSendMaxNum,
    intervalSeconds: row.intervalSeconds,
    machineCodeList,
    testNum: row.testNum,
    testPhone: row.testPhone,
    clearNum: row.clearNum,
    isRandomNum: row.isRandomNum,
    randomPosition: row.randomPosition,
    totalNum: Number(row.totalNum),
    mcount: Number(row.mcount),
    ucount: Number(row.ucount),
    tcount: Number(row.tcount),
    ocount: Number(row.ocount),
    totalSendNum: Number(row.totalSendNum),
    smcount: Number(row.smcount),
    sucount: Number(row.sucount),
    stcount: Number(row.stcount),
    socount: Number(row.socount),
    failNum: Number(row.failNum),
    duplicateNum: Number(row.duplicateNum),
    invalidNum: Number(row.invalidNum),
    blockedNum: Number(row.blockedNum),
    userId: row.userId,
    userName: row.userName ?? '',
    deptId: row.deptId,
    addTime: formatDateTime(Number(row.addTime)),
    editTime: formatDateTime(Number(row.editTime)),
  };
}
