import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { timedJobRun } from './job-runs.ts';
import { runPeriodically } from './periodic.ts';

// Log retention: 操作日志 and 登录日志 grow by every click and every login, so rows older than
// LOG_RETENTION_DAYS go. They are deleted oldest first in small batches read off the time index
// (migration 0010), each batch its own short statement, with a pause between batches: writers of new
// log rows (and everything else on SQLite's one writer) never wait behind a long delete. Nothing but
// those two tables is touched. An operator who wants to keep old entries exports them first
// (导出 of either screen, with a date range) — the sweep runs hourly and deletes only past the setting.

const logTables = [
  { table: 'sys_oper_log', key: 'operId', time: 'operTime' },
  { table: 'sys_login_log', key: 'infoId', time: 'loginTime' },
] as const;

export type SweepOptions = {
  /** Rows whose time is before this (epoch ms) go. */
  before: number;
  /** Rows a statement deletes at most. */
  batchSize?: number;
  /** Between two batches (default: a 20 ms pause). */
  pause?: () => Promise<void>;
  /** Asked before each batch: a stopping server ends the sweep there. */
  stopped?: () => boolean;
};

/** Deletes the log rows older than `before`, batch by batch; answers how many went from each table. */
export async function sweepExpiredLogs(db: Kysely<Database>, options: SweepOptions): Promise<Record<(typeof logTables)[number]['table'], number>> {
  const batchSize = options.batchSize ?? 1_000;
  const pause = options.pause ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 20)));
  const deleted = { sys_oper_log: 0, sys_login_log: 0 };
  for (const { table, key, time } of logTables) {
    while (!options.stopped?.()) {
      const oldest = sql`select ${sql.ref(key)} from ${sql.table(table)} where ${sql.ref(time)} < ${options.before} order by ${sql.ref(time)} limit ${batchSize}`;
      const result = await sql`delete from ${sql.table(table)} where ${sql.ref(key)} in (${oldest})`.execute(db);
      const n = Number(result.numAffectedRows ?? 0);
      deleted[table] += n;
      if (n < batchSize) break;
      await pause();
    }
  }
  return deleted;
}

export type LogRetention = { stop: () => Promise<void> };

/**
 * Sweeps now and then every `everyMs` (default an hour), keeping `days` days of logs. `stop` ends the
 * schedule and waits for a sweep under way to end at its next batch. A failed sweep is reported to
 * `onError` and tried again at the next turn.
 */
export function startLogRetention(
  db: Kysely<Database>,
  options: { days: number; everyMs?: number; now?: () => number; onSwept?: (deleted: Record<string, number>) => void; onError?: (error: unknown) => void },
): LogRetention {
  const now = options.now ?? Date.now;
  let stopped = false;
  const schedule = runPeriodically(
    () => timedJobRun(db, 'logRetention', now, () => sweepExpiredLogs(db, { before: now() - options.days * 86_400_000, stopped: () => stopped }))
      .then((deleted) => options.onSwept?.(deleted), (error) => options.onError?.(error)),
    options.everyMs ?? 3_600_000,
  );
  return {
    stop: async () => {
      stopped = true;
      await schedule.stop();
    },
  };
}
