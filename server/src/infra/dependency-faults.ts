// A dependency that falters: PostgreSQL restarted or too slow for the requests (its pool's queue full or
// waited out: db/connection-queue.ts), Redis away, SQLite busy or its disk full, the file store's bucket
// unreachable.
// The server never exits for it: the request answers 503 with a message (http/error-handler.ts), the
// background chores try again on their next turn, and each dependency's state goes to the log once per
// change (DependencyWatch), not once per failed call.

import { PoolBusyError } from '../db/connection-queue.ts';

export type Dependency = 'database' | 'redis' | 'fileStore';

/** The file store (an S3-compatible bucket) could not do what was asked: unreachable, refused or failing. */
export class FileStoreUnavailableError extends Error {
  override readonly name = 'FileStoreUnavailableError';
}

// SQLSTATE: 08xxx connection exceptions, 57P01-03 shutdown / cannot connect now, 53xxx insufficient
// resources (disk full, too many connections).
const PG_UNAVAILABLE = /^(08|57P0[123]|53)/;
// node-postgres' own texts for a connection that is gone or cannot be made in time.
const PG_CONNECTION_TEXT = /^Connection terminated|timeout exceeded when trying to connect|is not queryable/;
// System errors of a socket (pg surfaces them from connect and from a connection that dies).
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
// SQLite primary result codes (errcode & 0xff): BUSY, LOCKED, IOERR, FULL.
const SQLITE_UNAVAILABLE = new Set([5, 6, 10, 13]);
// ioredis: a command while not connected (enableOfflineQueue false), one dropped with its connection
// (maxRetriesPerRequest), one past commandTimeout.
const REDIS_TEXT = /enableOfflineQueue options is false|^Connection is closed|^Command timed out|max retries per request/i;

/** Which dependency `error` says is away, or undefined for any other error. */
export function unavailableDependency(error: unknown): Dependency | undefined {
  const e = error as { name?: string; code?: unknown; errcode?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return undefined;
  if (e instanceof FileStoreUnavailableError) return 'fileStore';
  if (e instanceof PoolBusyError) return 'database';
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.name === 'MaxRetriesPerRequestError' || REDIS_TEXT.test(message)) return 'redis';
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') return SQLITE_UNAVAILABLE.has(e.errcode & 0xff) ? 'database' : undefined;
  if (typeof e.code === 'string' && (SOCKET_CODES.has(e.code) || PG_UNAVAILABLE.test(e.code))) return 'database';
  if (PG_CONNECTION_TEXT.test(message)) return 'database';
  return undefined;
}

type WarnLog = { warn: (details: object, message: string) => void };

/**
 * One dependency's state as the log tells it: `lost` writes "<name> unreachable" when it was up, `back`
 * writes "<name> back" when it was down — one line per change, however many calls failed meanwhile.
 */
export class DependencyWatch {
  readonly #name: string;
  readonly #log: WarnLog;
  #up = true;
  constructor(name: string, log: WarnLog) {
    this.#name = name;
    this.#log = log;
  }

  get up(): boolean {
    return this.#up;
  }

  lost(error?: unknown): void {
    if (!this.#up) return;
    this.#up = false;
    this.#log.warn({ dependency: this.#name, error: error instanceof Error ? error.message || (error as { code?: string }).code : undefined }, `${this.#name} unreachable`);
  }

  back(): void {
    if (this.#up) return;
    this.#up = true;
    this.#log.warn({ dependency: this.#name }, `${this.#name} back`);
  }
}
