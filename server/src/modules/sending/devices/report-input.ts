import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { TaskNumberState } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';

// What a device report is to the two statements that apply it (report-sqlite.ts, report-postgres.ts;
// report-results.ts picks one), and the rule of which number rows it may still change.

/** The batch rows as the report statements name them: the table, or PostgreSQL's locked copy `batch`. */
type BatchTables = Pick<Database, 'sync_batch'> & { batch: Database['sync_batch'] };

/** One report as both databases apply it: one result per number, the first one when a report names a number twice. */
export type ReportInput = {
  batchId: string;
  tokenHash: string;
  machineCode: string;
  codeId: number;
  results: { id: number; sent: boolean; reason: string | null }[];
  now: number;
  day: string;
  maxAttempts: number;
};

/**
 * What a report changed. Nothing changed when codeOk is false (the device's code no longer holds the
 * device or its token) or ownerLocked is true.
 */
export type ReportOutcome = { codeOk: boolean; ownerLocked: boolean; sent: number; failed: number; retrying: number; taskCompleted: boolean };

/**
 * The number rows a result of this batch may still change (docs/device-protocol.md §3): leased on the
 * row to this batch and device (given back and taken by it, or the rest of it when its lease lapsed,
 * not taken since), or still pending with no batch in this batch's fresh range. `numbers` names the
 * number table in the statement; `batches` the batch rows to look the range up in (PostgreSQL's report
 * reads the batch row it locked first).
 */
export function ownedBy<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  input: Pick<ReportInput, 'batchId' | 'machineCode'>,
  numbers: 'n' | 'sync_task_number',
  batches: 'batch' | 'sync_batch',
): Expression<SqlBool> {
  const column = <T>(name: string) => sql.ref<T>(`${numbers}.${name}`);
  return eb.or([
    eb.and([
      // Literals: `in ($1, $2)` would read as a variable list and keep the report from being prepared (db/pg-prepared.ts).
      eb(column<number>('state'), 'in', [sql.lit(TaskNumberState.pending), sql.lit(TaskNumberState.leased)]),
      eb(column<string | null>('batchId'), '=', input.batchId),
      eb(column<string | null>('machineCode'), '=', input.machineCode),
    ]),
    eb.and([
      eb(column<number>('state'), '=', sql.lit(TaskNumberState.pending)),
      eb(column<string | null>('batchId'), 'is', null),
      eb.exists(expressionBuilder<BatchTables, never>()
        .selectFrom(`${batches} as range`)
        .select('range.taskId')
        .where('range.batchId', '=', input.batchId)
        .where('range.machineCode', '=', input.machineCode)
        .where('range.taskId', '=', column<number>('taskId'))
        .where('range.fromId', '<=', column<number>('id'))
        .where('range.toId', '>=', column<number>('id'))),
    ]),
  ]);
}
