/** Whether `error` is SQLite's "database is locked" (SQLITE_BUSY, or one of its extended codes). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && (code & 0xff) === 5;
}

/**
 * Runs `attempt` until it meets no held write lock, waiting 10 ms between tries without blocking the event
 * loop. A bench's second connection to the server's SQLite file lives in the server's own process, and
 * node:sqlite waits out a busy timeout synchronously: when the server holds the lock across awaits (its
 * 对账 job opens a transaction as it starts listening, after 10:30 Beijing time) that wait holds the event
 * loop the server needs to let go, and fails after the timeout. So such a connection sets busy_timeout 0
 * and tries again here.
 */
export async function whenUnlocked<T>(attempt: () => T | Promise<T>, tries = 3_000): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSqliteBusy(error) || tried >= tries) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
