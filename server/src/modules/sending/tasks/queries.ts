import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import { AuthCodeUseStatus, formatDateTime, isInSendWindow, TaskStatus, type Task, type TaskListQuery } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { dialectOf, type DialectName } from '../../../db/dialect.ts';
import { listPage, type SelectedRow } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';
import type { Access } from '../../../http/caller.ts';
import { visibleTasks } from './task-access.ts';

/** One page of the tasks the caller may see, newest first, with their devices and creator; `now` for 不在发送时段. */
export async function listTasks(db: Kysely<Database>, caller: Access, query: TaskListQuery, now: number) {
  // Filters on sync_task alone, so the count reads one table; the creator's name and the devices are read
  // with the page's rows, in the page's one statement (rule 1 of docs/performance.md "How a list is made fast").
  const filtered = db.selectFrom('sync_task').where(visibleTasks(caller));
  const searches: ListSearch[] = [];
  if (query.taskName) searches.push(contains(db, 'sync_task', 'sync_task.taskName', query.taskName));
  const { rows, ...paged } = await listPage(
    db,
    filtered,
    taskColumns[dialectOf(db)],
    { page: query.pageNum, limit: query.pageSize, sortField: '', sortOrder: '', after: query.after },
    { sortColumns: {}, defaultSort: ['sync_task.taskId', 'desc'], tieBreaker: 'sync_task.taskId', searches },
  );
  return { rows: rows.map((row) => toTask(row, now)), ...paged };
}

/** A page's columns with the creator's name and the task's devices, one function per database kind (module constants: listPage templates by them). */
const taskColumns = {
  sqlite: (qb: Tasks) => withColumns(qb, 'sqlite'),
  postgres: (qb: Tasks) => withColumns(qb, 'postgres'),
};
type Tasks = SelectQueryBuilder<Database, 'sync_task', {}>;

function withColumns(qb: Tasks, kind: DialectName) {
  return qb
    .leftJoin('sys_user', 'sys_user.userId', 'sync_task.userId')
    .selectAll('sync_task')
    .select('sys_user.userName')
    .select((eb) => machineCodesOf(kind, eb).as('machineCodes'));
}
type TaskRow = SelectedRow<typeof withColumns>;

/**
 * The row's machineCodeList as a JSON array text, in machineCode order (`[]` for none): a subquery per
 * row of the page (the primary key (taskId, machineCode) answers it), so the page is one statement
 * instead of the page and then its devices. Aggregate ORDER BY: SQLite 3.44+ (node:sqlite bundles 3.5x).
 */
function machineCodesOf(kind: DialectName, eb: ExpressionBuilder<Database, 'sync_task'>) {
  const codes = kind === 'postgres'
    ? sql<string>`coalesce(json_agg(${sql.ref('d.machineCode')} order by ${sql.ref('d.machineCode')}), '[]')::text`
    : sql<string>`json_group_array(${sql.ref('d.machineCode')} order by ${sql.ref('d.machineCode')})`;
  // an aggregate answers one row even for a task without devices, so the subquery's value is never null ($asScalar: its type, the same SQL)
  return eb.selectFrom('sync_task_device as d').select(codes.as('codes')).whereRef('d.taskId', '=', 'sync_task.taskId').$asScalar();
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

function toTask(row: TaskRow, now: number): Task {
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
    machineCodeList: JSON.parse(row.machineCodes) as string[],
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
    sendStartTime: row.sendStartTime,
    sendEndTime: row.sendEndTime,
    outsideWindow: row.taskStatus === TaskStatus.running && !isInSendWindow(row, now),
    deliveredNum: Number(row.deliveredNum),
    undeliveredNum: Number(row.undeliveredNum),
    userId: row.userId,
    userName: row.userName ?? '',
    deptId: row.deptId,
    addTime: formatDateTime(Number(row.addTime)),
    editTime: formatDateTime(Number(row.editTime)),
  };
}
