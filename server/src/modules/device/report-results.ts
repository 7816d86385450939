import { sql, type ExpressionBuilder, type Transaction } from 'kysely';
import {
  carrierKeys, DeviceResultStatus, messages, shanghaiDay, TaskNumberState, TaskStatus, type Carrier, type DeviceReportRequest, type DeviceReportResult,
} from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { dialectOf } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { unauthorized } from '../../http/errors.ts';
import type { DeviceIdentity } from './device-auth.ts';
import { completeTask, hasUnfinished } from './number-leases.ts';

type Trx = Transaction<Database>;
const OPEN_STATES = [TaskNumberState.pending, TaskNumberState.leased];

/** The rows of this batch and device a result may still change: leased, or returned to pending by a lease end and not taken since. */
function stillOurs(trx: Trx, batchId: string, machineCode: string, ids: number[]) {
  return trx
    .updateTable('sync_task_number')
    .where('id', 'in', ids)
    .where('batchId', '=', batchId)
    .where('machineCode', '=', machineCode)
    .where('state', 'in', OPEN_STATES);
}

type Tally = { sent: Map<number, number[]>; finalFailed: Map<number, number>; retrying: number };

const sentSplit = (carriers: number[]) => {
  const split = { mobile: 0, unicom: 0, telecom: 0, other: 0 };
  for (const c of carriers) split[carrierKeys[c as Carrier] ?? 'other'] += 1;
  return split;
};

/**
 * One report (docs/device-protocol.md §4), in one transaction with everything it moves: number
 * states, the task's and the owner's counters, the code's quota, the per-day counts, completion.
 * A result applies only while its number is still this batch's and open, so a repeat changes nothing.
 */
export async function reportResults(ctx: AppContext, device: DeviceIdentity, report: DeviceReportRequest): Promise<DeviceReportResult> {
  const now = ctx.now();
  const { maxAttempts } = ctx.config.device;
  // One result per number: the first one wins when a report names a number twice.
  const byId = new Map<number, (typeof report.results)[number]>();
  for (const r of report.results) if (!byId.has(r.id)) byId.set(r.id, r);
  const sentIds = [...byId.values()].filter((r) => r.status === DeviceResultStatus.sent).map((r) => r.id);
  const failedByReason = new Map<string, number[]>();
  for (const r of byId.values()) {
    if (r.status !== DeviceResultStatus.failed) continue;
    const reason = r.reason || '';
    failedByReason.set(reason, [...(failedByReason.get(reason) ?? []), r.id]);
  }

  return ctx.db.transaction().execute(async (trx) => {
    // The code row first, as the pull does: one lock order for every engine transaction.
    const code = await trx
      .selectFrom('sync_auth_code')
      .select(['id', 'machineCode'])
      .where('id', '=', device.authCodeId)
      .$if(dialectOf(trx) === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!code || code.machineCode !== device.machineCode) throw unauthorized(messages.device.tokenInvalid);

    const tally: Tally = { sent: new Map(), finalFailed: new Map(), retrying: 0 };
    if (sentIds.length > 0) {
      const rows = await stillOurs(trx, report.batchId, device.machineCode, sentIds)
        .set({ state: TaskNumberState.sent, doneAt: now, leaseUntil: null, failReason: null })
        .returning(['taskId', 'carrier'])
        .execute();
      for (const row of rows) tally.sent.set(row.taskId, [...(tally.sent.get(row.taskId) ?? []), Number(row.carrier)]);
    }
    for (const [reason, ids] of failedByReason) {
      const attemptsAfter = sql<number>`attempts + 1`;
      const isFinal = sql<boolean>`attempts + 1 >= ${maxAttempts}`;
      // A number with tries left goes back to pending and loses its batch, so a repeat of this
      // report finds nothing to change; a final one keeps batch and device for the record.
      const rows = await stillOurs(trx, report.batchId, device.machineCode, ids)
        .set((eb) => ({
          attempts: attemptsAfter,
          state: eb.case().when(isFinal).then(TaskNumberState.failed).else(TaskNumberState.pending).end(),
          batchId: eb.case().when(isFinal).then(eb.ref('batchId')).else(null).end(),
          machineCode: eb.case().when(isFinal).then(eb.ref('machineCode')).else(null).end(),
          doneAt: eb.case().when(isFinal).then(now).else(null).end(),
          leaseUntil: null,
          failReason: reason || null,
        }))
        .returning(['taskId', 'state'])
        .execute();
      for (const row of rows) {
        if (row.state === TaskNumberState.failed) tally.finalFailed.set(row.taskId, (tally.finalFailed.get(row.taskId) ?? 0) + 1);
        else tally.retrying += 1;
      }
    }

    // The device's own rows first, the rows every device of the task reports to (task, owner) last:
    // on PostgreSQL the reports of one task queue on the task row's lock, held until commit, so it
    // is taken as late as possible.
    const sentTotal = [...tally.sent.values()].reduce((a, carriers) => a + carriers.length, 0);
    if (sentTotal > 0) await countDeviceSends(trx, device, code.id, sentTotal, shanghaiDay(now));
    const taskIds = [...new Set([...tally.sent.keys(), ...tally.finalFailed.keys()])].sort((a, b) => a - b);
    let taskCompleted = false;
    for (const taskId of taskIds) {
      if (await countTaskResults(trx, taskId, tally.sent.get(taskId) ?? [], tally.finalFailed.get(taskId) ?? 0, now)) taskCompleted = true;
    }

    const failedTotal = [...tally.finalFailed.values()].reduce((a, b) => a + b, 0);
    return { sent: sentTotal, failed: failedTotal, retrying: tally.retrying, ignored: byId.size - sentTotal - failedTotal - tally.retrying, taskCompleted };
  });
}

/** The task's and its owner's counters; answers whether the task just completed. */
async function countTaskResults(trx: Trx, taskId: number, carriers: number[], failed: number, now: number): Promise<boolean> {
  const counts = { ...sentSplit(carriers), sent: carriers.length, failed, day: shanghaiDay(now) };
  // Updating the task row first takes its lock: the completion check below then sees every other
  // report of this task that committed before, so the last one to finish completes the task.
  const task = dialectOf(trx) === 'postgres' ? await countInOneStatement(trx, taskId, counts) : await countStatementByStatement(trx, taskId, counts);
  if (!task) return false;
  if (task.taskStatus === TaskStatus.completed || hasUnfinishedByCounters(task) || (await hasUnfinished(trx, taskId))) return false;
  await completeTask(trx, taskId, now);
  return true;
}

type Counts = { sent: number; failed: number; mobile: number; unicom: number; telecom: number; other: number; day: string };
type CountedTask = { userId: number; taskStatus: number; totalNum: number; totalSendNum: number; failNum: number; blockedNum: number };

const TASK_RETURNING = ['userId', 'taskStatus', 'totalNum', 'totalSendNum', 'failNum', 'blockedNum'] as const;

function taskCounterUpdate(trx: Trx, taskId: number, c: Counts) {
  return trx
    .updateTable('sync_task')
    .set((eb) => ({
      totalSendNum: eb('totalSendNum', '+', c.sent),
      smcount: eb('smcount', '+', c.mobile),
      sucount: eb('sucount', '+', c.unicom),
      stcount: eb('stcount', '+', c.telecom),
      socount: eb('socount', '+', c.other),
      failNum: eb('failNum', '+', c.failed),
    }))
    .where('taskId', '=', taskId);
}

const ownerCounterValues = (c: Counts) => (eb: ExpressionBuilder<Database, 'sys_user'>) => ({
  totalSendNum: eb('totalSendNum', '+', c.sent),
  smcount: eb('smcount', '+', c.mobile),
  sucount: eb('sucount', '+', c.unicom),
  stcount: eb('stcount', '+', c.telecom),
  socount: eb('socount', '+', c.other),
  sendNum: eb('sendNum', '+', c.sent),
  hisTotalSendNum: eb('hisTotalSendNum', '+', c.sent),
});

/** SQLite: one statement after another (one writer, nothing waits on these rows). */
async function countStatementByStatement(trx: Trx, taskId: number, c: Counts): Promise<CountedTask | undefined> {
  const task = await taskCounterUpdate(trx, taskId, c).returning(TASK_RETURNING).executeTakeFirst();
  if (!task || c.sent === 0) return task;
  await trx.updateTable('sys_user').set(ownerCounterValues(c)).where('userId', '=', task.userId).execute();
  await trx
    .insertInto('sync_send_daily')
    .values({ userId: task.userId, day: c.day, sendCount: c.sent })
    .onConflict((oc) => oc.columns(['userId', 'day']).doUpdateSet((eb) => ({ sendCount: eb('sync_send_daily.sendCount', '+', eb.ref('excluded.sendCount')) })))
    .execute();
  return task;
}

/**
 * PostgreSQL: task, owner and owner-per-day rows in ONE statement (data-modifying CTEs, in that lock
 * order). Every report of a task queues on these rows' locks, held until commit; one statement instead
 * of three keeps each report's hold to one round trip plus the commit.
 */
async function countInOneStatement(trx: Trx, taskId: number, c: Counts): Promise<CountedTask | undefined> {
  if (c.sent === 0) return taskCounterUpdate(trx, taskId, c).returning(TASK_RETURNING).executeTakeFirst();
  return trx
    .with('t', () => taskCounterUpdate(trx, taskId, c).returning(TASK_RETURNING))
    .with('u', (qc) => qc.updateTable('sys_user').set(ownerCounterValues(c)).where('userId', '=', (eb) => eb.selectFrom('t').select('t.userId')).returning('userId'))
    .with('d', (qc) => qc
      .insertInto('sync_send_daily')
      .columns(['userId', 'day', 'sendCount'])
      .expression((eb) => eb.selectFrom('t').select((inner) => ['t.userId', inner.val(c.day).as('day'), inner.val(c.sent).as('sendCount')]))
      .onConflict((oc) => oc.columns(['userId', 'day']).doUpdateSet((eb) => ({ sendCount: eb('sync_send_daily.sendCount', '+', eb.ref('excluded.sendCount')) })))
      .returning('userId'))
    .selectFrom('t')
    .selectAll()
    .executeTakeFirst();
}

/**
 * Whether the task's counters alone prove numbers are still open, sparing the row check (a round trip
 * while the task row is locked) on every report but the last ones. totalNum counts the task's rows;
 * every final row is counted once in totalSendNum, failNum or blockedNum (which also counts numbers
 * blocked at upload, never rows), so fewer counted than rows means some row is still open.
 */
function hasUnfinishedByCounters(task: { totalNum: number; totalSendNum: number; failNum: number; blockedNum: number }): boolean {
  return Number(task.totalSendNum) + Number(task.failNum) + Number(task.blockedNum) < Number(task.totalNum);
}

/** One per sent message off the device's code, and the device's count for the day (its daily cap). */
async function countDeviceSends(trx: Trx, device: DeviceIdentity, codeId: number, sent: number, day: string): Promise<void> {
  await trx.updateTable('sync_auth_code').set((eb) => ({ dueNum: eb('dueNum', '-', sent) })).where('id', '=', codeId).execute();
  await trx
    .insertInto('sync_device_daily')
    .values({ machineCode: device.machineCode, day, sendCount: sent })
    .onConflict((oc) => oc.columns(['machineCode', 'day']).doUpdateSet((eb) => ({ sendCount: eb('sync_device_daily.sendCount', '+', eb.ref('excluded.sendCount')) })))
    .execute();
}
