import type { AbortableOperationOptions, DatabaseConnection, Driver, QueryCompiler, TransactionSettings } from 'kysely';

/**
 * One connection lent to one caller at a time, in the order they asked. A release hands the connection
 * to the next waiter alone. Kysely's own mutex for single-connection dialects (ConnectionMutex:
 * `while (promise) await promise`) wakes every waiter on each release, and all but one go back to
 * waiting: with n queries queued behind a transaction, each hand-over costs n resumptions. Under the
 * terminal bench's 1,000 machines that was the mutex 4 % of the server's busy time, plus the
 * microtasks and garbage of the waiters woken for nothing (docs/performance.md "Terminal flow").
 */
export class ConnectionQueue {
  #lent = false;
  // The waiters as a linked list: taking the first is O(1) and nothing grows while the queue never empties.
  #first: Waiter | undefined;
  #last: Waiter | undefined;

  /** Resolves once the connection is the caller's; it stays so until `release`. */
  acquire(): Promise<void> {
    if (!this.#lent) {
      this.#lent = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const waiter: Waiter = { resolve, next: undefined };
      if (this.#last) this.#last.next = waiter;
      else this.#first = waiter;
      this.#last = waiter;
    });
  }

  release(): void {
    const next = this.#first;
    if (!next) {
      this.#lent = false;
      return;
    }
    this.#first = next.next;
    if (!this.#first) this.#last = undefined;
    next.resolve(); // still lent: straight to the next caller, so no newcomer can slip in between
  }

  /** Callers waiting for the connection (tests). */
  get waiting(): number {
    let count = 0;
    for (let waiter = this.#first; waiter; waiter = waiter.next) count += 1;
    return count;
  }
}

type Waiter = { resolve: () => void; next: Waiter | undefined };

/**
 * A single-connection driver whose connection is lent through a `ConnectionQueue`. The dialect that
 * uses it says it supports several connections, so Kysely does not put its own mutex in front.
 */
export class QueuedConnectionDriver implements Driver {
  readonly #driver: Driver;
  readonly #queue = new ConnectionQueue();

  constructor(driver: Driver) {
    this.#driver = driver;
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
