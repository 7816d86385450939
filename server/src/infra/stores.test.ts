import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seed } from '../seed.ts';
import { AccessCache } from './access-cache.ts';
import { MemoryCounterStore, RedisCounterStore, type CounterStore } from './counter-store.ts';
import { RedisSessionStore } from './redis-session-store.ts';
import type { SessionStore } from './session-store.ts';
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

describe.runIf(redisUrl)('access cache across instances', () => {
  it('drops an entry on every instance when one invalidates it', async () => {
    const connect = () => ({ publisher: new Redis(redisUrl!), subscriber: new Redis(redisUrl!), prefix });
    const a = connect();
    const b = connect();
    const cacheA = new AccessCache<string>(a);
    const cacheB = new AccessCache<string>(b);
    await cacheA.start();
    await cacheB.start();
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cacheB.get(7, Date.now(), load)).toBe('v1');
    expect(await cacheB.get(7, Date.now(), load)).toBe('v1');
    await cacheA.invalidate(7);
    await expect.poll(() => cacheB.get(7, Date.now(), load), { timeout: 2000 }).toBe('v2');
    for (const c of [a, b]) {
      c.publisher.disconnect();
      c.subscriber.disconnect();
    }
  });
});
