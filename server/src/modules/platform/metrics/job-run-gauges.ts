import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import { lastJobRuns, type JobRun } from '../../../db/job-runs.ts';
import type { Database } from '../../../db/schema.ts';
import { readOncePerScrape } from './read-once-per-scrape.ts';

// The background jobs' last runs (db/job-runs.ts) as gauges by job: when the last run started, how long it
// took, whether it went through, and when one last failed — an alert on `time() - …_start_seconds` catches
// a job that stopped running, one on `…_ok == 0` a job that fails.

export function jobRunGauges(db: Kysely<Database>, registry: Registry): void {
  const runs = readOncePerScrape(() => lastJobRuns(db));
  const gauge = (name: string, help: string, value: (run: JobRun) => number | null) => new Gauge({
    name, help, labelNames: ['job'] as const, registers: [registry],
    async collect() {
      this.reset();
      for (const run of await runs()) {
        const v = value(run);
        if (v !== null) this.set({ job: run.job }, v);
      }
    },
  });
  gauge('huiyun_job_last_run_start_seconds', 'When the last run of the background job started (Unix time)', (run) => run.startTime / 1000);
  gauge('huiyun_job_last_run_duration_seconds', 'How long the last run of the background job took', (run) => run.durationMs / 1000);
  gauge('huiyun_job_last_run_ok', 'Whether the last run of the background job went through (1) or failed (0)', (run) => (run.ok ? 1 : 0));
  gauge('huiyun_job_last_failure_seconds', 'When a run of the background job last failed (Unix time)', (run) => (run.failTime === null ? null : run.failTime / 1000));
}
