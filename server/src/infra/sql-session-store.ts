import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { TOUCH_INTERVAL_MS, type SessionRecord, type SessionStore } from './session-store.ts';

type Seen = { userId: number; lastSeenAt: number; idleMs: number };

/**
 * Sessions in sys_session. The row's lastSeenAt is written at most once a minute (TOUCH_INTERVAL_MS),
 * so it may lag the session's last request by up to that much; the store remembers each session's
 * last request to the millisecond, so idle expiry is exact to the setting on this instance (after a
 * restart, or for a request another instance answered, the row's time counts: at most a minute early).
 */
export class SqlSessionStore implements SessionStore {
  private readonly db: Kysely<Database>;
  private readonly seen = new Map<string, Seen>();
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** The session's last request as far as this instance knows. */
  private lastSeenAt(session: SessionRecord): number {
    return Math.max(session.lastSeenAt, this.seen.get(session.tokenHash)?.lastSeenAt ?? 0);
  }

  async create(session: SessionRecord): Promise<void> {
    await this.db.insertInto('sys_session').values(session).execute();
    this.seen.set(session.tokenHash, { userId: session.userId, lastSeenAt: session.lastSeenAt, idleMs: session.idleMs });
    // Sweep sessions that went idle, so the table only holds live ones: a row whose time lags by up
    // to a touch interval is only surely idle that much later.
    const now = session.createdAt;
    await this.db
      .deleteFrom('sys_session')
      .where((eb) => eb(eb(eb('lastSeenAt', '+', eb.ref('idleMs')), '+', TOUCH_INTERVAL_MS), '<', now))
      .execute();
    for (const [tokenHash, seen] of this.seen) if (seen.lastSeenAt + seen.idleMs < now) this.seen.delete(tokenHash);
  }

  async resume(tokenHash: string, now: number): Promise<SessionRecord | undefined> {
    const session = await this.db.selectFrom('sys_session').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
    if (!session) {
      this.seen.delete(tokenHash);
      return undefined;
    }
    const lastSeenAt = this.lastSeenAt(session);
    if (lastSeenAt + session.idleMs < now) {
      await this.revoke(tokenHash);
      return undefined;
    }
    const seenNow = Math.max(lastSeenAt, now);
    this.seen.set(tokenHash, { userId: session.userId, lastSeenAt: seenNow, idleMs: session.idleMs });
    if (now - session.lastSeenAt >= TOUCH_INTERVAL_MS) {
      await this.db.updateTable('sys_session').set({ lastSeenAt: now }).where('tokenHash', '=', tokenHash).execute();
    }
    return { ...session, lastSeenAt: seenNow };
  }

  async revoke(tokenHash: string): Promise<void> {
    this.seen.delete(tokenHash);
    await this.db.deleteFrom('sys_session').where('tokenHash', '=', tokenHash).execute();
  }

  async revokeUser(userId: number, keepTokenHash?: string): Promise<number> {
    for (const [tokenHash, seen] of this.seen) if (seen.userId === userId && tokenHash !== keepTokenHash) this.seen.delete(tokenHash);
    let query = this.db.deleteFrom('sys_session').where('userId', '=', userId);
    if (keepTokenHash) query = query.where('tokenHash', '!=', keepTokenHash);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async listActive(now: number): Promise<SessionRecord[]> {
    // Rows that may still be live (their time lags by up to a touch interval), then the exact rule.
    const rows = await this.db
      .selectFrom('sys_session')
      .selectAll()
      .where((eb) => eb(eb(eb('lastSeenAt', '+', eb.ref('idleMs')), '+', TOUCH_INTERVAL_MS), '>=', now))
      .execute();
    return rows
      .map((row) => ({ ...row, lastSeenAt: this.lastSeenAt(row) }))
      .filter((row) => row.lastSeenAt + row.idleMs >= now)
      .sort((a, b) => b.lastSeenAt - a.lastSeenAt);
  }

  async close(): Promise<void> {}
}
