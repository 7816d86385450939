import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionQueue, PoolBusyError } from './connection-queue.ts';
import { connectDatabase } from './connect.ts';

const turns = () => new Promise<void>((resolve) => setImmediate(resolve)); // every pending microtask has run

describe('ConnectionQueue', () => {
  it('lends the connection in the order asked, and a release wakes the next caller alone', async () => {
    const queue = new ConnectionQueue();
    await queue.acquire();
    const order: number[] = [];
    let resumed = 0;
    const callers = Array.from({ length: 100 }, (_, k) => queue.acquire().then(() => {
      resumed += 1;
      order.push(k);
    }));
    await turns();
    expect(queue.waiting).toBe(100);

    queue.release();
    await turns();
    expect(resumed).toBe(1); // Kysely's own mutex resumes all 100 here, and 99 go back to waiting
    expect(queue.waiting).toBe(99);

    for (let k = 1; k < 100; k += 1) queue.release();
    await Promise.all(callers);
    expect(order).toEqual(Array.from({ length: 100 }, (_, k) => k));
    expect(resumed).toBe(100);
  });

  it('hands over without a gap: a newcomer queues behind the woken caller', async () => {
    const queue = new ConnectionQueue();
    await queue.acquire();
    const got: string[] = [];
    const waiter = queue.acquire().then(() => got.push('waiter'));
    queue.release();
    const newcomer = queue.acquire().then(() => got.push('newcomer'));
    await waiter;
    await turns();
    expect(got).toEqual(['waiter']);
    queue.release();
    await newcomer;
    expect(got).toEqual(['waiter', 'newcomer']);
    queue.release();
    await queue.acquire(); // free again: at once
  });

  it('keeps handing over while callers keep coming (the queue never empties)', async () => {
    const queue = new ConnectionQueue();
    await queue.acquire();
    let served = 0;
    const caller = (): Promise<void> => queue.acquire().then(() => {
      served += 1;
      if (served < 10_000) void caller(); // the next one asks before this one lets go
      queue.release();
    });
    void caller();
    queue.release();
    while (served < 10_000) await turns();
    expect(queue.waiting).toBe(0);
    await queue.acquire();
  });
});

describe('ConnectionQueue with bounds', () => {
  const refusal = (promise: Promise<void>) => promise.then(() => 'lent', (error: unknown) => (error instanceof PoolBusyError ? error.reason : String(error)));

  it('lends `size` connections at once, queues up to maxWaiting, refuses one more at once, and counts', async () => {
    const queue = new ConnectionQueue({ size: 2, maxWaiting: 2 });
    await queue.acquire();
    await queue.acquire();
    expect(queue.lent).toBe(2);
    const waiters = [refusal(queue.acquire()), refusal(queue.acquire())];
    expect(await refusal(queue.acquire())).toBe('queueFull');
    expect(queue.waiting).toBe(2);
    queue.release();
    queue.release();
    expect(await Promise.all(waiters)).toEqual(['lent', 'lent']);
    expect(queue.counts).toEqual({ waits: 2, refused: { queueFull: 1, waitTimeout: 0 } });
    queue.release();
    queue.release();
    expect(queue.lent).toBe(0);
  });

  it('refuses a caller that waited past waitMs, and hands the next release to the one behind it', async () => {
    vi.useFakeTimers();
    const queue = new ConnectionQueue({ size: 1, waitMs: 30 });
    await queue.acquire();
    const early = refusal(queue.acquire());
    vi.advanceTimersByTime(10);
    const late = refusal(queue.acquire());
    vi.advanceTimersByTime(20);
    vi.useRealTimers();
    expect(await early).toBe('waitTimeout');
    expect(queue.waiting).toBe(1);
    queue.release(); // to `late`, not to the one that gave up
    expect(await late).toBe('lent');
    expect(queue.lent).toBe(1);
    expect(queue.counts).toEqual({ waits: 2, refused: { queueFull: 0, waitTimeout: 1 } });
    queue.release();
    expect(queue.lent).toBe(0);
  });
});

describe('the SQLite connection lent in turn', () => {
  const db = connectDatabase({ kind: 'sqlite', file: ':memory:' });
  afterEach(async () => {
    await sql`drop table if exists t`.execute(db);
  });
  afterAll(() => db.destroy());

  it('keeps a transaction to itself while many queries wait, and answers each of them', async () => {
    await sql`create table t (n integer)`.execute(db);
    const seenInside: number[] = [];
    const transaction = db.transaction().execute(async (trx) => {
      await sql`insert into t (n) values (1)`.execute(trx);
      await turns(); // the queries below are queued meanwhile
      seenInside.push(Number((await sql<{ c: number }>`select count(*) as c from t`.execute(trx)).rows[0]!.c));
      await sql`insert into t (n) values (2)`.execute(trx);
    });
    const counts = Array.from({ length: 200 }, () => sql<{ c: number }>`select count(*) as c from t`.execute(db).then((r) => Number(r.rows[0]!.c)));
    await transaction;
    // No query ran inside the transaction: each waited for its commit and saw both rows.
    expect(seenInside).toEqual([1]);
    expect(new Set(await Promise.all(counts))).toEqual(new Set([2]));
  });

  it('lets the next caller in after a statement fails', async () => {
    await expect(sql`select * from no_such_table`.execute(db)).rejects.toThrow(/no such table/);
    await expect(db.transaction().execute(async (trx) => {
      await sql`select * from no_such_table`.execute(trx);
    })).rejects.toThrow(/no such table/);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });
});
