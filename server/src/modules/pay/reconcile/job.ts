import { sql } from 'kysely';
import { ReconcileResult, shanghaiDay } from '@huiyun/contract';
import { timedJobRun } from '../../../db/job-runs.ts';
import { DAY_MS } from './platform.ts';
import { reconcileDay, type ReconcileDeps } from './run.ts';
import { reconcileDb } from './tables.ts';

// The daily 对账 (PAY_RECONCILE_AT, default 10:30 Asia/Shanghai — the gateways publish a day's bill by
// 10:00): yesterday's run of every 支付配置. On start, a server past today's time runs yesterday's too, so a
// restart over the hour misses nothing. Several instances each try: a run's row is claimed once
// (run.ts), and the job never repeats a run that finished — only one that failed or died.

const SHANGHAI_OFFSET_MS = 8 * 3_600_000;
/** 操作人 of the job's runs. */
export const JOB_RUNNER = 'system';

/** HH:mm as ms after a midnight, and `now` as ms after its Beijing midnight (a fixed +8 h, whatever the server's TZ). */
function clock(at: string, now: number) {
  const [hours, minutes] = at.split(':').map(Number) as [number, number];
  return { target: (hours * 60 + minutes) * 60_000, sinceMidnight: (now + SHANGHAI_OFFSET_MS) % DAY_MS };
}

/** Milliseconds from `now` to the next HH:mm on a Beijing clock. */
export function msUntilNext(at: string, now: number): number {
  const { target, sinceMidnight } = clock(at, now);
  return (target - sinceMidnight + DAY_MS) % DAY_MS || DAY_MS;
}

/** Whether today's HH:mm (Beijing) has come. */
export function pastTodaysTime(at: string, now: number): boolean {
  const { target, sinceMidnight } = clock(at, now);
  return sinceMidnight >= target;
}

export const yesterdayOf = (now: number) => shanghaiDay(now - DAY_MS);

const failedRuns = async (deps: ReconcileDeps, day: string) => Number((await reconcileDb(deps.db).selectFrom('pay_reconcile_run').select(sql<string | number>`count(*)`.as('n'))
  .where('day', '=', day).where('result', '=', ReconcileResult.failed).executeTakeFirst())?.n ?? 0);

export function startReconcileJob(deps: ReconcileDeps, at: string, onRun?: (answer: Awaited<ReturnType<typeof reconcileDay>> & { day: string }) => void) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    const day = yesterdayOf(deps.now());
    // its last run, for 监控查询: what it did, and how many of the day's runs stand failed after it
    running = timedJobRun(deps.db, 'reconcile', deps.now, async () => ({ ...(await reconcileDay(deps, { day, by: JOB_RUNNER, mode: 'job' })), day, failed: await failedRuns(deps, day) }))
      .then((answer) => onRun?.(answer), (error) => deps.onError?.(error));
    return running;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void run().then(schedule), msUntilNext(at, deps.now()));
    timer.unref();
  };
  if (pastTodaysTime(at, deps.now())) void run().then(schedule);
  else schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
