import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import {
  CompiledQuery, SqliteAdapter, SqliteDialect, SqliteDriver, SqliteQueryCompiler, ValueNode,
  type DatabaseConnection, type DialectAdapter, type Driver, type LimitNode, type QueryCompiler, type SqliteDatabase, type SqliteDialectConfig, type SqliteStatement,
} from 'kysely';
import { QueuedConnectionDriver } from './connection-queue.ts';

// Kysely's SqliteDialect speaks the better-sqlite3 interface; node:sqlite's DatabaseSync is close
// but has no `reader` flag on statements. This bridges the two so no native addon is needed.
function adaptStatement(statement: StatementSync, prepareAgain: () => StatementSync): SqliteStatement {
  const columns = statement.columns().map((c) => c.name);
  const run: SqliteStatement['run'] = (parameters) => {
    const r = statement.run(...(parameters as SQLInputValue[]));
    return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
  };
  // A statement that yields columns returns rows (SELECT, or anything with RETURNING).
  if (columns.length === 0) {
    return {
      reader: false,
      all: (parameters) => statement.all(...(parameters as SQLInputValue[])) as unknown[],
      run,
      iterate: (parameters) => prepareAgain().iterate(...(parameters as SQLInputValue[])) as IterableIterator<unknown>,
    };
  }
  statement.setReturnArrays(true);
  const toRow = rowMakerOf(columns);
  return {
    reader: true,
    all: (parameters) => (statement.all(...(parameters as SQLInputValue[])) as unknown as unknown[][]).map(toRow),
    run,
    // A stream stays open across awaits while the same (cached) statement may run again: its own statement.
    iterate: (parameters) => {
      const own = prepareAgain();
      own.setReturnArrays(true);
      return rowsOf(own.iterate(...(parameters as SQLInputValue[])) as IterableIterator<unknown[]>, toRow);
    },
  };
}

function* rowsOf(read: IterableIterator<unknown[]>, toRow: RowMaker): IterableIterator<unknown> {
  for (const values of read) yield toRow(values);
}

type RowMaker = (values: unknown[]) => Record<string, unknown>;

/**
 * The function that makes a row object of a statement's values, for its column names: an object literal
 * of one shape, which V8 keeps in fast mode. node:sqlite's own row objects (null prototype, made key by
 * key in C++) cost more to make and to read: 10 rows of 14 columns read and copied in 38 µs against 20 µs
 * this way (a loop, docs/performance.md "Lists at scale"). A name given twice keeps its last value, as in
 * node:sqlite's objects; `__proto__` is written as a computed key, so it is a column like any other.
 */
function rowMakerOf(columns: string[]): RowMaker {
  const fields = columns.map((name, i) => `${name === '__proto__' ? `[${JSON.stringify(name)}]` : JSON.stringify(name)}: v[${i}]`);
  return new Function('v', `return { ${fields.join(', ')} };`) as RowMaker;
}

/** Waits are synchronous in node:sqlite: a busy timeout holds the thread for up to `busyTimeoutMs`. */
export function openSqlite(file: string, busyTimeoutMs = 5000): DatabaseSync {
  const database = new DatabaseSync(file, { timeout: busyTimeoutMs });
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA foreign_keys = ON');
  return database;
}

/** A statement that changes the schema (see withStatementCache). */
const CHANGES_SCHEMA = /^\s*(create|alter|drop)\s/i;

/** How many prepared statements a connection keeps (the product has a few hundred distinct ones). */
const STATEMENT_CACHE_SIZE = 500;

export function nodeSqliteDialect(database: DatabaseSync): SqliteDialect {
  return new QueuedSqliteDialect({ database: withStatementCache(database) });
}

/** SQLite's one connection lent in turn by `QueuedConnectionDriver` (db/connection-queue.ts) instead of Kysely's mutex. */
class QueuedSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new QueuedConnectionDriver(new ImmediateTransactionSqliteDriver(this.#config));
  }

  override createAdapter(): DialectAdapter {
    return new QueuedSqliteAdapter();
  }

  override createQueryCompiler(): QueryCompiler {
    return new LiteralLimitCompiler();
  }
}

/**
 * `limit 10`, not `limit ?` with 10 bound: SQLite marks a LIMIT parameter as one whose value may change the
 * plan, so binding it (node:sqlite binds every parameter on every run) expires the statement and the next run
 * compiles it again — 20 µs of CPU for 交易订单's page statement that finds nothing, whose probe costs 1.6 µs
 * (node:sqlite, 2026-11-27). A limit is one of a few numbers (a page size, a batch), so the statements stay few;
 * any other limit (an expression) is compiled as before. (db/list/paging.ts writes its limits as literals
 * itself, for its templates.)
 */
class LiteralLimitCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    const { limit } = node;
    if (ValueNode.is(limit) && typeof limit.value === 'number' && Number.isSafeInteger(limit.value) && limit.value >= 0) this.append(`limit ${limit.value}`);
    else super.visitLimit(node);
  }
}

/**
 * A transaction takes SQLite's write lock when it begins (BEGIN IMMEDIATE), not at its first write. A
 * deferred transaction that has read and then writes must upgrade its read snapshot; if another
 * connection to the file (a second process, a maintenance script, a test's fixture) committed in
 * between, SQLite refuses at once with "database is locked" (SQLITE_BUSY_SNAPSHOT), whatever the busy
 * timeout. Taken at BEGIN, the lock is waited for under the busy timeout like any write. The server has
 * one connection, lent in turn, so the earlier lock costs it nothing.
 */
class ImmediateTransactionSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class QueuedSqliteAdapter extends SqliteAdapter {
  // Kysely puts its own mutex in front of a dialect that says it has one connection; the driver queues instead.
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * The connection as Kysely's SqliteDialect sees it, keeping up to `size` prepared statements. Each query
 * used to prepare its statement again: 15% of the server's CPU on a cheap list request (profile in
 * docs/performance.md "Lists at scale"). A statement is reused by its text (SQLite prepares it again by
 * itself when the schema changes); once the cache is full, the least recently used one goes for a new one.
 */
export function withStatementCache(database: DatabaseSync, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare: (sql) => {
      const cached = statements.get(sql);
      if (cached) {
        // Recency matters only once the cache is full: until then a hit is one lookup, not three.
        if (statements.size >= size) {
          statements.delete(sql);
          statements.set(sql, cached);
        }
        return cached;
      }
      // A statement keeps the column names it was prepared with (rowMakerOf); once the schema changes, a
      // `select *` may yield other columns when SQLite prepares it again: the statements go, to be made
      // anew. A schema change itself is not kept, so each one passes here.
      const statement = adaptStatement(database.prepare(sql), () => database.prepare(sql));
      if (CHANGES_SCHEMA.test(sql)) {
        statements.clear();
        return statement;
      }
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
    close: () => {
      statements.clear();
      database.close();
    },
  };
}
