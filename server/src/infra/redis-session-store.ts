import type { Redis } from 'ioredis';
import { SessionMemory } from './session-memory.ts';
import { TOUCH_INTERVAL_MS, type SessionRecord, type SessionStore } from './session-store.ts';

// One key per session, and one set per user naming its sessions so force-offline can end them all.
// Requests are answered from this instance's memory (infra/session-memory.ts): the key is read at most
// once a second and written at most once a minute (TOUCH_INTERVAL_MS); it expires by itself a touch
// interval after its idle time, so never before the session is idle, and the server's clock decides.
export class RedisSessionStore implements SessionStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly memory = new SessionMemory();
  constructor(redis: Redis, prefix: string) {
    this.redis = redis;
    this.prefix = prefix;
  }

  private sessionKey(tokenHash: string) {
    return `${this.prefix}session:${tokenHash}`;
  }
  private userKey(userId: number) {
    return `${this.prefix}user-sessions:${userId}`;
  }

  async create(session: SessionRecord): Promise<void> {
    await this.redis
      .multi()
      .set(this.sessionKey(session.tokenHash), JSON.stringify(session), 'PX', session.idleMs + TOUCH_INTERVAL_MS)
      .sadd(this.userKey(session.userId), session.tokenHash)
      .exec();
    this.memory.created(session);
  }

  resume(tokenHash: string, now: number): Promise<SessionRecord | undefined> {
    const key = this.sessionKey(tokenHash);
    return this.memory.resume(tokenHash, now, {
      read: async () => {
        const raw = await this.redis.get(key);
        return raw ? (JSON.parse(raw) as SessionRecord) : undefined;
      },
      touch: async (session) => void await this.redis.set(key, JSON.stringify(session), 'PX', session.idleMs + TOUCH_INTERVAL_MS, 'XX'),
      revoke: () => this.revoke(tokenHash),
    });
  }

  async revoke(tokenHash: string): Promise<void> {
    this.memory.forget(tokenHash);
    const raw = await this.redis.getdel(this.sessionKey(tokenHash));
    if (raw) await this.redis.srem(this.userKey((JSON.parse(raw) as SessionRecord).userId), tokenHash);
  }

  async revokeUser(userId: number, keepTokenHash?: string): Promise<number> {
    this.memory.forgetUser(userId, keepTokenHash);
    const hashes = (await this.redis.smembers(this.userKey(userId))).filter((h) => h !== keepTokenHash);
    if (hashes.length === 0) return 0;
    const [[, deleted]] = (await this.redis
      .multi()
      .del(...hashes.map((h) => this.sessionKey(h)))
      .srem(this.userKey(userId), ...hashes)
      .exec()) as [[Error | null, number]];
    return deleted;
  }

  async listActive(now: number): Promise<SessionRecord[]> {
    const sessions: SessionRecord[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}session:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length === 0) continue;
      for (const raw of await this.redis.mget(...keys)) {
        if (!raw) continue;
        const stored = JSON.parse(raw) as SessionRecord;
        const session = { ...stored, lastSeenAt: this.memory.lastSeenAt(stored) };
        if (session.lastSeenAt + session.idleMs >= now) sessions.push(session);
      }
    } while (cursor !== '0');
    return sessions.sort((a, b) => b.lastSeenAt - a.lastSeenAt);
  }

  async close(): Promise<void> {}
}
