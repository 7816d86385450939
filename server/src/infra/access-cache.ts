import type { Redis } from 'ioredis';

// Each instance keeps the roles, menus and permissions of recently seen users in memory. 刷新缓存,
// a role change or a lock drops an entry here and, through Redis pub/sub, on every other instance.
const MAX_AGE_MS = 5 * 60_000;

export class AccessCache<T> {
  private readonly entries = new Map<number, { value: T; loadedAt: number }>();
  private readonly publisher?: Redis;
  private readonly subscriber?: Redis;
  private readonly channel: string;

  constructor(redis?: { publisher: Redis; subscriber: Redis; prefix: string }) {
    this.channel = `${redis?.prefix ?? ''}access-invalidate`;
    if (redis) {
      this.publisher = redis.publisher;
      this.subscriber = redis.subscriber;
    }
  }

  async start(): Promise<void> {
    if (!this.subscriber) return;
    this.subscriber.on('message', (channel, message) => {
      if (channel !== this.channel) return;
      if (message === '*') this.entries.clear();
      else this.entries.delete(Number(message));
    });
    await this.subscriber.subscribe(this.channel);
  }

  async get(userId: number, now: number, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const hit = this.entries.get(userId);
    if (hit && now - hit.loadedAt < MAX_AGE_MS) return hit.value;
    const value = await load();
    if (value === undefined) this.entries.delete(userId);
    else this.entries.set(userId, { value, loadedAt: now });
    return value;
  }

  /** Drops one user's entry, or everybody's with 'all', on every instance. */
  async invalidate(userId: number | 'all'): Promise<void> {
    if (userId === 'all') this.entries.clear();
    else this.entries.delete(userId);
    await this.publisher?.publish(this.channel, userId === 'all' ? '*' : String(userId));
  }
}
