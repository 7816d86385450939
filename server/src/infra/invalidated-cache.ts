import type { Redis } from 'ioredis';

// What an instance keeps in memory of rows read on nearly every request and written seldom (a user's
// roles, menus and permissions; a machine's key and status): an entry lives until a write drops it —
// here and, through Redis pub/sub, on every other instance — or until it is `maxAgeMs` old, the bound
// for an announcement lost (a Redis reconnect clears everything: what was announced meanwhile is gone).
//
// A load under way when its key is dropped answers its caller but is not kept: it may have read the row
// before the write committed (without this, a user locked or a machine disabled during such a read stayed
// as it was in this instance's memory until the entry's age ran out).

type RedisPair = { publisher: Redis; subscriber: Redis; prefix: string };
type Key = string | number;

export class InvalidatedCache<K extends Key, V> {
  private readonly entries = new Map<K, { value: V; loadedAt: number }>();
  /** Bumped by every drop: a load kept only when no drop of its key (or of all) came while it ran. */
  private readonly droppedAt = new Map<K, number>();
  private generation = 0;
  private allDroppedAt = 0;
  private readonly channel: string;
  private readonly redis?: RedisPair;
  private readonly options: { maxAgeMs: number; keyOf: (text: string) => K | undefined };

  /**
   * `name` names the Redis channel (`<prefix><name>-invalidate`); `keyOf` reads a key back from an
   * announcement (its text).
   */
  constructor(name: string, options: { maxAgeMs: number; keyOf: (text: string) => K | undefined; redis?: RedisPair }) {
    this.options = options;
    this.redis = options.redis;
    this.channel = `${options.redis?.prefix ?? ''}${name}-invalidate`;
  }

  async start(): Promise<void> {
    const subscriber = this.redis?.subscriber;
    if (!subscriber) return;
    subscriber.on('message', (channel, message) => {
      if (channel !== this.channel) return;
      if (message === '*') this.dropAll();
      else {
        const key = this.options.keyOf(message);
        if (key !== undefined) this.drop(key);
      }
    });
    // ioredis subscribes again after a reconnect; what was announced while it was away is lost.
    let connectedBefore = false;
    subscriber.on('ready', () => {
      if (connectedBefore) this.dropAll();
      connectedBefore = true;
    });
    if (subscriber.status === 'ready') connectedBefore = true;
    await subscriber.subscribe(this.channel);
  }

  async get(key: K, now: number, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit && now - hit.loadedAt < this.options.maxAgeMs) return hit.value;
    const startedAt = this.generation;
    const value = await load();
    const droppedMeanwhile = this.allDroppedAt > startedAt || (this.droppedAt.get(key) ?? 0) > startedAt;
    if (value === undefined || droppedMeanwhile) this.entries.delete(key);
    else this.entries.set(key, { value, loadedAt: now });
    return value;
  }

  /** Drops one key's entry, or every entry with 'all', here and on every instance. Call it after the write committed. */
  async invalidate(key: K | 'all'): Promise<void> {
    if (key === 'all') this.dropAll();
    else this.drop(key);
    // Redis away: the write stands and is not refused for it; every instance's subscriber lost its
    // connection too and drops everything when it is back (start above).
    await this.redis?.publisher.publish(this.channel, key === 'all' ? '*' : String(key)).catch(() => {});
  }

  private drop(key: K): void {
    this.entries.delete(key);
    this.droppedAt.set(key, ++this.generation);
    // Only a load started before a drop asks for it: the marks of older drops are of no more use.
    if (this.droppedAt.size > 10_000) this.dropAll();
  }

  private dropAll(): void {
    this.entries.clear();
    this.droppedAt.clear();
    this.allDroppedAt = ++this.generation;
  }
}
