import type { AbortableOperationOptions, DatabaseConnection, Driver, QueryCompiler, TransactionSettings } from 'kysely';

/** Why a caller was refused a connection: the queue was full when it asked, or it waited its bound out. */
export type PoolRefusal = 'queueFull' | 'waitTimeout';

/** No connection for this caller within the queue's bounds (db/connect.ts: a busy PostgreSQL pool answers 503). */
export class PoolBusyError extends Error {
  override readonly name = 'PoolBusyError';
  readonly reason: PoolRefusal;
  constructor(reason: PoolRefusal) {
    super(reason === 'queueFull' ? 'database pool busy: too many callers waiting' : 'database pool busy: no connection within the wait bound');
    this.reason = reason;
  }
}

/**
 * `size` connections lent to one caller each at a time, in the order they asked (SQLite: its one
 * connection; PostgreSQL: the pool's). `maxWaiting` bounds the callers queued (one more is refused at
 * once) and `waitMs` how long one waits (then it is refused), so a slow database makes refusals, not a
 * growing queue; unbounded unless given.
 */
export type QueueBounds = { size?: number; maxWaiting?: number; waitMs?: number };

/** What a queue has done so far: callers that had to wait, and those refused by reason. */
export type QueueCounts = { waits: number; refused: Record<PoolRefusal, number> };

/**
 * A release hands the connection to the next waiter alone. Kysely's own mutex for single-connection
 * dialects (ConnectionMutex: `while (promise) await promise`) wakes every waiter on each release, and all
 * but one go back to waiting: with n queries queued behind a transaction, each hand-over costs n
 * resumptions. Under the terminal bench's 1,000 machines that was the mutex 4 % of the server's busy
 * time, plus the microtasks and garbage of the waiters woken for nothing (docs/performance.md "Terminal flow").
 */
export class ConnectionQueue {
  readonly size: number;
  readonly maxWaiting: number;
  readonly waitMs: number;
  readonly counts: QueueCounts = { waits: 0, refused: { queueFull: 0, waitTimeout: 0 } };
  #lent = 0;
  #waiting = 0;
  // The waiters as a doubly linked list: taking the first and dropping one that gave up are O(1), and
  // nothing grows while the queue never empties.
  #first: Waiter | undefined;
  #last: Waiter | undefined;

  constructor(bounds: QueueBounds = {}) {
    this.size = bounds.size ?? 1;
    this.maxWaiting = bounds.maxWaiting ?? Infinity;
    this.waitMs = bounds.waitMs ?? Infinity;
  }

  /** Resolves once a connection is the caller's; it stays so until `release`. Rejects with PoolBusyError past the bounds. */
  acquire(): Promise<void> {
    if (this.#lent < this.size) {
      this.#lent += 1;
      return Promise.resolve();
    }
    if (this.#waiting >= this.maxWaiting) return Promise.reject(this.#refuse('queueFull'));
    this.counts.waits += 1;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, previous: this.#last, next: undefined, timer: undefined };
      if (this.#last) this.#last.next = waiter;
      else this.#first = waiter;
      this.#last = waiter;
      this.#waiting += 1;
      if (Number.isFinite(this.waitMs)) {
        waiter.timer = setTimeout(() => {
          this.#unlink(waiter);
          reject(this.#refuse('waitTimeout'));
        }, this.waitMs);
      }
    });
  }

  release(): void {
    const next = this.#first;
    if (!next) {
      this.#lent -= 1;
      return;
    }
    this.#unlink(next);
    if (next.timer) clearTimeout(next.timer);
    next.resolve(); // still lent: straight to the next caller, so no newcomer can slip in between
  }

  /** Callers waiting for a connection now. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Connections lent now. */
  get lent(): number {
    return this.#lent;
  }

  #refuse(reason: PoolRefusal): PoolBusyError {
    this.counts.refused[reason] += 1;
    return new PoolBusyError(reason);
  }

  #unlink(waiter: Waiter): void {
    if (waiter.previous) waiter.previous.next = waiter.next;
    else this.#first = waiter.next;
    if (waiter.next) waiter.next.previous = waiter.previous;
    else this.#last = waiter.previous;
    waiter.previous = waiter.next = undefined;
    this.#waiting -= 1;
  }
}

type Waiter = { resolve: () => void; previous: Waiter | undefined; next: Waiter | undefined; timer: NodeJS.Timeout | undefined };

/**
 * A driver whose connections are lent through a `ConnectionQueue`. On SQLite (one connection) the dialect
 * that uses it says it supports several connections, so Kysely does not put its own mutex in front.
 */
export class QueuedConnectionDriver implements Driver {
  readonly #driver: Driver;
  readonly #queue: ConnectionQueue;

  constructor(driver: Driver, queue = new ConnectionQueue()) {
    this.#driver = driver;
    this.#queue = queue;
  }

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.#driver.init(options);
  }

  // A caller that gives up while queued (an abort signal) is handled by Kysely: it releases the
  // connection once this answers, so the queue moves on.
  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    await this.#queue.acquire();
    try {
      return await this.#driver.acquireConnection(options);
    } catch (error) {
      this.#queue.release();
      throw error;
    }
  }

  async releaseConnection(connection: DatabaseConnection, options?: AbortableOperationOptions): Promise<void> {
    try {
      await this.#driver.releaseConnection(connection, options);
    } finally {
      this.#queue.release();
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#driver.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#driver.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#driver.rollbackTransaction(connection);
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#driver.savepoint!(connection, name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#driver.rollbackToSavepoint!(connection, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#driver.releaseSavepoint!(connection, name, compile);
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.#driver.destroy(options);
  }
}
