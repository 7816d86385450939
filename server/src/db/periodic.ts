/**
 * Runs `task` at once (on the next turn) and then every `everyMs`, never keeping the process alive for it.
 * `task` is given whether this is the first run and handles its own errors. `stop` ends the schedule and
 * waits for a run under way. The database's background chores (log retention, SQLite statistics) use it.
 * The order sweeper (modules/pay/orders/sweeper.ts) keeps its own timer: it does not run at start, and it skips
 * a turn while the last sweep still runs; a chore that wants either does the same, any other uses this.
 */
export function runPeriodically(task: (first: boolean) => Promise<void>, everyMs: number): { stop: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const first = setTimeout(() => { running = task(true); }, 0);
  const timer = setInterval(() => { running = task(false); }, everyMs);
  first.unref();
  timer.unref();
  return {
    stop: async () => {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
