import { sql, type ExpressionBuilder } from 'kysely';
import { DeviceResultStatus, messages, shanghaiDay, TaskNumberState, type DeviceReportRequest, type DeviceReportResult } from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { dialectOf } from '../../db/dialect.ts';
import { unauthorized } from '../../http/errors.ts';
import { forgetDevice, type DeviceIdentity } from './device-auth.ts';
import { reportInOneStatement } from './report-postgres.ts';
import { reportStatementByStatement } from './report-sqlite.ts';

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
export function ownedBy(eb: ExpressionBuilder<any, any>, input: Pick<ReportInput, 'batchId' | 'machineCode'>, numbers: 'n' | 'sync_task_number', batches: 'batch' | 'sync_batch') {
  const column = (name: string) => sql.ref(`${numbers}.${name}`);
  return eb.or([
    eb.and([
      // Literals: `in ($1, $2)` would read as a variable list and keep the report from being prepared (db/pg-prepared.ts).
      eb(column('state'), 'in', [sql.lit(TaskNumberState.pending), sql.lit(TaskNumberState.leased)]),
      eb(column('batchId'), '=', input.batchId),
      eb(column('machineCode'), '=', input.machineCode),
    ]),
    eb.and([
      eb(column('state'), '=', sql.lit(TaskNumberState.pending)),
      eb(column('batchId'), 'is', null),
      eb.exists(eb
        .selectFrom(`${batches} as range`)
        .select('range.taskId')
        .where('range.batchId', '=', input.batchId)
        .where('range.machineCode', '=', input.machineCode)
        .where('range.taskId', '=', column('taskId'))
        .where('range.fromId', '<=', column('id'))
        .where('range.toId', '>=', column('id'))),
    ]),
  ]);
}

/**
 * One report (docs/device-protocol.md §4), atomic with everything it moves: number states, the task's
 * and the owner's counters, the code's quota, the per-day counts, completion. A result applies only
 * while its number is still this batch's and open, so a repeat changes nothing. A number that failed
 * with tries left is given back (claimed again first) and loses its batch; a final one records batch and device.
 */
export async function reportResults(ctx: AppContext, device: DeviceIdentity, report: DeviceReportRequest): Promise<DeviceReportResult> {
  const now = ctx.now();
  const seen = new Set<number>();
  const results: ReportInput['results'] = [];
  for (const r of report.results) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    results.push({ id: r.id, sent: r.status === DeviceResultStatus.sent, reason: r.status === DeviceResultStatus.sent ? null : r.reason || null });
  }
  const input: ReportInput = {
    batchId: report.batchId, tokenHash: device.tokenHash, machineCode: device.machineCode, codeId: device.authCodeId, results, now, day: shanghaiDay(now), maxAttempts: ctx.config.device.maxAttempts,
  };
  const outcome = dialectOf(ctx.db) === 'postgres' ? await reportInOneStatement(ctx.db, input) : await reportStatementByStatement(ctx.db, input);
  if (!outcome.codeOk || outcome.ownerLocked) {
    forgetDevice(ctx, device);
    throw unauthorized(outcome.codeOk ? messages.login.locked : messages.device.tokenInvalid);
  }
  const { sent, failed, retrying, taskCompleted } = outcome;
  return { sent, failed, retrying, ignored: results.length - sent - failed - retrying, taskCompleted };
}
