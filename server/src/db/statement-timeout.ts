import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type AbortableOperationOptions, type DatabaseConnection, type Driver, type QueryCompiler, type QueryResult, type TransactionSettings } from 'kysely';

// A statement timeout for the work of one caller (a console read, an export: http/statement-timeouts.ts),
// PostgreSQL only. The caller's bound rides in an AsyncLocalStorage; a connection is set to it when it is
// lent (`set statement_timeout`) and keeps it, so the next caller of the same kind pays nothing, and one of
// another kind (a terminal call, a job: no bound) has it reset. A connection of a pool is lent to the
// statements of one request in a row more often than not (pg-pool hands out the last one released), so
// a console read costs one round trip more, and the call after it another one.

const bounds = new AsyncLocalStorage<number>();

/** Runs `work` (and everything it starts) with every statement bounded by `ms` (0: the database's own setting). */
export function withStatementTimeout<T>(ms: number, work: () => T): T {
  return bounds.run(ms, work);
}

/** PostgreSQL cancelled a statement for its statement_timeout (SQLSTATE 57014 with that reason). */
export function isStatementTimeout(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === '57014' && typeof e.message === 'string' && e.message.includes('statement timeout');
}

/** Statements cancelled by their timeout so far. */
export type StatementTimeoutCount = { timedOut: number };

/**
 * Wraps a PostgreSQL driver: a connection is lent with the statement timeout of the caller's bound, and
 * a statement cancelled by it is counted.
 */
export class StatementTimeoutDriver implements Driver {
  readonly #driver: Driver;
  readonly #count: StatementTimeoutCount;
  /** Each connection's current setting; absent or 0: the database's own (a new connection). */
  readonly #set = new WeakMap<DatabaseConnection, number>();

  constructor(driver: Driver, count: StatementTimeoutCount) {
    this.#driver = driver;
    this.#count = count;
  }

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.#driver.init(options);
  }

  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    const connection = await this.#driver.acquireConnection(options);
    const wanted = bounds.getStore() ?? 0;
    if ((this.#set.get(connection) ?? 0) !== wanted) {
      try {
        await connection.executeQuery(CompiledQuery.raw(wanted > 0 ? `set statement_timeout = ${Math.trunc(wanted)}` : 'reset statement_timeout'));
      } catch (error) {
        this.#set.delete(connection);
        await this.#driver.releaseConnection(connection, options);
        throw error;
      }
      this.#set.set(connection, wanted);
    }
    return wanted > 0 ? new CountedConnection(connection, this.#count) : connection;
  }

  releaseConnection(connection: DatabaseConnection, options?: AbortableOperationOptions): Promise<void> {
    return this.#driver.releaseConnection(inner(connection), options);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#driver.beginTransaction(inner(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#driver.commitTransaction(inner(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#driver.rollbackTransaction(inner(connection));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#driver.savepoint!(inner(connection), name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#driver.rollbackToSavepoint!(inner(connection), name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.#driver.releaseSavepoint!(inner(connection), name, compile);
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.#driver.destroy(options);
  }
}

const inner = (connection: DatabaseConnection) => (connection instanceof CountedConnection ? connection.inner : connection);

/** A bounded caller's connection: its statements' timeouts are counted (the driver's own connection underneath). */
class CountedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  readonly #count: StatementTimeoutCount;
  readonly cancelQuery?: DatabaseConnection['cancelQuery'];
  readonly collectSessionInfo?: DatabaseConnection['collectSessionInfo'];
  readonly killSession?: DatabaseConnection['killSession'];

  constructor(connection: DatabaseConnection, count: StatementTimeoutCount) {
    this.inner = connection;
    this.#count = count;
    // what Kysely asks of a connection when a caller aborts, answered by the driver's own
    this.cancelQuery = connection.cancelQuery?.bind(connection);
    this.collectSessionInfo = connection.collectSessionInfo?.bind(connection);
    this.killSession = connection.killSession?.bind(connection);
  }

  async executeQuery<R>(query: CompiledQuery, options?: AbortableOperationOptions): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query, options);
    } catch (error) {
      if (isStatementTimeout(error)) this.#count.timedOut += 1;
      throw error;
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number, options?: AbortableOperationOptions): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize, options);
  }
}
