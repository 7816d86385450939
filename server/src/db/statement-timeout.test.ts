import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDbKind } from '../test/test-database.ts';
import type { Database } from './schema.ts';
import { useTestDatabase } from '../test/use-test-database.ts';
import { connectDatabase, poolStatsOf } from './connect.ts';
import { PoolBusyError } from './connection-queue.ts';
import { isStatementTimeout, withStatementTimeout } from './statement-timeout.ts';

// The PostgreSQL pool's bounds and the statement timeout of a caller, on a real PostgreSQL (a pool of one
// connection, so every statement below shares it).

const setting = async (db: Kysely<Database>) => (await sql<{ statement_timeout: string }>`show statement_timeout`.execute(db)).rows[0]!.statement_timeout;

describe.runIf(testDbKind() === 'postgres')('a PostgreSQL connection lent with its caller\'s statement timeout (needs TEST_DATABASE_URL)', () => {
  const database = useTestDatabase({ poolSize: 1 });

  it('sets the bound for a bounded caller, resets it for the next one, and counts a statement it stopped', async () => {
    const { db } = database();
    expect(await setting(db)).toBe('0');
    expect(await withStatementTimeout(150, () => setting(db))).toBe('150ms');
    expect(await withStatementTimeout(150, () => setting(db))).toBe('150ms'); // kept: no second set
    expect(await setting(db)).toBe('0'); // a caller without a bound (a terminal call, a job) on the same connection
    const stopped = await withStatementTimeout(100, () => sql`select pg_sleep(5)`.execute(db)).catch((error: unknown) => error);
    expect(isStatementTimeout(stopped)).toBe(true);
    expect(poolStatsOf(db)!.statementTimeouts).toBe(1);
    // a statement timeout inside a transaction: rolled back, the connection serves on
    await expect(withStatementTimeout(100, () => db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await sql`select pg_sleep(5)`.execute(trx);
    }))).rejects.toSatisfy(isStatementTimeout);
    expect(poolStatsOf(db)!.statementTimeouts).toBe(2);
    expect(await setting(db)).toBe('0');
    // a cancel that is not a timeout is not counted as one
    expect(isStatementTimeout(Object.assign(new Error('canceling statement due to user request'), { code: '57014' }))).toBe(false);
  });

  it('refuses a caller at once when maxWaiting are queued, and one that waited past the bound; counts both', async () => {
    const { url } = database();
    const db = connectDatabase({ kind: 'postgres', url: url!, poolSize: 1, poolMaxWaiting: 1, poolWaitMs: 200 });
    try {
      let release!: () => void;
      const held = db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await new Promise<void>((resolve) => (release = resolve));
      });
      while (poolStatsOf(db)!.inUse < 1 || !release) await new Promise((resolve) => setTimeout(resolve, 5));
      const waiting = sql`select 1`.execute(db).catch((error: unknown) => error);
      const refused = await sql`select 1`.execute(db).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(PoolBusyError);
      expect((refused as PoolBusyError).reason).toBe('queueFull');
      expect(poolStatsOf(db)!.waiting).toBe(1);
      const waitedOut = await waiting;
      expect(waitedOut).toBeInstanceOf(PoolBusyError);
      expect((waitedOut as PoolBusyError).reason).toBe('waitTimeout');
      release();
      await held;
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
      expect(poolStatsOf(db)).toMatchObject({ size: 1, open: 1, inUse: 0, idle: 1, waiting: 0, waits: 1, refused: { queueFull: 1, waitTimeout: 1 } });
    } finally {
      await db.destroy();
    }
  });
});
