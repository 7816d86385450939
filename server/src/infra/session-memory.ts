import { TOUCH_INTERVAL_MS, type SessionRecord } from './session-store.ts';

/**
 * How long a session read from its store is taken as it is without reading it again. Every request
 * resumes its session: this keeps the store's read off all but one request a second per session. A
 * session ended on this instance is forgotten at once; one ended by another instance sharing the store
 * ends here within this time.
 */
export const SESSION_RECHECK_MS = 1_000;

/**
 * A session as this instance knows it: `session.lastSeenAt` is its last request here to the millisecond,
 * `storedSeenAt` what the store holds (written at most once a touch interval), `readAt` when it was last
 * read from the store here (or created).
 */
type Known = { session: SessionRecord; storedSeenAt: number; readAt: number };

/** What a session store does with the stored session while one is resumed. */
export type StoredSession = {
  read: () => Promise<SessionRecord | undefined>;
  /** Writes the session's lastSeenAt (now): at most once a touch interval. */
  touch: (session: SessionRecord) => Promise<void>;
  revoke: () => Promise<void>;
};

/**
 * The sessions one instance has served, shared by the session stores: every request is answered from
 * here, the store read once in SESSION_RECHECK_MS and written once in TOUCH_INTERVAL_MS. Idle expiry is
 * exact to the millisecond for the requests this instance answered (after a restart, or for a request
 * another instance answered, the store's time counts: at most a touch interval early).
 */
export class SessionMemory {
  private readonly known = new Map<string, Known>();
  private sweptAt = 0;

  /** The session's last request as far as this instance knows. */
  lastSeenAt(session: SessionRecord): number {
    return Math.max(session.lastSeenAt, this.known.get(session.tokenHash)?.session.lastSeenAt ?? 0);
  }

  created(session: SessionRecord): void {
    this.sweepNow(session.createdAt);
    this.known.set(session.tokenHash, { session: { ...session }, storedSeenAt: session.lastSeenAt, readAt: session.createdAt });
  }

  /** The live session for this token, its idle clock restarted; undefined when unknown or idle too long (then revoked). */
  async resume(tokenHash: string, now: number, stored: StoredSession): Promise<SessionRecord | undefined> {
    let known = this.known.get(tokenHash);
    const sinceRead = known ? now - known.readAt : -1;
    if (!known || sinceRead < 0 || sinceRead >= SESSION_RECHECK_MS) {
      this.sweepNow(now);
      const session = await stored.read();
      if (!session) {
        this.known.delete(tokenHash);
        return undefined;
      }
      known = { session: { ...session, lastSeenAt: this.lastSeenAt(session) }, storedSeenAt: session.lastSeenAt, readAt: now };
      this.known.set(tokenHash, known);
    }
    const { session } = known;
    if (session.lastSeenAt + session.idleMs < now) {
      this.known.delete(tokenHash);
      await stored.revoke();
      return undefined;
    }
    session.lastSeenAt = Math.max(session.lastSeenAt, now);
    if (now - known.storedSeenAt >= TOUCH_INTERVAL_MS) {
      await stored.touch({ ...session, lastSeenAt: now });
      known.storedSeenAt = now;
    }
    return { ...session };
  }

  forget(tokenHash: string): void {
    this.known.delete(tokenHash);
  }

  forgetUser(userId: number, keepTokenHash?: string): void {
    for (const [tokenHash, { session }] of this.known) if (session.userId === userId && tokenHash !== keepTokenHash) this.known.delete(tokenHash);
  }

  /** Once a touch interval, forgets the sessions idle at `now` (also those other instances served and this one read). */
  private sweepNow(now: number): void {
    if (Math.abs(now - this.sweptAt) < TOUCH_INTERVAL_MS) return;
    this.sweptAt = now;
    for (const [tokenHash, { session }] of this.known) if (session.lastSeenAt + session.idleMs < now) this.known.delete(tokenHash);
  }
}
