import type { Kysely } from 'kysely';
import { withAutoId } from './helpers.ts';

// The sending console: tasks, their numbers, uploaded files, authorization codes (which
// bind devices), per-day send counts and the per-company do-not-contact list. The columns the device
// protocol moves (number states, leases, counters) are here so the engine adds no second copy.
export async function up(db: Kysely<any>): Promise<void> {
  await withAutoId(db, db.schema.createTable('sync_task'), 'taskId')
    .addColumn('taskName', 'varchar(100)', (c) => c.notNull())
    .addColumn('showType', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('content', 'varchar(4000)', (c) => c.notNull().defaultTo(''))
    .addColumn('imgUrl', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('fileNo', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('fileName', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('qrUrl', 'varchar(500)', (c) => c.notNull().defaultTo('http://'))
    .addColumn('taskStatus', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('singleSendNumDay', 'integer', (c) => c.notNull().defaultTo(300))
    .addColumn('batchSendNum', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('batchSendMaxNum', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('intervalSeconds', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('testNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('testPhone', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('clearNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('isRandomNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('randomPosition', 'integer', (c) => c.notNull().defaultTo(0))
    // totals of the numbers held, split by carrier (移动 | 联通 | 电信 | 其他)
    .addColumn('totalNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mcount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ucount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tcount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ocount', 'integer', (c) => c.notNull().defaultTo(0))
    // sent so far, same split; finally failed; what uploads skipped
    .addColumn('totalSendNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('smcount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sucount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stcount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('socount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicateNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invalidNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('blockedNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('userId', 'integer', (c) => c.notNull().references('sys_user.userId').onDelete('cascade'))
    .addColumn('deptId', 'integer', (c) => c.references('sys_dept.deptId').onDelete('set null'))
    .addColumn('addTime', 'bigint', (c) => c.notNull())
    .addColumn('editTime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sync_task_user').on('sync_task').column('userId').execute();
  await db.schema.createIndex('sync_task_dept').on('sync_task').column('deptId').execute();

  // machineCodeList of SPEC §3: the devices that send a task.
  await db.schema
    .createTable('sync_task_device')
    .addColumn('taskId', 'integer', (c) => c.notNull().references('sync_task.taskId').onDelete('cascade'))
    .addColumn('machineCode', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_task_device_pk', ['taskId', 'machineCode'])
    .execute();
  await db.schema.createIndex('sync_task_device_machine').on('sync_task_device').column('machineCode').execute();

  // One row per number of a task. state: 0 pending, 1 leased to a device batch, 2 sent, 3 finally failed.
  await withAutoId(db, db.schema.createTable('sync_task_number'), 'id')
    .addColumn('taskId', 'integer', (c) => c.notNull().references('sync_task.taskId').onDelete('cascade'))
    .addColumn('phone', 'bigint', (c) => c.notNull())
    .addColumn('carrier', 'integer', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('batchId', 'varchar(40)')
    .addColumn('leaseUntil', 'bigint')
    .addColumn('machineCode', 'varchar(64)')
    .addColumn('doneAt', 'bigint')
    .addColumn('failReason', 'varchar(200)')
    .execute();
  await db.schema.createIndex('sync_task_number_phone').unique().on('sync_task_number').columns(['taskId', 'phone']).execute();
  await db.schema.createIndex('sync_task_number_state').on('sync_task_number').columns(['taskId', 'state', 'id']).execute();

  // Files the console stored (number lists, task images and files, QR images). filePath is a
  // storage key under DATA_DIR/uploads, never a path the client chose.
  await db.schema
    .createTable('sys_upload')
    .addColumn('fileNo', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('fileName', 'varchar(255)', (c) => c.notNull())
    .addColumn('filePath', 'varchar(255)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('userId', 'integer', (c) => c.references('sys_user.userId').onDelete('set null'))
    .addColumn('deptId', 'integer')
    .addColumn('addTime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sys_upload_path').unique().on('sys_upload').column('filePath').execute();

  // Authorization codes: made by an administrator for an owner (authUserId); activating a device
  // binds it (machineCode/machineName) and sets useStatus 1. dueNum is the remaining message quota,
  // dueDate the expiry instant (dueDateNum days from creation or the last recharge).
  await withAutoId(db, db.schema.createTable('sync_auth_code'), 'id')
    .addColumn('authCode', 'varchar(32)', (c) => c.notNull())
    .addColumn('authUserId', 'integer', (c) => c.notNull().references('sys_user.userId').onDelete('cascade'))
    .addColumn('useStatus', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('machineCode', 'varchar(64)')
    .addColumn('machineName', 'varchar(100)')
    .addColumn('dueNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dueDateNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dueDate', 'bigint', (c) => c.notNull())
    .addColumn('activatedAt', 'bigint')
    .addColumn('addUserId', 'integer')
    .addColumn('deptId', 'integer')
    .addColumn('addTime', 'bigint', (c) => c.notNull())
    .addColumn('editTime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sync_auth_code_code').unique().on('sync_auth_code').column('authCode').execute();
  await db.schema.createIndex('sync_auth_code_owner').on('sync_auth_code').column('authUserId').execute();
  await db.schema.createIndex('sync_auth_code_machine').unique().on('sync_auth_code').column('machineCode').where('machineCode', 'is not', null).execute();

  // Sent messages per account and Asia/Shanghai day: today / yesterday / history figures.
  await db.schema
    .createTable('sync_send_daily')
    .addColumn('userId', 'integer', (c) => c.notNull().references('sys_user.userId').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('sendCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('sync_send_daily_pk', ['userId', 'day'])
    .execute();

  // 退订/黑名单 per company: skipped at upload, never handed out.
  await db.schema
    .createTable('sync_blacklist')
    .addColumn('deptId', 'integer', (c) => c.notNull().references('sys_dept.deptId').onDelete('cascade'))
    .addColumn('phone', 'bigint', (c) => c.notNull())
    .addColumn('addUser', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('addTime', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_blacklist_pk', ['deptId', 'phone'])
    .execute();

  // Task accounts' counters (SPEC §3 Task user): all-time sent with carrier split, single-run sent
  // (sendNum, cleared on its own), and the history total only account 1 may clear.
  for (const column of ['totalSendNum', 'smcount', 'sucount', 'stcount', 'socount', 'sendNum', 'hisTotalSendNum']) {
    await db.schema.alterTable('sys_user').addColumn(column, 'integer', (c) => c.notNull().defaultTo(0)).execute();
  }
}
