import { sql, type Kysely, type Transaction } from 'kysely';
import { carrierKeys, LockStatus, TaskNumberState, type Carrier } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { BatchState, completeTask, settleBatch } from './number-leases.ts';
import { ownedBy, type ReportInput, type ReportOutcome } from './report-input.ts';

type Trx = Transaction<Database>;

/** The rows of this batch and device a result may still change (ownedBy). */
function stillOurs(trx: Trx, input: ReportInput, ids: number[]) {
  return trx
    .updateTable('sync_task_number')
    .where('id', 'in', ids)
    .where((eb) => ownedBy(eb, input, 'sync_task_number', 'sync_batch'));
}

type TaskTally = { taskId: number; sent: number; mobile: number; unicom: number; telecom: number; other: number; failed: number };

function tallyOf(tallies: Map<number, TaskTally>, taskId: number): TaskTally {
  let tally = tallies.get(taskId);
  if (!tally) tallies.set(taskId, (tally = { taskId, sent: 0, mobile: 0, unicom: 0, telecom: 0, other: 0, failed: 0 }));
  return tally;
}

/**
 * SQLite: the report as one transaction of plain statements (one connection, one writer: nothing waits
 * on these rows, so round trips cost nothing but the statements themselves).
 */
export async function reportStatementByStatement(db: Kysely<Database>, input: ReportInput): Promise<ReportOutcome> {
  return db.transaction().execute(async (trx) => {
    const code = await trx
      .selectFrom('sync_auth_code as c')
      .innerJoin('sys_user as u', 'u.userId', 'c.authUserId')
      .select(['c.machineCode', 'u.isLock'])
      .where('c.id', '=', input.codeId)
      .where('c.tokenHash', '=', input.tokenHash)
      .executeTakeFirst();
    const ownerLocked = code?.isLock === LockStatus.locked;
    const codeOk = code?.machineCode === input.machineCode;
    if (!codeOk || ownerLocked) return { codeOk, ownerLocked, sent: 0, failed: 0, retrying: 0, taskCompleted: false };

    const tallies = new Map<number, TaskTally>();
    const changed: { id: number; taskId: number }[] = [];
    let retrying = 0;
    const sentIds = input.results.filter((r) => r.sent).map((r) => r.id);
    if (sentIds.length > 0) {
      const rows = await stillOurs(trx, input, sentIds)
        .set({ state: TaskNumberState.sent, batchId: input.batchId, machineCode: input.machineCode, doneAt: input.now, leaseUntil: null, failReason: null })
        .returning(['id', 'taskId', 'carrier'])
        .execute();
      changed.push(...rows);
      for (const row of rows) {
        const tally = tallyOf(tallies, row.taskId);
        tally.sent += 1;
        tally[carrierKeys[row.carrier as Carrier] ?? 'other'] += 1;
      }
    }
    const failedByReason = Map.groupBy(input.results.filter((r) => !r.sent), (r) => r.reason);
    for (const [reason, results] of failedByReason) {
      const isFinal = sql<boolean>`attempts + 1 >= ${input.maxAttempts}`;
      const rows = await stillOurs(trx, input, results.map((r) => r.id))
        .set((eb) => ({
          attempts: sql<number>`attempts + 1`,
          state: eb.case().when(isFinal).then(TaskNumberState.failed).else(TaskNumberState.leased).end(),
          batchId: eb.case().when(isFinal).then(input.batchId).else(null).end(),
          machineCode: eb.case().when(isFinal).then(input.machineCode).else(null).end(),
          doneAt: eb.case().when(isFinal).then(input.now).else(null).end(),
          leaseUntil: eb.case().when(isFinal).then(null).else(input.now).end(),
          failReason: reason,
        }))
        .returning(['id', 'taskId', 'state'])
        .execute();
      changed.push(...rows);
      for (const row of rows) {
        if (row.state === TaskNumberState.failed) tallyOf(tallies, row.taskId).failed += 1;
        else retrying += 1;
      }
    }

    await countBatchResults(trx, input, changed);
    const outcome: ReportOutcome = { codeOk: true, ownerLocked: false, sent: 0, failed: 0, retrying, taskCompleted: false };
    for (const tally of tallies.values()) {
      outcome.sent += tally.sent;
      outcome.failed += tally.failed;
      if (await countTaskResults(trx, tally, input)) outcome.taskCompleted = true;
    }
    if (outcome.sent > 0) await countDeviceSends(trx, input, outcome.sent);
    return outcome;
  });
}

/** The sent total and its carrier split, added to a row that keeps them (the task, its owner). */
const addSent = (c: TaskTally) => ({
  totalSendNum: sql<number>`"totalSendNum" + ${c.sent}`,
  smcount: sql<number>`smcount + ${c.mobile}`,
  sucount: sql<number>`sucount + ${c.unicom}`,
  stcount: sql<number>`stcount + ${c.telecom}`,
  socount: sql<number>`socount + ${c.other}`,
});

/** The task's and its owner's counters; completes the task when its last open row became final; answers whether it did. */
async function countTaskResults(trx: Trx, c: TaskTally, input: ReportInput): Promise<boolean> {
  const task = await trx
    .updateTable('sync_task')
    .set((eb) => ({
      ...addSent(c),
      failNum: eb('failNum', '+', c.failed),
      doneNum: eb('doneNum', '+', c.sent + c.failed),
    }))
    .where('taskId', '=', c.taskId)
    .returning(['userId', 'doneNum', 'totalNum'])
    .executeTakeFirst();
  if (!task) return false;
  if (c.sent > 0) {
    await trx
      .updateTable('sys_user')
      .set((eb) => ({
        ...addSent(c),
        sendNum: eb('sendNum', '+', c.sent),
        hisTotalSendNum: eb('hisTotalSendNum', '+', c.sent),
      }))
      .where('userId', '=', task.userId)
      .execute();
    await trx
      .insertInto('sync_send_daily')
      .values({ userId: task.userId, day: input.day, sendCount: c.sent })
      .onConflict((oc) => oc.columns(['userId', 'day']).doUpdateSet((eb) => ({ sendCount: eb('sync_send_daily.sendCount', '+', eb.ref('excluded.sendCount')) })))
      .execute();
  }
  return task.doneNum >= task.totalNum && (await completeTask(trx, c.taskId, input.now));
}

/** The batch's own count: its fresh numbers (its range) this report made final or gave back; reported once all are. */
async function countBatchResults(trx: Trx, input: ReportInput, changed: { id: number; taskId: number }[]): Promise<void> {
  const batch = await trx.selectFrom('sync_batch').select(['taskId', 'fromId', 'toId']).where('batchId', '=', input.batchId).where('state', '=', BatchState.open).executeTakeFirst();
  if (!batch) return;
  const done = changed.filter((n) => n.taskId === batch.taskId && n.id >= batch.fromId && n.id <= batch.toId).length;
  if (done === 0) return;
  await trx
    .updateTable('sync_batch')
    .set(settleBatch(done))
    .where('batchId', '=', input.batchId)
    .execute();
}

/** One per sent message off the device's code, and the device's count for the day (its daily cap). */
async function countDeviceSends(trx: Trx, input: ReportInput, sent: number): Promise<void> {
  await trx.updateTable('sync_auth_code').set((eb) => ({ dueNum: eb('dueNum', '-', sent) })).where('id', '=', input.codeId).execute();
  await trx
    .insertInto('sync_device_daily')
    .values({ machineCode: input.machineCode, day: input.day, sendCount: sent })
    .onConflict((oc) => oc.columns(['machineCode', 'day']).doUpdateSet((eb) => ({ sendCount: eb('sync_device_daily.sendCount', '+', eb.ref('excluded.sendCount')) })))
    .execute();
}
