import { sql, type Kysely } from 'kysely';
import { Carrier, LockStatus, TaskNumberState } from '@huiyun/contract';
import { compiledOnce } from '../../../db/compiled-once.ts';
import type { Database } from '../../../db/schema.ts';
import { BatchState, settleBatch } from './number-leases.ts';
import { ownedBy, type ReportInput, type ReportOutcome } from './report-input.ts';

const { leased, sent: SENT, failed: FAILED } = TaskNumberState;
const OPEN = sql.lit(BatchState.open);
const count = (condition: string) => sql<number>`(count(*) filter (where ${sql.raw(condition)}))::int`;
const total = (column: string) => sql<number>`coalesce(sum(${sql.ref(column)}), 0)::int`;

/**
 * PostgreSQL: the whole report as ONE statement (data-modifying CTEs), so it commits on its own with
 * no round trip in between. Every report of a task updates the task row (and every report of an owner
 * the owner's rows); those locks last until the commit, so reports of one task queue on them. Here a
 * report holds them only for the rest of its statement and the commit, where a transaction of several
 * statements held them across round trips to the server as well (see
 * docs/performance.md).
 *
 * Lock order, as the pull's: the device's code row, then the batch row, then its numbers, then the
 * task, then the owner (each CTE reads the one before it, which fixes the order the executor runs them
 * in; a lapse, too, locks the batch row before its numbers). The task's and the owner's rows are
 * updated by `sync_count_final` (migration 0008), whose statements read their latest committed version
 * (READ COMMITTED re-reads a row it waited for), so the counters add up across concurrent reports, and
 * the report that brings doneNum to totalNum, whichever commits last, completes the task in the same
 * update. In the function, a report that waited re-checks a one-row UPDATE, not this statement.
 */
const reportStatement = compiledOnce<ReportValues, ReportRow>((db, input) => {
  const results = sql<{ id: number; sent: boolean; reason: string | null }>`unnest(
    ${input.ids}::int[], ${input.sent}::boolean[], ${input.reasons}::text[]
  )`.as<'r'>(sql`r(id, sent, reason)`);
  // A failed number with tries left is given back (leased, lease ended, no batch or device); a final one records batch and device.
  const retry = sql<boolean>`(not r.sent and n.attempts + 1 < ${input.maxAttempts})`;
  // Typed: a parameter in a CASE branch would otherwise be read as text.
  const now = sql<number>`cast(${input.now} as bigint)`;

  return db
    // The device's code, still holding its token, of an owner not locked.
    .with('code', (qc) => qc
      .selectFrom('sync_auth_code as c')
      .innerJoin('sys_user as u', 'u.userId', 'c.authUserId')
      .select(['c.id', 'u.isLock'])
      .where('c.id', '=', input.codeId)
      .where('c.machineCode', '=', input.machineCode)
      .where('c.tokenHash', '=', input.tokenHash)
      .forUpdate('c'))
    .with('allowed', (qc) => qc.selectFrom('code').select('code.id').where('code.isLock', '<>', LockStatus.locked))
    // The batch row is locked before any number (as a lapse does), by the one-time filter below.
    .with('batch', (qc) => qc
      .selectFrom('sync_batch')
      .select(['batchId', 'machineCode', 'taskId', 'fromId', 'toId'])
      .where('batchId', '=', input.batchId)
      .where('machineCode', '=', input.machineCode)
      .where((eb) => eb.exists(eb.selectFrom('allowed').select('allowed.id')))
      .forUpdate())
    .with('changed', (qc) => qc
      .updateTable('sync_task_number as n')
      .from(results)
      .set((eb) => ({
        state: eb.case().when('r.sent', '=', true).then(SENT).when(retry).then(leased).else(FAILED).end(),
        attempts: eb.case().when('r.sent', '=', true).then(eb.ref('n.attempts')).else(sql<number>`n.attempts + 1`).end(),
        batchId: eb.case().when(retry).then(null).else(input.batchId).end(),
        machineCode: eb.case().when(retry).then(null).else(input.machineCode).end(),
        doneAt: eb.case().when(retry).then(null).else(now).end(),
        leaseUntil: eb.case().when(retry).then(now).else(null).end(),
        failReason: eb.ref('r.reason'),
      }))
      .whereRef('n.id', '=', 'r.id')
      .where(sql<boolean>`(select count(*) from batch) >= 0`)
      .where((eb) => eb.exists(eb.selectFrom('allowed').select('allowed.id')))
      .where((eb) => ownedBy(eb, input, 'n', 'batch'))
      .returning(['n.id', 'n.taskId', 'n.carrier', 'n.state']))
    .with('tally', (qc) => qc
      .selectFrom('changed')
      .select([
        'changed.taskId',
        count(`state = ${SENT}`).as('sent'),
        count(`state = ${SENT} and carrier = ${Carrier.mobile}`).as('mobile'),
        count(`state = ${SENT} and carrier = ${Carrier.unicom}`).as('unicom'),
        count(`state = ${SENT} and carrier = ${Carrier.telecom}`).as('telecom'),
        count(`state = ${SENT} and carrier not in (${Carrier.mobile}, ${Carrier.unicom}, ${Carrier.telecom})`).as('other'),
        count(`state = ${FAILED}`).as('failed'),
        count(`state = ${leased}`).as('retrying'),
      ])
      .groupBy('changed.taskId'))
    // The task's and the owner's counters, the owner's day and completion: the function of migration 0008,
    // so that a report that waited for those rows re-checks them in that function's one-row statement.
    .with('counted', (qc) => qc
      .selectFrom('tally')
      .select(sql<boolean>`sync_count_final(
        tally."taskId", tally.sent, tally.mobile, tally.unicom, tally.telecom, tally.other, tally.failed, ${now}, cast(${input.day} as varchar)
      )`.as('completed')))
    .with('sums', (qc) => qc
      .selectFrom('tally')
      .select([total('tally.sent').as('sent'), total('tally.failed').as('failed'), total('tally.retrying').as('retrying')]))
    // The device's own rows: nobody else writes them (its pulls lock the code row first, as here).
    .with('quota', (qc) => qc
      .updateTable('sync_auth_code as c')
      .from('sums')
      .set((eb) => ({ dueNum: eb('c.dueNum', '-', eb.ref('sums.sent')) }))
      .where('c.id', '=', input.codeId)
      .where('sums.sent', '>', 0)
      .returning('c.id'))
    .with('device_day', (qc) => qc
      .insertInto('sync_device_daily')
      .columns(['machineCode', 'day', 'sendCount'])
      .expression((eb) => eb.selectFrom('sums').select((inner) => [inner.val(input.machineCode).as('machineCode'), inner.val(input.day).as('day'), 'sums.sent']).where('sums.sent', '>', 0))
      .onConflict((oc) => oc.columns(['machineCode', 'day']).doUpdateSet((eb) => ({ sendCount: eb('sync_device_daily.sendCount', '+', eb.ref('excluded.sendCount')) })))
      .returning('sync_device_daily.machineCode'))
    // The batch's own count: its fresh numbers (its range) this report made final or gave back.
    .with('batch_done', (qc) => qc
      .updateTable('sync_batch as b')
      .from((eb) => eb
        .selectFrom(['changed', 'batch'])
        .select((inner) => inner.fn.countAll<number>().as('k'))
        .whereRef('changed.taskId', '=', 'batch.taskId')
        .whereRef('changed.id', '>=', 'batch.fromId')
        .whereRef('changed.id', '<=', 'batch.toId')
        .as('f'))
      .set(settleBatch(sql.ref('f.k')))
      .where('b.batchId', '=', input.batchId)
      .where('b.state', '=', OPEN)
      .where('f.k', '>', 0)
      .returning('b.batchId'))
    .selectFrom('sums')
    .select((eb) => [
      'sums.sent', 'sums.failed', 'sums.retrying',
      eb.exists(eb.selectFrom('code').select('code.id')).as('codeOk'),
      eb.exists(eb.selectFrom('code').select('code.id').where('code.isLock', '=', LockStatus.locked)).as('ownerLocked'),
      // An aggregate, so every row of `counted` is read and the function runs for each.
      eb.selectFrom('counted').select(sql<boolean>`coalesce(bool_or(counted.completed), false)`.as('c')).as('taskCompleted'),
    ]);
});

type ReportValues = Omit<ReportInput, 'results'> & { ids: number[]; sent: boolean[]; reasons: (string | null)[] };
type ReportRow = { sent: number; failed: number; retrying: number; codeOk: boolean; ownerLocked: boolean; taskCompleted: boolean };

export async function reportInOneStatement(db: Kysely<Database>, input: ReportInput): Promise<ReportOutcome> {
  const { results, ...rest } = input;
  const [row] = await reportStatement(db, { ...rest, ids: results.map((r) => r.id), sent: results.map((r) => r.sent), reasons: results.map((r) => r.reason) });
  return { codeOk: Boolean(row.codeOk), ownerLocked: Boolean(row.ownerLocked), sent: row.sent, failed: row.failed, retrying: row.retrying, taskCompleted: Boolean(row.taskCompleted) };
}
