import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { TOUCH_INTERVAL_MS, type SessionRecord, type SessionStore } from './session-store.ts';

/**
 * A session as this instance knows it: `session.lastSeenAt` is its last request here to the millisecond,
 * `rowSeenAt` what the row holds, `readAt` when the row was last read or written here.
 */
type Known = { session: SessionRecord; rowSeenAt: number; readAt: number };

/**
 * How long a session read here is taken as it is without reading its row again. Every request resumes
 * its session: this keeps a SELECT off all but one request a second per session. Sessions ended on this
 * instance are forgotten at once; one ended by another instance sharing the database (several
 * instances without Redis) ends here within this time.
 */
export const SESSION_RECHECK_MS = 1_000;

/**
 * Sessions in sys_session. The row's lastSeenAt is written at most once a minute (TOUCH_INTERVAL_MS),
 * so it may lag the session's last request by up to that much; the store remembers each session's
 * last request to the millisecond, so idle expiry is exact to the setting on this instance (after a
 * restart, or for a request another instance answered, the row's time counts: at most a minute early).
 */
export class SqlSessionStore implements SessionStore {
  private readonly db: Kysely<Database>;
  private readonly known = new Map<string, Known>();
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** The session's last request as far as this instance knows. */
  private lastSeenAt(session: SessionRecord): number {
    return Math.max(session.lastSeenAt, this.known.get(session.tokenHash)?.session.lastSeenAt ?? 0);
  }

  async create(session: SessionRecord): Promise<void> {
    await this.db.insertInto('sys_session').values(session).execute();
    this.known.set(session.tokenHash, { session: { ...session }, rowSeenAt: session.lastSeenAt, readAt: session.createdAt });
    // Sweep sessions that went idle, so the table only holds live ones: a row whose time lags by up
    // to a touch interval is only surely idle that much later.
    const now = session.createdAt;
    await this.db
      .deleteFrom('sys_session')
      .where((eb) => eb(eb(eb('lastSeenAt', '+', eb.ref('idleMs')), '+', TOUCH_INTERVAL_MS), '<', now))
      .execute();
    for (const [tokenHash, { session: known }] of this.known) if (known.lastSeenAt + known.idleMs < now) this.known.delete(tokenHash);
  }

  async resume(tokenHash: string, now: number): Promise<SessionRecord | undefined> {
    let known = this.known.get(tokenHash);
    const sinceRead = known ? now - known.readAt : -1;
    if (!known || sinceRead < 0 || sinceRead >= SESSION_RECHECK_MS) {
      const row = await this.db.selectFrom('sys_session').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
      if (!row) {
        this.known.delete(tokenHash);
        return undefined;
      }
      known = { session: { ...row, lastSeenAt: this.lastSeenAt(row) }, rowSeenAt: row.lastSeenAt, readAt: now };
      this.known.set(tokenHash, known);
    }
    const { session } = known;
    if (session.lastSeenAt + session.idleMs < now) {
      await this.revoke(tokenHash);
      return undefined;
    }
    session.lastSeenAt = Math.max(session.lastSeenAt, now);
    if (now - known.rowSeenAt >= TOUCH_INTERVAL_MS) {
      await this.db.updateTable('sys_session').set({ lastSeenAt: now }).where('tokenHash', '=', tokenHash).execute();
      known.rowSeenAt = now;
    }
    return { ...session };
  }

  async revoke(tokenHash: string): Promise<void> {
    this.known.delete(tokenHash);
    await this.db.deleteFrom('sys_session').where('tokenHash', '=', tokenHash).execute();
  }

  async revokeUser(userId: number, keepTokenHash?: string): Promise<number> {
    for (const [tokenHash, { session }] of this.known) if (session.userId === userId && tokenHash !== keepTokenHash) this.known.delete(tokenHash);
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
