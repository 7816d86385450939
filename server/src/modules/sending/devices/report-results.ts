import { DeviceResultStatus, messages, shanghaiDay, type DeviceReportRequest, type DeviceReportResult } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { dialectOf } from '../../../db/dialect.ts';
import { unauthorized } from '../../../http/errors.ts';
import { forgetDevice, type DeviceIdentity } from './device-auth.ts';
import type { ReportInput } from './report-input.ts';
import { reportInOneStatement } from './report-postgres.ts';
import { reportStatementByStatement } from './report-sqlite.ts';

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
