import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import { TaskNumberState, TaskStatus } from '@huiyun/contract';
import type { Database } from '../../db/schema.ts';
import { dialectOf } from '../../db/dialect.ts';

// The number-row state changes of the engine. `state = 1` is written as a literal where the partial
// indexes of migration 0004 must match (SQLite cannot match them through a bound parameter). On
// PostgreSQL the claims take row locks with SKIP LOCKED, so devices pulling at the same time never
// wait for each other nor take the same number; on SQLite one connection runs one transaction at a
// time, which gives the same guarantee.

type Db = Kysely<Database> | Transaction<Database>;
const LEASED = sql.lit(TaskNumberState.leased);
const PENDING = sql.lit(TaskNumberState.pending);

/** Numbers the device holds unreported under a live lease (count against its cap and quota), as a subquery. */
export function heldByDevice<DB extends Database, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, machineCode: string, now: number) {
  return (eb as unknown as ExpressionBuilder<Database, never>)
    .selectFrom('sync_task_number as held')
    .select((inner) => inner.fn.countAll<number | string>().as('n'))
    .where('held.machineCode', '=', machineCode)
    .where('held.state', '=', LEASED)
    .where('held.leaseUntil', '>', now);
}

export type ClaimedNumber = { id: number; phone: number; carrier: number; blocked: boolean };
export type Claim = { taskId: number; deptId: number | null; size: number; batchId: string; machineCode: string; leaseUntil: number; now: number };

/**
 * Where each task's claims start looking for pending numbers, per server instance. PostgreSQL keeps
 * the index entries of claimed numbers' old row versions until VACUUM, so a claim that starts at the
 * task's first id walks over all of them (5 ms a claim at 900,000 of 1,000,000 numbers, measured; see
 * docs/performance.md). A hint only: a number below it may be pending again (a retry, a claim rolled
 * back, another instance), and a claim that comes back short looks from the start.
 */
export class ClaimFloors {
  readonly #floors = new Map<number, number>();

  of(taskId: number): number {
    return this.#floors.get(taskId) ?? 0;
  }

  raise(taskId: number, id: number): void {
    if (id > this.of(taskId)) this.#floors.set(taskId, id);
  }
}

/**
 * Leases up to `size` numbers of the task to one batch of one device, in upload order among those
 * pending and those whose lease has ended (their device kept them past the lease; a late report for
 * such a number is taken for as long as no claim has taken it over); pending numbers below the task's
 * floor (retries) come when those above it run out. Each comes with whether it is on the company's
 * do-not-contact list now.
 */
export async function claimPending(db: Db, claim: Claim, floors: ClaimFloors): Promise<ClaimedNumber[]> {
  const floor = floors.of(claim.taskId);
  let rows = await claimStatement(db, claim, claim.size, floor);
  if (rows.length < claim.size && floor > 0) rows = [...rows, ...(await claimStatement(db, claim, claim.size - rows.length, 0))];
  if (rows.length > 0) floors.raise(claim.taskId, Math.max(...rows.map((r) => r.id)));
  return rows.sort((a, b) => a.id - b.id);
}

/** One statement on both databases: the expired and the pending candidates, each ordered and limited, then the first `size` of both. */
async function claimStatement(db: Db, claim: Claim, size: number, floor: number): Promise<ClaimedNumber[]> {
  const locking = dialectOf(db) === 'postgres';
  const candidates = (state: typeof PENDING | typeof LEASED) => db
    .selectFrom('sync_task_number as p')
    .select('p.id')
    .where('p.taskId', '=', claim.taskId)
    .where('p.state', '=', state)
    .$if(state === LEASED, (qb) => qb.where('p.leaseUntil', '<=', claim.now))
    .$if(state === PENDING && floor > 0, (qb) => qb.where('p.id', '>', floor))
    .orderBy('p.id')
    .limit(size)
    .$if(locking, (qb) => qb.forUpdate().skipLocked());
  const rows = await db
    .with('expired', () => candidates(LEASED))
    .with('fresh', () => candidates(PENDING))
    .with('chosen', (qc) => qc
      .selectFrom((inner) => inner.selectFrom('expired').select('expired.id').unionAll(inner.selectFrom('fresh').select('fresh.id')).as('both'))
      .select('both.id')
      .orderBy('both.id')
      .limit(size))
    // Not aliased: SQLite's RETURNING cannot name the updated table by an alias.
    .updateTable('sync_task_number')
    .set({ state: TaskNumberState.leased, batchId: claim.batchId, machineCode: claim.machineCode, leaseUntil: claim.leaseUntil })
    .where('sync_task_number.id', 'in', (eb) => eb.selectFrom('chosen').select('chosen.id'))
    .returning((eb) => [
      'sync_task_number.id', 'sync_task_number.phone', 'sync_task_number.carrier',
      eb.exists(eb.selectFrom('sync_blacklist as b').select('b.phone').where('b.deptId', '=', claim.deptId ?? -1).whereRef('b.phone', '=', 'sync_task_number.phone')).as('blocked'),
    ])
    .execute();
  return rows.map((r) => ({ id: Number(r.id), phone: Number(r.phone), carrier: Number(r.carrier), blocked: Boolean(r.blocked) }));
}

/** Marks the task completed (2): every one of its numbers is final. Answers whether this call did it. */
export async function completeTask(db: Db, taskId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('sync_task')
    .set({ taskStatus: TaskStatus.completed, editTime: now })
    .where('taskId', '=', taskId)
    .where('taskStatus', '<>', TaskStatus.completed)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
