import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { TOUCH_INTERVAL_MS, type SessionRecord, type SessionStore } from './session-store.ts';

export class SqlSessionStore implements SessionStore {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async create(session: SessionRecord): Promise<void> {
    await this.db.insertInto('sys_session').values(session).execute();
    // Sweep sessions that went idle, so the table only holds live ones.
    await this.db
      .deleteFrom('sys_session')
      .where((eb) => eb(eb('lastSeenAt', '+', eb.ref('idleMs')), '<', session.createdAt))
      .execute();
  }

  async resume(tokenHash: string, now: number): Promise<SessionRecord | undefined> {
    const session = await this.db.selectFrom('sys_session').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
    if (!session) return undefined;
    if (session.lastSeenAt + session.idleMs < now) {
      await this.revoke(tokenHash);
      return undefined;
    }
    if (now - session.lastSeenAt >= TOUCH_INTERVAL_MS) {
      await this.db.updateTable('sys_session').set({ lastSeenAt: now }).where('tokenHash', '=', tokenHash).execute();
      session.lastSeenAt = now;
    }
    return session;
  }

  async revoke(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sys_session').where('tokenHash', '=', tokenHash).execute();
  }

  async revokeUser(userId: number, keepTokenHash?: string): Promise<number> {
    let query = this.db.deleteFrom('sys_session').where('userId', '=', userId);
    if (keepTokenHash) query = query.where('tokenHash', '!=', keepTokenHash);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async listActive(now: number): Promise<SessionRecord[]> {
    return this.db
      .selectFrom('sys_session')
      .selectAll()
      .where((eb) => eb(eb('lastSeenAt', '+', eb.ref('idleMs')), '>=', now))
      .orderBy('lastSeenAt', 'desc')
      .execute();
  }

  async close(): Promise<void> {}
}
