import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seed } from '../seed.ts';
import { MemoryCounterStore, RedisCounterStore, type CounterStore } from './counter-store.ts';
import { RedisSessionStore } from './redis-session-store.ts';
import { SESSION_RECHECK_MS } from './session-memory.ts';
import { TOUCH_INTERVAL_MS, type SessionStore } from './session-store.ts';
import { SqlSessionStore } from './sql-session-store.ts';

// The same behaviour is asked of every store; the Redis ones run when TEST_REDIS_URL is set.
const redisUrl = process.env.TEST_REDIS_URL;
const prefix = `huiyun-test:${randomBytes(4).toString('hex')}:`;
let testDb: TestDatabase;
let redis: Redis | undefined;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await migrateToLatest(testDb.db);
  await seed(testDb.db, { adminPassword: 'Admin@12345', dataDir: '/tmp', log: () => {} });
  if (redisUrl) redis = new Redis(redisUrl);
});
afterAll(async () => {
  await testDb?.db.destroy();
  await testDb?.drop();
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
});

const sessionStores: [string, () => SessionStore][] = [
  ['database', () => new SqlSessionStore(testDb.db)],
  ...(redisUrl ? [['redis', () => new RedisSessionStore(redis!, prefix)] as [string, () => SessionStore]] : []),
];

describe.each(sessionStores)('%s session store', (_name, make) => {
  const session = (tokenHash: string, now: number) => ({ tokenHash, userId: 1, createdAt: now, lastSeenAt: now, idleMs: 60_000, ip: '127.0.0.1', userAgent: 'test' });

  it('resumes a live session, restarts its idle clock and forgets an idle one', async () => {
    const store = make();
    const t0 = Date.now();
    await store.create(session(`a-${_name}`, t0));
    expect((await store.resume(`a-${_name}`, t0 + 59_000))?.userId).toBe(1);
    expect(await store.resume(`a-${_name}`, t0 + 59_000 + 61_000)).toBeUndefined();
    expect(await store.resume('never-made', t0)).toBeUndefined();
  });

  it('revokes one session, or all of a user but the one kept', async () => {
    const store = make();
    const now = Date.now();
    for (const h of ['x', 'y', 'z']) await store.create(session(`${h}-${_name}`, now));
    await store.revoke(`x-${_name}`);
    expect(await store.resume(`x-${_name}`, now)).toBeUndefined();
    expect(await store.revokeUser(1, `y-${_name}`)).toBeGreaterThanOrEqual(1);
    expect(await store.resume(`z-${_name}`, now)).toBeUndefined();
    expect((await store.resume(`y-${_name}`, now))?.userId).toBe(1);
  });

  it('answers from memory for SESSION_RECHECK_MS: a session another instance ended ends here within it, one ended here at once', async () => {
    const here = make();
    const other = make(); // another instance sharing the store
    const t0 = Date.now();
    await here.create(session(`r-${_name}`, t0));
    await other.revoke(`r-${_name}`);
    expect((await here.resume(`r-${_name}`, t0 + SESSION_RECHECK_MS - 1))?.userId).toBe(1); // not read again yet
    expect(await here.resume(`r-${_name}`, t0 + SESSION_RECHECK_MS)).toBeUndefined();
    expect(await here.resume(`r-${_name}`, t0 + SESSION_RECHECK_MS - 1)).toBeUndefined(); // forgotten, not remembered alive

    await other.create(session(`u-${_name}`, t0));
    expect((await here.resume(`u-${_name}`, t0 + 1))?.userId).toBe(1);
    await other.revokeUser(1);
    expect(await here.resume(`u-${_name}`, t0 + 1 + SESSION_RECHECK_MS)).toBeUndefined();

    await here.create(session(`s-${_name}`, t0));
    expect((await here.resume(`s-${_name}`, t0 + 1))?.userId).toBe(1);
    await here.revoke(`s-${_name}`);
    expect(await here.resume(`s-${_name}`, t0 + 2)).toBeUndefined();
    // A clock that went back reads the store again rather than trusting what was read "in the future".
    await here.create(session(`c-${_name}`, t0));
    await other.revoke(`c-${_name}`);
    expect(await here.resume(`c-${_name}`, t0 - 1)).toBeUndefined();
  });

  it('keeps a session alive across instances while it is used, each seeing the other\'s requests by the touch', async () => {
    const a = make();
    const b = make();
    const t0 = Date.now();
    await a.create(session(`t-${_name}`, t0));
    // used on A for two idle times (60 s each) with a request every 20 s; B then sees it alive
    for (let at = t0; at <= t0 + 120_000; at += 20_000) expect((await a.resume(`t-${_name}`, at))?.userId).toBe(1);
    expect((await b.resume(`t-${_name}`, t0 + 120_000 + 59_000))?.userId).toBe(1); // alive by A's touch at 120 s
  });
});

describe.runIf(redisUrl)('redis session store', () => {
  it('lets a session\'s key outlive its idle time by a touch interval, and writes it at most once a touch interval', async () => {
    const store = new RedisSessionStore(redis!, prefix);
    const t0 = Date.now();
    const idleMs = 60_000;
    await store.create({ tokenHash: 'ttl', userId: 1, createdAt: t0, lastSeenAt: t0, idleMs, ip: '127.0.0.1', userAgent: 'test' });
    const ttl = await redis!.pttl(`${prefix}session:ttl`);
    expect(ttl).toBeGreaterThan(idleMs);
    expect(ttl).toBeLessThanOrEqual(idleMs + TOUCH_INTERVAL_MS);
    const stored = async () => (JSON.parse((await redis!.get(`${prefix}session:ttl`))!) as { lastSeenAt: number }).lastSeenAt;
    for (let at = t0; at < t0 + TOUCH_INTERVAL_MS; at += 5_000) await store.resume('ttl', at);
    expect(await stored()).toBe(t0);
    await store.resume('ttl', t0 + TOUCH_INTERVAL_MS);
    expect(await stored()).toBe(t0 + TOUCH_INTERVAL_MS);
  });
});

const counterStores: [string, () => CounterStore][] = [
  ['memory', () => new MemoryCounterStore()],
  ...(redisUrl ? [['redis', () => new RedisCounterStore(redis!, prefix)] as [string, () => CounterStore]] : []),
];

describe.each(counterStores)('%s counter store', (_name, make) => {
  it('counts within a window and starts again after it', async () => {
    const store = make();
    const now = Date.now();
    const key = `k-${_name}-${now}`;
    expect(await store.increment(key, 1000, now)).toBe(1);
    expect(await store.increment(key, 1000, now + 10)).toBe(2);
    expect(await store.get(key, now + 20)).toBe(2);
    expect(await store.get(key, now + 1001)).toBe(0);
    expect(await store.increment(key, 1000, now + 1001)).toBe(1);
    await store.reset(key);
    expect(await store.get(key, now + 1002)).toBe(0);
  });

  it('counts concurrent hits exactly', async () => {
    const store = make();
    const now = Date.now();
    const key = `c-${_name}-${now}`;
    await Promise.all(Array.from({ length: 50 }, () => store.increment(key, 60_000, now)));
    expect(await store.get(key, now)).toBe(50);
  });

  it('gives back released hits, concurrently, never below zero and never into an ended window', async () => {
    const store = make();
    const now = Date.now();
    const key = `r-${_name}-${now}`;
    await Promise.all(Array.from({ length: 30 }, () => store.increment(key, 60_000, now)));
    await Promise.all(Array.from({ length: 20 }, () => store.release(key, now + 1)));
    expect(await store.get(key, now + 2)).toBe(10);
    await Promise.all(Array.from({ length: 15 }, () => store.release(key, now + 3)));
    expect(await store.get(key, now + 4)).toBe(0);
    expect(await store.increment(key, 60_000, now + 5)).toBe(1);
    await store.release(key, now + 60_001);
    expect(await store.increment(key, 1000, now + 60_001)).toBe(1); // the old window ended: a new one
    await store.release('never-counted', now);
    expect(await store.get('never-counted', now)).toBe(0);
  });
});
