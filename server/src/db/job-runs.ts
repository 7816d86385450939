import type { Kysely } from 'kysely';
import type { JobName } from '@huiyun/contract';
import type { Database } from './schema.ts';

// The background jobs' last runs (migration 0033), for 监控查询 and /metrics: when a run started, how long it
// took, what it did (its counts) or why it failed, and which process ran it. Written by the process that ran
// it, read by any (the job may run in another process or instance). Recording never fails a job: a database
// away fails the run itself, and the job's own error handling says so.

/** The jobs recorded, in the order they are shown. */
export const JOB_NAMES: readonly JobName[] = ['orderSweep', 'logRetention', 'reconcile'];
export type JobCounts = Record<string, number | string>;

export interface JobRunTable {
  job: string;
  startTime: number;
  durationMs: number;
  ok: number;
  counts: string;
  error: string;
  pid: number;
  failTime: number | null;
  failError: string;
}

const jobRunDb = (db: Kysely<Database>) => db.$extendTables<{ sys_job_run: JobRunTable }>();

export type JobRun = { job: JobName; startTime: number; durationMs: number; ok: boolean; counts: JobCounts; error: string; pid: number; failTime: number | null; failError: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 255);

/** Writes a run of `job` (the one row of the job, replaced). */
export async function recordJobRun(db: Kysely<Database>, job: JobName, run: { startTime: number; durationMs: number; counts?: JobCounts; error?: unknown }): Promise<void> {
  const failed = run.error !== undefined;
  const row = {
    startTime: run.startTime, durationMs: Math.round(run.durationMs), ok: failed ? 0 : 1, counts: JSON.stringify(run.counts ?? {}),
    error: failed ? messageOf(run.error) : '', pid: process.pid,
  };
  const failure = failed ? { failTime: run.startTime, failError: row.error } : {};
  await jobRunDb(db).insertInto('sys_job_run').values({ job, ...row, failTime: failed ? run.startTime : null, failError: row.error })
    .onConflict((oc) => oc.column('job').doUpdateSet({ ...row, ...failure })).execute();
}

/** Runs `task` and records the run (its counts, or its error, which is thrown on). */
export async function timedJobRun<T extends JobCounts>(db: Kysely<Database>, job: JobName, now: () => number, task: () => Promise<T>): Promise<T> {
  const startTime = now();
  const started = performance.now();
  const record = (outcome: { counts?: JobCounts; error?: unknown }) =>
    recordJobRun(db, job, { startTime, durationMs: performance.now() - started, ...outcome }).catch(() => {});
  try {
    const counts = await task();
    await record({ counts });
    return counts;
  } catch (error) {
    await record({ error });
    throw error;
  }
}

/** The last run of each job that has run, in JOB_NAMES order. */
export async function lastJobRuns(db: Kysely<Database>): Promise<JobRun[]> {
  const rows = await jobRunDb(db).selectFrom('sys_job_run').selectAll().execute();
  const known = rows.filter((row): row is JobRunTable & { job: JobName } => (JOB_NAMES as readonly string[]).includes(row.job));
  return known.sort((a, b) => JOB_NAMES.indexOf(a.job) - JOB_NAMES.indexOf(b.job)).map((row) => ({
    job: row.job, startTime: Number(row.startTime), durationMs: row.durationMs, ok: row.ok === 1, counts: row.counts ? (JSON.parse(row.counts) as JobCounts) : {},
    error: row.error, pid: row.pid, failTime: row.failTime === null ? null : Number(row.failTime), failError: row.failError,
  }));
}
