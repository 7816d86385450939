import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { SessionMemory } from './session-memory.ts';
import { TOUCH_INTERVAL_MS, type SessionRecord, type SessionStore } from './session-store.ts';

/**
 * Sessions in sys_session, answered from this instance's memory (infra/session-memory.ts): the row is
 * read at most once a second and its lastSeenAt written at most once a minute (TOUCH_INTERVAL_MS).
 */
export class SqlSessionStore implements SessionStore {
  private readonly db: Kysely<Database>;
  private readonly memory = new SessionMemory();
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async create(session: SessionRecord): Promise<void> {
    await this.db.insertInto('sys_session').values(session).execute();
    this.memory.created(session);
    // Sweep sessions that went idle, so the table only holds live ones: a row whose time lags by up
    // to a touch interval is only surely idle that much later.
    const now = session.createdAt;
    await this.db
      .deleteFrom('sys_session')
      .where((eb) => eb(eb(eb('lastSeenAt', '+', eb.ref('idleMs')), '+', TOUCH_INTERVAL_MS), '<', now))
      .execute();
  }

  resume(tokenHash: string, now: number): Promise<SessionRecord | undefined> {
    return this.memory.resume(tokenHash, now, {
      read: () => this.db.selectFrom('sys_session').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst(),
      touch: async (session) => void await this.db.updateTable('sys_session').set({ lastSeenAt: session.lastSeenAt }).where('tokenHash', '=', tokenHash).execute(),
      revoke: () => this.revoke(tokenHash),
    });
  }

  async revoke(tokenHash: string): Promise<void> {
    this.memory.forget(tokenHash);
    await this.db.deleteFrom('sys_session').where('tokenHash', '=', tokenHash).execute();
  }

  async revokeUser(userId: number, keepTokenHash?: string): Promise<number> {
    this.memory.forgetUser(userId, keepTokenHash);
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
      .map((row) => ({ ...row, lastSeenAt: this.memory.lastSeenAt(row) }))
      .filter((row) => row.lastSeenAt + row.idleMs >= now)
      .sort((a, b) => b.lastSeenAt - a.lastSeenAt);
  }

  async close(): Promise<void> {}
}
