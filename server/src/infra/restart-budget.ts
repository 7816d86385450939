/**
 * How often the SERVER_WORKERS primary may replace a server process that ended: at most `limit` times
 * in `windowMs`. A process that keeps dying (a database gone, a bug on every request) is then not
 * restarted in a tight loop; the primary stops and its own supervisor (systemd, the container runtime)
 * decides, as a process manager would.
 */
export function restartBudget(limit = 5, windowMs = 60_000) {
  const restarts: number[] = [];
  return {
    /** Whether one more restart at `now` is within the budget (and counts it if so). */
    allow(now: number): boolean {
      while (restarts.length > 0 && restarts[0]! <= now - windowMs) restarts.shift();
      if (restarts.length >= limit) return false;
      restarts.push(now);
      return true;
    },
  };
}
