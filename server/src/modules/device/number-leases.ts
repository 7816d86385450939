import { sql, type Kysely, type Transaction } from 'kysely';
import { TaskNumberState, TaskStatus } from '@huiyun/contract';
import type { Database } from '../../db/schema.ts';
import { dialectOf } from '../../db/dialect.ts';

// The number-row state changes of the engine, one statement each. `state = 1` is written as a literal
// where the partial indexes of migration 0004 must match (SQLite cannot match them through a bound
// parameter). On PostgreSQL the claims take row locks with SKIP LOCKED, so devices pulling at the same
// time never wait for each other nor take the same number; on SQLite one connection runs one
// transaction at a time, which gives the same guarantee.

type Db = Kysely<Database> | Transaction<Database>;
const LEASED = sql.lit(TaskNumberState.leased);
const PENDING = sql.lit(TaskNumberState.pending);

/** Numbers the device holds unreported under a live lease (count against its cap and quota). */
export async function heldByDevice(db: Db, machineCode: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('sync_task_number')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('machineCode', '=', machineCode)
    .where('state', '=', LEASED)
    .where('leaseUntil', '>', now)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Leases past their end go back to pending. batchId and machineCode stay, so a late report from that
 * device is still accepted for as long as nobody else takes the number.
 */
export async function releaseExpiredLeases(db: Db, taskId: number, now: number): Promise<number> {
  const locking = dialectOf(db) === 'postgres';
  const result = await db
    .updateTable('sync_task_number')
    .set({ state: TaskNumberState.pending, leaseUntil: null })
    .where('id', 'in', (eb) =>
      eb.selectFrom('sync_task_number')
        .select('id')
        .where('taskId', '=', taskId)
        .where('state', '=', LEASED)
        .where('leaseUntil', '<=', now)
        .$if(locking, (qb) => qb.forUpdate().skipLocked()),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type ClaimedNumber = { id: number; phone: number; carrier: number };

/** Leases up to `size` pending numbers of the task, in upload order, to one batch of one device. */
export async function claimPending(
  db: Db,
  claim: { taskId: number; size: number; batchId: string; machineCode: string; leaseUntil: number },
): Promise<ClaimedNumber[]> {
  const locking = dialectOf(db) === 'postgres';
  const rows = await db
    .updateTable('sync_task_number')
    .set({ state: TaskNumberState.leased, batchId: claim.batchId, machineCode: claim.machineCode, leaseUntil: claim.leaseUntil })
    .where('id', 'in', (eb) =>
      eb.selectFrom('sync_task_number')
        .select('id')
        .where('taskId', '=', claim.taskId)
        .where('state', '=', PENDING)
        .orderBy('id')
        .limit(claim.size)
        .$if(locking, (qb) => qb.forUpdate().skipLocked()),
    )
    .returning(['id', 'phone', 'carrier'])
    .execute();
  return rows.map((r) => ({ id: Number(r.id), phone: Number(r.phone), carrier: Number(r.carrier) })).sort((a, b) => a.id - b.id);
}

/** Whether any number of the task is still to be sent (pending or leased). */
export async function hasUnfinished(db: Db, taskId: number): Promise<boolean> {
  const row = await db
    .selectFrom('sync_task_number')
    .select('id')
    .where('taskId', '=', taskId)
    .where('state', 'in', [TaskNumberState.pending, TaskNumberState.leased])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks the task completed (2): every one of its numbers is final. */
export async function completeTask(db: Db, taskId: number, now: number): Promise<void> {
  await db.updateTable('sync_task').set({ taskStatus: TaskStatus.completed, editTime: now }).where('taskId', '=', taskId).where('taskStatus', '<>', TaskStatus.completed).execute();
}
