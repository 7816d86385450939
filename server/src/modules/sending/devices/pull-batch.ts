import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import {
  DEVICE_API_PREFIX, DEVICE_REPORT_MAX, DeviceWaitReason, fill, LockStatus, messages, secondsToNextShanghaiDay, shanghaiDay, TaskNumberState, TaskStatus,
  type DeviceBatch, type DevicePull,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { compiledOnce } from '../../../db/compiled-once.ts';
import { dialectOf } from '../../../db/dialect.ts';
import type { Database, Queryable } from '../../../db/schema.ts';
import { unauthorized } from '../../../http/errors.ts';
import { batchItems } from './batch-content.ts';
import { forgetDevice, type DeviceIdentity } from './device-auth.ts';
import { claimPending, completeTask, heldByDevice, settleBatch, type ClaimedNumber } from './number-leases.ts';
import { sendableTasks } from './sendable-tasks.ts';

const m = messages.device;
/** Claims of one pull that may come back all blocked before the pull gives up on a task. */
const CLAIM_TRIES = 3;

/** Runs `work` in the transaction `db` is, or in a new one. */
const inTransaction = <T>(db: Queryable, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
type Wait = Extract<DevicePull, { batch: null }>['wait'];

function wait(reason: DeviceWaitReason, message: string, retryAfterSeconds: number): DevicePull {
  return { batch: null, wait: { reason, message, retryAfterSeconds } satisfies Wait };
}

const randomBetween = (min: number, max: number) => min + Math.floor(Math.random() * (Math.max(min, max) - min + 1));

/**
 * The device's code, still holding the device's token, with its owner's lock and what the device holds
 * under live leases and sent today: one round trip. `pulls` lets the claim check that no other pull of
 * the device claimed since (number-leases.ts).
 */
const deviceStateStatement = compiledOnce((db, v: { codeId: number; tokenHash: string; machineCode: string; now: number; day: string }) => db
  .selectFrom('sync_auth_code as c')
  .innerJoin('sys_user as u', 'u.userId', 'c.authUserId')
  .select(['c.id', 'c.machineCode', 'c.authUserId', 'c.dueNum', 'c.dueDate', 'c.pulls', 'c.capabilities', 'u.isLock'])
  .select((eb) => [
    heldByDevice(eb, v.machineCode, v.now).as('held'),
    eb.selectFrom('sync_device_daily as d').select('d.sendCount').where('d.machineCode', '=', v.machineCode).where('d.day', '=', v.day).as('sentToday'),
  ])
  .where('c.id', '=', v.codeId)
  .where('c.tokenHash', '=', v.tokenHash));

async function deviceState(db: Queryable, device: DeviceIdentity, now: number) {
  const [row] = await deviceStateStatement(db, { codeId: device.authCodeId, tokenHash: device.tokenHash, machineCode: device.machineCode, now, day: shanghaiDay(now) });
  return row && { ...row, held: Number(row.held ?? 0), sentToday: Number(row.sentToday ?? 0) };
}

const assignedTasksStatement = compiledOnce((db, v: { machineCode: string; ownerId: number }) => db
  .selectFrom('sync_task as t')
  .innerJoin('sync_task_device as d', 'd.taskId', 't.taskId')
  .select([
    't.taskId', 't.taskName', 't.taskStatus', 't.showType', 't.content', 't.imgUrl', 't.fileNo', 't.fileName', 't.qrUrl',
    't.singleSendNumDay', 't.batchSendNum', 't.batchSendMaxNum', 't.intervalSeconds', 't.clearNum', 't.testNum', 't.testPhone',
    't.isRandomNum', 't.randomPosition', 't.deptId', 't.sendStartTime', 't.sendEndTime',
  ])
  .select((eb) => eb.exists(eb.selectFrom('sync_blacklist as b').select('b.phone').whereRef('b.deptId', '=', 't.deptId')).as('hasBlacklist'))
  .where('d.machineCode', '=', v.machineCode)
  .where('t.userId', '=', v.ownerId)
  .orderBy('t.taskId'));

const assignedTasks = (db: Queryable, machineCode: string, ownerId: number) => assignedTasksStatement(db, { machineCode, ownerId });
type AssignedTask = Awaited<ReturnType<typeof assignedTasks>>[number];

/** The claimed numbers on the company's do-not-contact list now (put there after their upload). */
async function blockedAmong(db: Queryable, task: AssignedTask, claimed: ClaimedNumber[]): Promise<ClaimedNumber[]> {
  if (!task.hasBlacklist || task.deptId === null) return [];
  const rows = await db
    .selectFrom('sync_blacklist')
    .select('phone')
    .where('deptId', '=', task.deptId)
    .where('phone', 'in', claimed.map((n) => n.phone))
    .execute();
  const listed = new Set(rows.map((r) => Number(r.phone)));
  return claimed.filter((n) => listed.has(n.phone));
}

/**
 * Numbers of the batch on the do-not-contact list: final (blocked), never handed out; those from the
 * batch's range leave its size. Answers the rest.
 */
async function dropBlocked(db: Queryable, task: AssignedTask, batchId: string, claimed: ClaimedNumber[], now: number): Promise<ClaimedNumber[]> {
  const blocked = await blockedAmong(db, task, claimed);
  if (blocked.length === 0) return claimed;
  const fresh = blocked.filter((n) => n.fresh).length;
  await inTransaction(db, async (trx) => {
    await trx.updateTable('sync_task_number')
      .set({ state: TaskNumberState.blocked, leaseUntil: null, doneAt: now, failReason: m.blockedReason })
      .where('id', 'in', blocked.map((n) => n.id))
      .execute();
    if (fresh > 0) {
      await trx.updateTable('sync_batch')
        .set(settleBatch(0, fresh))
        .where('batchId', '=', batchId)
        .execute();
    }
    const counted = await trx
      .updateTable('sync_task')
      .set((eb) => ({ blockedNum: eb('blockedNum', '+', blocked.length), doneNum: eb('doneNum', '+', blocked.length) }))
      .where('taskId', '=', task.taskId)
      .returning(['doneNum', 'totalNum'])
      .executeTakeFirstOrThrow();
    if (counted.doneNum >= counted.totalNum) await completeTask(trx, task.taskId, now);
  });
  const dropped = new Set(blocked.map((n) => n.id));
  return claimed.filter((n) => !dropped.has(n.id));
}

/** Where a device downloads a task's image or file; empty when the task has none. */
function taskFileUrl(task: AssignedTask): string {
  const stored = task.imgUrl.match(/^\/download\/file\?filePath=([^&]+)/)?.[1];
  if (stored) return `${DEVICE_API_PREFIX}/file?filePath=${stored}`;
  return /^https?:\/\//.test(task.imgUrl) ? task.imgUrl : '';
}

/** Times a PostgreSQL pull reads the device's state again after another pull of the device claimed first. */
const STATE_READS = 3;

/**
 * One pull (docs/device-protocol.md §2): at most one batch from the first running task of the
 * device's owner that lists the device, is of a type it can send, is inside its sending window
 * (sendable-tasks.ts) and has pending numbers, sized within the task's batch range,
 * the device's daily cap and its code's quota; or the reason there is none. SQLite: one transaction
 * (one writer). PostgreSQL: statement by statement, the claim committing on its own so the task's
 * cursor is never held across a round trip (number-leases.ts); a claim that finds the device's
 * `pulls` moved leaves the pull to read the device's state again.
 */
export async function pullBatch(ctx: AppContext, device: DeviceIdentity): Promise<DevicePull> {
  if (dialectOf(ctx.db) !== 'postgres') return ctx.db.transaction().execute(async (trx) => (await pullOnce(ctx, trx, device))!);
  for (let read = 1; read < STATE_READS; read++) {
    const pulled = await pullOnce(ctx, ctx.db, device);
    if (pulled) return pulled;
  }
  return (await pullOnce(ctx, ctx.db, device)) ?? wait(DeviceWaitReason.noPending, m.waitNoPending, 1);
}

async function pullOnce(ctx: AppContext, db: Queryable, device: DeviceIdentity): Promise<DevicePull | null> {
  const now = ctx.now();
  const { leaseMs } = ctx.config.device;
  const code = await deviceState(db, device, now);
  if (!code || code.machineCode !== device.machineCode || code.isLock === LockStatus.locked) {
    forgetDevice(ctx, device);
    throw unauthorized(code?.isLock === LockStatus.locked ? messages.login.locked : m.tokenInvalid);
  }
  if (Number(code.dueDate) <= now) return wait(DeviceWaitReason.codeExpired, m.waitCodeExpired, 600);
  const { held, sentToday } = code;
  const quotaLeft = Number(code.dueNum) - held;
  if (quotaLeft <= 0) return wait(DeviceWaitReason.quotaUsedUp, m.waitQuotaUsedUp, 600);

  const tasks = await assignedTasks(db, device.machineCode, code.authUserId);
  if (tasks.length === 0) return wait(DeviceWaitReason.noTask, m.waitNoTask, 30);
  const running = tasks.filter((t) => t.taskStatus === TaskStatus.running);
  if (running.length === 0) {
    return tasks.some((t) => t.taskStatus === TaskStatus.paused)
      ? wait(DeviceWaitReason.taskPaused, m.waitTaskPaused, 30)
      : wait(DeviceWaitReason.taskCompleted, m.waitTaskCompleted, 30);
  }

  const sendable = sendableTasks(running, code.capabilities, now);
  if (sendable.wait) return { batch: null, wait: sendable.wait };

  let capHit: number | undefined;
  let pulls = code.pulls;
  for (const task of sendable.tasks) {
    const capLeft = task.singleSendNumDay - sentToday - held;
    if (capLeft <= 0) {
      capHit ??= task.singleSendNumDay;
      continue;
    }
    const size = Math.min(randomBatchSize(task), capLeft, quotaLeft, DEVICE_REPORT_MAX);
    for (let attempt = 0; attempt < CLAIM_TRIES; attempt++) {
      const batchId = `b_${randomUUID().replace(/-/g, '')}`;
      const leaseUntil = now + leaseMs;
      const claimed = await claimPending(db, {
        taskId: task.taskId, size, batchId, machineCode: device.machineCode, leaseUntil, now, codeId: code.id, pulls,
      });
      if (claimed === null) return null;
      pulls += 1;
      if (claimed.length === 0) break;
      const numbers = await dropBlocked(db, task, batchId, claimed, now);
      if (numbers.length === 0) continue;
      return { batch: await toBatch(db, task, numbers, { batchId, leaseUntil, leaseMs }), wait: null };
    }
  }
  return capHit !== undefined
    ? wait(DeviceWaitReason.dailyCap, fill(m.waitDailyCap, { limit: capHit }), secondsToNextShanghaiDay(now))
    : wait(DeviceWaitReason.noPending, m.waitNoPending, 30);
}

function randomBatchSize(task: AssignedTask): number {
  return Math.max(1, randomBetween(task.batchSendNum, task.batchSendMaxNum));
}

async function toBatch(
  trx: Queryable, task: AssignedTask, numbers: ClaimedNumber[], lease: { batchId: string; leaseUntil: number; leaseMs: number },
): Promise<DeviceBatch> {
  // The test phone goes after every testNum-th number of the task, counted across batches.
  let handedOutBefore = 0;
  if (task.testNum > 0 && task.testPhone) {
    const row = await trx
      .updateTable('sync_task')
      .set((eb) => ({ dispatchedNum: eb('dispatchedNum', '+', numbers.length) }))
      .where('taskId', '=', task.taskId)
      .returning('dispatchedNum')
      .executeTakeFirstOrThrow();
    handedOutBefore = Number(row.dispatchedNum) - numbers.length;
  }
  return {
    batchId: lease.batchId,
    taskId: task.taskId,
    taskName: task.taskName,
    showType: task.showType,
    imgUrl: task.imgUrl,
    fileName: task.fileName,
    fileUrl: taskFileUrl(task),
    qrUrl: task.qrUrl,
    intervalSeconds: task.intervalSeconds,
    clearNum: task.clearNum,
    leaseUntil: lease.leaseUntil,
    leaseSeconds: Math.round(lease.leaseMs / 1000),
    items: batchItems(numbers, task, handedOutBefore),
  };
}
