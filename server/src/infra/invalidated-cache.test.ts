import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidatedCache } from './invalidated-cache.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const prefix = `huiyun-test:${randomBytes(4).toString('hex')}:`;
const MAX_AGE = 60_000;

const counting = () => {
  let loads = 0;
  return { load: async () => `v${++loads}`, loads: () => loads };
};

/** A load that answers when told to: what a read under way while a write commits looks like. */
function heldLoad(value: string) {
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  return { load: async () => (await answered, value), answer };
}

describe('invalidated cache (one instance)', () => {
  const cache = () => new InvalidatedCache<string, string>('test', { maxAgeMs: MAX_AGE, keyOf: String });

  it('keeps a value until it is invalidated or too old, and keeps no miss', async () => {
    const c = cache();
    const { load, loads } = counting();
    expect(await c.get('M1', 0, load)).toBe('v1');
    expect(await c.get('M1', MAX_AGE - 1, load)).toBe('v1');
    expect(await c.get('M1', MAX_AGE, load)).toBe('v2');
    await c.invalidate('M1');
    expect(await c.get('M1', MAX_AGE, load)).toBe('v3');
    await c.invalidate('all');
    expect(await c.get('M1', MAX_AGE, load)).toBe('v4');
    let misses = 0;
    const miss = async () => ((misses += 1), undefined);
    expect(await c.get('gone', 0, miss)).toBeUndefined();
    expect(await c.get('gone', 0, miss)).toBeUndefined();
    expect(misses).toBe(2);
    expect(loads()).toBe(4);
  });

  it('answers a load under way when its key is dropped, but does not keep it', async () => {
    for (const dropped of ['M1', 'all'] as const) {
      const c = cache();
      const before = heldLoad('read before the write');
      const other = heldLoad('another machine');
      const reading = c.get('M1', 0, before.load);
      const readingOther = c.get('M2', 0, other.load);
      await c.invalidate(dropped); // the write committed while the reads were under way
      before.answer();
      other.answer();
      expect(await reading).toBe('read before the write');
      expect(await readingOther).toBe('another machine');
      const { load } = counting();
      expect(await c.get('M1', 1, load)).toBe('v1');
      // a drop of one key leaves another key's load kept; a drop of all keeps none
      expect(await c.get('M2', 1, load)).toBe(dropped === 'all' ? 'v2' : 'another machine');
    }
  });
});

describe.runIf(redisUrl)('invalidated cache across instances', () => {
  const connections: Redis[] = [];
  const connect = () => {
    const pair = { publisher: new Redis(redisUrl!), subscriber: new Redis(redisUrl!), prefix };
    connections.push(pair.publisher, pair.subscriber);
    return pair;
  };
  afterAll(() => connections.forEach((c) => c.disconnect()));

  it('drops an entry on every instance when one invalidates it', async () => {
    const a = connect();
    const b = connect();
    const cacheA = new InvalidatedCache<number, string>('access', { maxAgeMs: MAX_AGE, keyOf: Number, redis: a });
    const cacheB = new InvalidatedCache<number, string>('access', { maxAgeMs: MAX_AGE, keyOf: Number, redis: b });
    await cacheA.start();
    await cacheB.start();
    const { load } = counting();
    expect(await cacheB.get(7, Date.now(), load)).toBe('v1');
    expect(await cacheB.get(7, Date.now(), load)).toBe('v1');
    await cacheA.invalidate(7);
    await expect.poll(() => cacheB.get(7, Date.now(), load), { timeout: 2000 }).toBe('v2');
  });

  it('keeps the caches of each name apart, and drops everything after its subscriber reconnects', async () => {
    const a = connect();
    const b = connect();
    const machinesA = new InvalidatedCache<string, string>('machine', { maxAgeMs: MAX_AGE, keyOf: String, redis: a });
    const machinesB = new InvalidatedCache<string, string>('machine', { maxAgeMs: MAX_AGE, keyOf: String, redis: b });
    const accessB = new InvalidatedCache<string, string>('access', { maxAgeMs: MAX_AGE, keyOf: String, redis: b });
    for (const c of [machinesA, machinesB, accessB]) await c.start();
    const { load } = counting();
    expect(await machinesB.get('BENCH-0001', Date.now(), load)).toBe('v1');
    expect(await accessB.get('BENCH-0001', Date.now(), load)).toBe('v2');
    await machinesA.invalidate('BENCH-0001');
    await expect.poll(() => machinesB.get('BENCH-0001', Date.now(), load), { timeout: 2000 }).toBe('v3');
    expect(await accessB.get('BENCH-0001', Date.now(), load)).toBe('v2');
    // announcements sent while b's subscriber is away are lost: it forgets everything when it is back
    const back = new Promise((resolve) => b.subscriber.once('ready', resolve));
    b.subscriber.disconnect(true);
    await back;
    expect(await machinesB.get('BENCH-0001', Date.now(), load)).toBe('v4');
    expect(await accessB.get('BENCH-0001', Date.now(), load)).toBe('v5');
  });
});
