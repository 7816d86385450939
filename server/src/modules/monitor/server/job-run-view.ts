import { fill, formatDateTime, messages, type JobRunView } from '@huiyun/contract';
import type { JobRun } from '../../../db/job-runs.ts';

const m = messages.systemMonitor;

/** A job's last run as 监控查询 shows it: its times formatted, what it did in words (its counts in the job's sentence). */
export function jobRunView(run: JobRun): JobRunView {
  return {
    job: run.job, startTime: formatDateTime(run.startTime), durationMs: run.durationMs, ok: run.ok,
    summary: run.ok ? fill(m.jobSummaries[run.job], run.counts) : '', error: run.error, pid: run.pid,
    failTime: run.failTime === null ? null : formatDateTime(run.failTime), failError: run.failError,
  };
}
