import type { Redis } from 'ioredis';

// Windowed counters for throttling (login, device activation): in process by default, in Redis when
// several instances must agree on how many attempts an account or address has made. A throttle takes
// its attempt with `increment` BEFORE the work it guards (the answer counts every attempt in flight, so
// a burst sent at once cannot all read the same old count) and gives it back with `release` when the
// attempt turned out not to count (it succeeded, or was refused without being tried).
export interface CounterStore {
  /** Adds one and answers the count in the current window (the window starts at the first hit). */
  increment(key: string, windowMs: number, now: number): Promise<number>;
  /** Takes one back from a live window (never below zero); the window keeps its end. */
  release(key: string, now: number): Promise<void>;
  get(key: string, now: number): Promise<number>;
  reset(key: string): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();

  async increment(key: string, windowMs: number, now: number): Promise<number> {
    const current = this.counters.get(key);
    if (!current || current.expiresAt <= now) {
      this.sweep(now);
      this.counters.set(key, { count: 1, expiresAt: now + windowMs });
      return 1;
    }
    current.count += 1;
    return current.count;
  }

  async release(key: string, now: number): Promise<void> {
    const current = this.counters.get(key);
    if (current && current.expiresAt > now && current.count > 0) current.count -= 1;
  }

  async get(key: string, now: number): Promise<number> {
    const current = this.counters.get(key);
    return current && current.expiresAt > now ? current.count : 0;
  }

  async reset(key: string): Promise<void> {
    this.counters.delete(key);
  }

  private sweep(now: number) {
    if (this.counters.size < 10_000) return;
    for (const [key, value] of this.counters) if (value.expiresAt <= now) this.counters.delete(key);
  }
}

// A hash {count, expiresAt} per key, moved by one script so concurrent attempts on several
// instances count exactly; the window follows the server's clock, Redis's TTL only cleans up.
const INCREMENT_SCRIPT = `
local v = redis.call('HMGET', KEYS[1], 'count', 'expiresAt')
if (not v[1]) or tonumber(v[2]) <= tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'count', 1, 'expiresAt', tonumber(ARGV[1]) + tonumber(ARGV[2]))
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return redis.call('HINCRBY', KEYS[1], 'count', 1)`;

const RELEASE_SCRIPT = `
local v = redis.call('HMGET', KEYS[1], 'count', 'expiresAt')
if v[1] and tonumber(v[2]) > tonumber(ARGV[1]) and tonumber(v[1]) > 0 then
  redis.call('HINCRBY', KEYS[1], 'count', -1)
end
return 0`;

export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  constructor(redis: Redis, prefix: string) {
    this.redis = redis;
    this.prefix = prefix;
  }

  async increment(key: string, windowMs: number, now: number): Promise<number> {
    return Number(await this.redis.eval(INCREMENT_SCRIPT, 1, this.prefix + key, now, windowMs));
  }

  async release(key: string, now: number): Promise<void> {
    await this.redis.eval(RELEASE_SCRIPT, 1, this.prefix + key, now);
  }

  async get(key: string, now: number): Promise<number> {
    const [count, expiresAt] = await this.redis.hmget(this.prefix + key, 'count', 'expiresAt');
    return count && Number(expiresAt) > now ? Number(count) : 0;
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}
