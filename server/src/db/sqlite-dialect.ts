import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

// Kysely's SqliteDialect speaks the better-sqlite3 interface; node:sqlite's DatabaseSync is close
// but has no `reader` flag on statements. This bridges the two so no native addon is needed.
function adaptStatement(statement: ReturnType<DatabaseSync['prepare']>): SqliteStatement {
  return {
    // A statement that yields columns returns rows (SELECT, or anything with RETURNING).
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...(parameters as SQLInputValue[])) as unknown[],
    run: (parameters) => {
      const r = statement.run(...(parameters as SQLInputValue[]));
      return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
    },
    iterate: (parameters) => statement.iterate(...(parameters as SQLInputValue[])) as IterableIterator<unknown>,
  };
}

export function openSqlite(file: string): DatabaseSync {
  const database = new DatabaseSync(file, { timeout: 5000 });
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA foreign_keys = ON');
  return database;
}

export function nodeSqliteDialect(database: DatabaseSync): SqliteDialect {
  const adapted: SqliteDatabase = {
    prepare: (sql) => adaptStatement(database.prepare(sql)),
    close: () => database.close(),
  };
  return new SqliteDialect({ database: adapted });
}
