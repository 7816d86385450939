import type { Redis } from 'ioredis';
import type { SessionRecord, SessionStore } from './session-store.ts';

// One key per session that expires by itself after its idle time (PEXPIRE restarts the clock on
// every resume), and one set per user naming its sessions so force-offline can end them all.
export class RedisSessionStore implements SessionStore {
  private readonly redis: Redis;
  private readonly prefix: string;
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
      .set(this.sessionKey(session.tokenHash), JSON.stringify(session), 'PX', session.idleMs)
      .sadd(this.userKey(session.userId), session.tokenHash)
      .exec();
  }

  async resume(tokenHash: string, now: number): Promise<SessionRecord | undefined> {
    const raw = await this.redis.get(this.sessionKey(tokenHash));
    if (!raw) return undefined;
    const session = JSON.parse(raw) as SessionRecord;
    // Redis expires the key by its own clock; the server's clock decides too, so both agree.
    if (session.lastSeenAt + session.idleMs < now) {
      await this.revoke(tokenHash);
      return undefined;
    }
    session.lastSeenAt = now;
    await this.redis.set(this.sessionKey(tokenHash), JSON.stringify(session), 'PX', session.idleMs, 'XX');
    return session;
  }

  async revoke(tokenHash: string): Promise<void> {
    const raw = await this.redis.getdel(this.sessionKey(tokenHash));
    if (raw) await this.redis.srem(this.userKey((JSON.parse(raw) as SessionRecord).userId), tokenHash);
  }

  async revokeUser(userId: number, keepTokenHash?: string): Promise<number> {
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
        const session = JSON.parse(raw) as SessionRecord;
        if (session.lastSeenAt + session.idleMs >= now) sessions.push(session);
      }
    } while (cursor !== '0');
    return sessions.sort((a, b) => b.lastSeenAt - a.lastSeenAt);
  }

  async close(): Promise<void> {}
}
