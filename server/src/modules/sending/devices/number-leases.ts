import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type QueryCreator } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { TaskNumberState, TaskStatus } from '@huiyun/contract';
import type { Database, Queryable } from '../../../db/schema.ts';
import { compiledOnce } from '../../../db/compiled-once.ts';
import { dialectOf } from '../../../db/dialect.ts';

// Who holds which number (docs/device-protocol.md §3). A pull takes numbers two ways:
// - fresh: the task's pending numbers above its cursor (sync_task_cursor.claimedTo), in id order. The
//   claim moves the cursor past them and records the range in a sync_batch row; the number rows are
//   not written (they stay pending with no batch) until a report makes them final, so each is written
//   once. A pending number at or below the cursor belongs to the one open batch whose range holds it.
// - given back: numbers leased one by one (state leased) whose lease has ended — the unreported rest of
//   a lapsed batch (still naming that batch and device, so a late report is taken until a claim takes
//   them over) and failed numbers waiting for a retry. A claim takes them first, in id order, and
//   leases them to its batch on the row.
// `state = 1` is written as a literal where the partial indexes of migration 0004 must match (SQLite
// cannot match them through a bound parameter); likewise `state = 0` of sync_batch (migration 0007).

const LEASED = sql.lit(TaskNumberState.leased);
const PENDING = sql.lit(TaskNumberState.pending);

/** sync_batch.state. */
export const BatchState = { open: 0, reported: 1, lapsed: 2 } as const;
const OPEN = sql.lit(BatchState.open);

/**
 * SET of a batch row when `done` more of its fresh numbers became final or were given back and
 * `dropped` left it (blocked at the claim): reported once none is left. Unqualified columns on the
 * right of SET are the updated row's.
 */
export function settleBatch(done: number | Expression<number>, dropped = 0) {
  const doneNum = sql<number>`${sql.ref('doneNum')} + ${done}`;
  const size = sql<number>`${sql.ref('size')} - ${dropped}`;
  return {
    doneNum,
    size,
    state: sql<number>`case when ${doneNum} >= ${size} then ${sql.lit(BatchState.reported)} else ${sql.ref('state')} end`,
  };
}

/**
 * Numbers the device holds unreported under a live lease (they count against its cap and quota), as
 * an expression: those leased to it one by one, and the unreported rest of its open batches.
 */
export function heldByDevice<DB extends Database, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>, machineCode: string | Expression<string | null>, now: number,
) {
  const e = eb as unknown as ExpressionBuilder<Database, never>;
  const oneByOne = e
    .selectFrom('sync_task_number as held')
    .select((inner) => inner.fn.countAll<number>().as('n'))
    .where('held.machineCode', '=', machineCode)
    .where('held.state', '=', LEASED)
    .where('held.leaseUntil', '>', now);
  const inBatches = e
    .selectFrom('sync_batch as hb')
    .select(sql<number>`coalesce(sum(${sql.ref('hb.size')} - ${sql.ref('hb.doneNum')}), 0)`.as('n'))
    .where('hb.machineCode', '=', machineCode)
    .where('hb.state', '=', OPEN)
    .where('hb.leaseUntil', '>', now);
  return sql<number | string>`((${oneByOne}) + (${inBatches}))`;
}

/** A number a claim leased; `fresh` when it came from the batch's range (not leased on its row). */
export type ClaimedNumber = { id: number; phone: number; carrier: number; fresh: boolean; attempts: number };
export type Claim = {
  taskId: number; size: number; batchId: string; machineCode: string; leaseUntil: number; now: number;
  /** The device's code and its `pulls` as read when the claim was sized (see claimStatement). */
  codeId: number; pulls: number;
};

/**
 * Leases up to `size` numbers of the task to one batch of one device: numbers given back first, then
 * fresh ones, each in id order.
 * Answers null when, on PostgreSQL, another pull of the device claimed since this one read its state.
 */
export async function claimPending(db: Queryable, claim: Claim): Promise<ClaimedNumber[] | null> {
  await lapseEndedBatches(db, claim.taskId, claim.now);
  if (dialectOf(db) === 'postgres') return claimInOneStatement(db, claim);
  const givenBack = await claimGivenBack(db, claim);
  return givenBack.length < claim.size ? [...givenBack, ...(await claimFreshStatementByStatement(db, claim, claim.size - givenBack.length))] : givenBack;
}

type LapsedBatch = { batchId: string; machineCode: string; fromId: number; toId: number; leaseUntil: number };

type LapseValues = { taskId: number; now: number };

// Inserts only when the statement's snapshot has no cursor row: an INSERT … ON CONFLICT against an
// existing row would wait for the claim that holds that row's latest version to commit.
const ensureCursor = (qc: QueryCreator<Database>, v: LapseValues) => qc
  .insertInto('sync_task_cursor')
  .columns(['taskId'])
  .expression(qc
    .selectNoFrom((eb) => eb.val(v.taskId).as('taskId'))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('sync_task_cursor as existing').select('existing.taskId').where('existing.taskId', '=', v.taskId)))))
  .onConflict((oc) => oc.column('taskId').doNothing());

const endLeases = (qc: QueryCreator<Database>, v: LapseValues) => qc
  .updateTable('sync_batch')
  .set({ state: BatchState.lapsed })
  .where('taskId', '=', v.taskId)
  .where('state', '=', OPEN)
  .where('leaseUntil', '<=', v.now)
  .returning(['batchId', 'machineCode', 'fromId', 'toId', 'leaseUntil']);

/**
 * PostgreSQL, every pull: the cursor made sure of, and whether any open batch of the task has a lease
 * that ended — one round trip that writes nothing in the usual case (no batch ended).
 */
const lapseCheckStatement = compiledOnce((db, v: LapseValues) => db
  .with('ensured', (qc) => ensureCursor(qc as never, v).returning('taskId'))
  .selectNoFrom((eb) => eb.exists(eb
    .selectFrom('sync_batch')
    .select('batchId')
    .where('taskId', '=', v.taskId)
    .where('state', '=', OPEN)
    .where('leaseUntil', '<=', v.now)).as('ended')));

/**
 * Fault injection for the crash-window test: runs between the lapse of the batches and
 * the give-back of their numbers. Set only by tests.
 */
export const leaseFaults: { afterLapse?: () => void } = {};

/**
 * Makes sure the task has its claim cursor, and ends its open batches whose lease has passed: their
 * unreported fresh numbers become leased one by one to the same batch and device with the ended lease
 * (given back), for the claim that follows.
 *
 * The lapse and the give-back commit together or not at all (the lapse used to commit on
 * its own, and numbers of a process that died before the give-back stayed pending with no batch below
 * the cursor, never handed out again, the task never completed). On SQLite the pull's transaction holds
 * both; on PostgreSQL a transaction of their own, opened only when a batch ended (rare), so the pull's
 * usual path stays one statement. The give-back is one UPDATE per batch with its explicit id range
 * (read from the index; one `UPDATE … FROM` the lapsed batches had the planner scan the task's pending
 * numbers, docs/performance.md).
 */
async function lapseEndedBatches(db: Queryable, taskId: number, now: number): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    const [row] = await lapseCheckStatement(db, { taskId, now });
    if (!row.ended) return;
  } else {
    await ensureCursor(db, { taskId, now }).execute();
  }
  const lapseAndGiveBack = async (trx: Queryable) => {
    const lapsed: LapsedBatch[] = await endLeases(trx, { taskId, now }).execute();
    if (lapsed.length > 0) leaseFaults.afterLapse?.();
    for (const batch of lapsed) {
      await trx
        .updateTable('sync_task_number')
        .set({ state: TaskNumberState.leased, batchId: batch.batchId, machineCode: batch.machineCode, leaseUntil: batch.leaseUntil })
        .where('taskId', '=', taskId)
        .where('state', '=', PENDING)
        .where('id', '>=', Number(batch.fromId))
        .where('id', '<=', Number(batch.toId))
        .where('batchId', 'is', null)
        .execute();
    }
  };
  await (db.isTransaction ? lapseAndGiveBack(db) : db.transaction().execute(lapseAndGiveBack));
}

const toClaimed = (rows: ClaimedRow[], fresh: boolean): ClaimedNumber[] =>
  rows.map((r) => ({ id: Number(r.id), phone: Number(r.phone), carrier: Number(r.carrier), fresh, attempts: Number(r.attempts) })).sort((a, b) => a.id - b.id);

/** The task's numbers given back (leased, lease ended), in id order. */
function givenBackNumbers(db: QueryCreator<Database>, claim: Claim) {
  return db
    .selectFrom('sync_task_number as g')
    .select('g.id')
    .where('g.taskId', '=', claim.taskId)
    .where('g.state', '=', LEASED)
    .where('g.leaseUntil', '<=', claim.now)
    .orderBy('g.id')
    .limit(claim.size);
}

/** SQLite: numbers given back, leased on their rows to this batch. */
async function claimGivenBack(db: Queryable, claim: Claim): Promise<ClaimedNumber[]> {
  const rows = await db
    .with('chosen', (qc) => givenBackNumbers(qc as never, claim))
    // Not aliased: SQLite's RETURNING cannot name the updated table by an alias.
    .updateTable('sync_task_number')
    .set({ batchId: claim.batchId, machineCode: claim.machineCode, leaseUntil: claim.leaseUntil })
    .where('sync_task_number.id', 'in', (eb) => eb.selectFrom('chosen').select('chosen.id'))
    .returning(['sync_task_number.id', 'sync_task_number.phone', 'sync_task_number.carrier', 'sync_task_number.attempts'])
    .execute();
  return toClaimed(rows, false);
}

/** The task's next `size` pending numbers above `above`, in id order. */
function freshNumbers(db: QueryCreator<Database>, claim: Claim, size: number | Expression<number>, above: number | Expression<number>) {
  return db
    .selectFrom('sync_task_number as n')
    .select(['n.id', 'n.phone', 'n.carrier', 'n.attempts'])
    .where('n.taskId', '=', claim.taskId)
    .where('n.state', '=', PENDING)
    .where('n.id', '>', above)
    .orderBy('n.id')
    .limit(size);
}

/** SQLite (one connection, one writer): the fresh claim as plain statements. */
async function claimFreshStatementByStatement(db: Queryable, claim: Claim, size: number): Promise<ClaimedNumber[]> {
  const cursor = await db.selectFrom('sync_task_cursor').select('claimedTo').where('taskId', '=', claim.taskId).executeTakeFirstOrThrow();
  const rows = toClaimed(await freshNumbers(db, claim, size, Number(cursor.claimedTo)).execute(), true);
  if (rows.length === 0) return rows;
  const toId = rows[rows.length - 1].id;
  await db.updateTable('sync_task_cursor').set({ claimedTo: toId }).where('taskId', '=', claim.taskId).execute();
  await db.insertInto('sync_batch').values({
    batchId: claim.batchId, taskId: claim.taskId, machineCode: claim.machineCode, fromId: rows[0].id, toId, size: rows.length,
    leaseUntil: claim.leaseUntil, state: BatchState.open, addTime: claim.now,
  }).execute();
  return rows;
}

type ClaimRow = { guarded: boolean; givenBack: ClaimedRow[]; fresh: ClaimedRow[] };
type ClaimedRow = { id: number; phone: number; carrier: number; attempts: number };

/** Within the claim statement, where its CTE `guard` is a table: whether the guard's update took a row. */
function guardTook() {
  const eb = expressionBuilder<{ guard: { id: number } }, never>();
  return eb.exists(eb.selectFrom('guard').select('guard.id'));
}

/**
 * PostgreSQL: the whole claim as ONE statement that commits on its own, so the task's cursor row,
 * which claims of a task take turns on, is locked for this statement and its commit only — not for
 * round trips to the server. In order:
 * - guard: the device's `pulls` still has the value the pull sized this claim with, and goes up by
 *   one. A pull of the same device that claimed in between changed it (the update re-reads the row's
 *   latest version), so two pulls at once cannot both take a batch sized for one: this one claims
 *   nothing and the pull reads the device's state again.
 * - numbers given back, with SKIP LOCKED (other pulls may be taking them), leased on their rows;
 * - the cursor, locked (FOR UPDATE reads its latest committed value); the fresh numbers above it —
 *   untouched since their upload, so the statement's snapshot is good for them; the cursor moved past
 *   them; the batch row with their range. Nothing else: the cursor is held until this commits, so the
 *   do-not-contact check comes after it (pull-batch.ts).
 */
const claimStatement = compiledOnce<Claim, ClaimRow>((db, claim) => {
  const guarded = guardTook();
  return db
    .with('guard', (qc) => qc
      .updateTable('sync_auth_code')
      .set((eb) => ({ pulls: eb('pulls', '+', 1) }))
      .where('id', '=', claim.codeId)
      .where('pulls', '=', claim.pulls)
      .returning('id'))
    .with('chosen', (qc) => givenBackNumbers(qc as never, claim).where(guarded).forUpdate().skipLocked())
    .with('taken', (qc) => qc
      .updateTable('sync_task_number as n')
      .from('chosen')
      .set({ batchId: claim.batchId, machineCode: claim.machineCode, leaseUntil: claim.leaseUntil })
      .whereRef('n.id', '=', 'chosen.id')
      .returning(['n.id', 'n.phone', 'n.carrier', 'n.attempts']))
    .with('cursor', (qc) => qc.selectFrom('sync_task_cursor').select('claimedTo').where('taskId', '=', claim.taskId).where(guarded).forUpdate())
    .with('fresh', (qc) => freshNumbers(qc as never, claim, sql<number>`(${claim.size} - (select count(*) from taken))`, sql<number>`(select ${sql.ref('claimedTo')} from cursor)`))
    .with('span', (qc) => qc
      .selectFrom('fresh')
      .select([
        sql<number>`min(fresh.id)`.as('fromId'),
        sql<number>`max(fresh.id)`.as('toId'),
        sql<number>`count(*)::int`.as('size'),
      ]))
    .with('moved', (qc) => qc
      .updateTable('sync_task_cursor as c')
      .from('span')
      .set((eb) => ({ claimedTo: eb.ref('span.toId') }))
      .where('c.taskId', '=', claim.taskId)
      .where('span.toId', 'is not', null)
      .returning('c.taskId'))
    .with('recorded', (qc) => qc
      .insertInto('sync_batch')
      .columns(['batchId', 'taskId', 'machineCode', 'fromId', 'toId', 'size', 'leaseUntil', 'state', 'addTime'])
      .expression((eb) => eb
        .selectFrom('span')
        .select((inner) => [
          inner.val(claim.batchId).as('batchId'), inner.val(claim.taskId).as('taskId'), inner.val(claim.machineCode).as('machineCode'),
          'span.fromId', 'span.toId', 'span.size', inner.val(claim.leaseUntil).as('leaseUntil'), inner.val(BatchState.open).as('state'),
          inner.val(claim.now).as('addTime'),
        ])
        .where('span.toId', 'is not', null))
      .returning('sync_batch.batchId'))
    .selectNoFrom((eb) => [
      guarded.as('guarded'),
      jsonArrayFrom(eb.selectFrom('taken').select(['taken.id', 'taken.phone', 'taken.carrier', 'taken.attempts'])).as('givenBack'),
      jsonArrayFrom(eb.selectFrom('fresh').select(['fresh.id', 'fresh.phone', 'fresh.carrier', 'fresh.attempts'])).as('fresh'),
    ]);
});

async function claimInOneStatement(db: Queryable, claim: Claim): Promise<ClaimedNumber[] | null> {
  const [row] = await claimStatement(db, claim);
  return row.guarded ? [...toClaimed(row.givenBack, false), ...toClaimed(row.fresh, true)] : null;
}

/** Marks the task completed (2): every one of its numbers is final. Answers whether this call did it. */
export async function completeTask(db: Queryable, taskId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('sync_task')
    .set({ taskStatus: TaskStatus.completed, editTime: now })
    .where('taskId', '=', taskId)
    .where('taskStatus', '<>', TaskStatus.completed)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
