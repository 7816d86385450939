// Where login sessions live. The database store is the embedded default (sessions survive a restart,
// so 记住密码 keeps working); the Redis store is used when REDIS_URL is set so every instance shares them.
export type SessionRecord = {
  tokenHash: string;
  userId: number;
  createdAt: number;
  lastSeenAt: number;
  idleMs: number;
  ip: string;
  userAgent: string;
};

export interface SessionStore {
  create(session: SessionRecord): Promise<void>;
  /** The live session for this token, its idle clock restarted; undefined when unknown or idle too long. */
  resume(tokenHash: string, now: number): Promise<SessionRecord | undefined>;
  revoke(tokenHash: string): Promise<void>;
  /** Ends every session of the user but the one named; answers how many ended. */
  revokeUser(userId: number, keepTokenHash?: string): Promise<number>;
  /** Live sessions (在线用户), newest activity first. */
  listActive(now: number): Promise<SessionRecord[]>;
  close(): Promise<void>;
}

/** Writing lastSeenAt on every request would turn each read into a write; once a minute is enough. */
export const TOUCH_INTERVAL_MS = 60_000;
