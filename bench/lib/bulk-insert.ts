import pg from 'pg';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { valueLists, type SearchedTable } from '../../server/src/db/search-index.ts';
import type { BenchServer } from './server.ts';
import { whenUnlocked } from './sqlite-busy.ts';

export type Column = { name: string; pgType: 'text' | 'int' | 'bigint' };

/**
 * Inserts generated rows fast, outside the server (it is idle while seeding): on SQLite one prepared
 * statement in one transaction per 50,000 rows on a second connection to the file, with the table's
 * triggers (its search index's, db/search-index.ts) dropped meanwhile and the search index rebuilt in
 * one pass afterwards (and its value lists filled), then the triggers put back as they were; on PostgreSQL `insert … select * from unnest($1::text[], …)`
 * of 10,000 rows a statement. `row(i)` answers the values of row i in the order of `columns`.
 */
export async function bulkInsert(server: BenchServer, table: string, columns: Column[], count: number, row: (i: number) => (string | number)[]): Promise<void> {
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  if (server.dbKind === 'sqlite') {
    const raw = new DatabaseSync(server.sqliteFile!);
    raw.exec('PRAGMA busy_timeout = 0'); // waited for by whenUnlocked, not synchronously (bench/lib/sqlite-busy.ts)
    raw.exec('PRAGMA synchronous = OFF');
    raw.exec('PRAGMA cache_size = -262144');
    // each step one transaction whose write lock is taken at BEGIN (a deferred one would take it at its first
    // write and fail at once if the server committed since its read began), begun, done and committed in one
    // synchronous run: a step that yielded while holding the lock would let the server's connection, on this
    // same thread, wait out its busy timeout for a lock that cannot be released meanwhile
    const inTransaction = (work: () => void) => whenUnlocked(() => {
      raw.exec('begin immediate');
      try {
        work();
        raw.exec('commit');
      } catch (error) {
        raw.exec('rollback');
        throw error;
      }
    });
    const triggers = raw.prepare(`select name, sql from sqlite_master where type = 'trigger' and tbl_name = ?`).all(table) as { name: string; sql: string }[];
    await inTransaction(() => {
      for (const t of triggers) raw.exec(`drop trigger "${t.name}"`);
    });
    const insert = raw.prepare(`insert into "${table}" (${names}) values (${columns.map(() => '?').join(', ')})`);
    for (let start = 0; start < count; start += 50_000) {
      await inTransaction(() => {
        for (let i = start; i < Math.min(count, start + 50_000); i++) insert.run(...(row(i) as SQLInputValue[]));
      });
    }
    await inTransaction(() => {
      const search = raw.prepare(`select name from sqlite_master where type = 'table' and name = ?`).get(`${table}_search`);
      if (search) raw.exec(`insert into "${table}_search" ("${table}_search") values ('rebuild')`);
      // what the dropped value-list triggers would have listed (the value table's own search triggers stay)
      for (const [column, valueTable] of Object.entries(valueLists[table as SearchedTable] ?? {})) {
        raw.exec(`insert or ignore into "${valueTable}" (value) select distinct "${column}" from "${table}"`);
      }
      for (const t of triggers) raw.exec(t.sql);
    });
    raw.close();
    return;
  }
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  const unnest = columns.map((c, k) => `$${k + 1}::${c.pgType}[]`).join(', ');
  for (let start = 0; start < count; start += 10_000) {
    const arrays: (string | number)[][] = columns.map(() => []);
    for (let i = start; i < Math.min(count, start + 10_000); i++) row(i).forEach((value, k) => arrays[k]!.push(value));
    await client.query(`insert into "${table}" (${names}) select * from unnest(${unnest})`, arrays);
  }
  await client.end();
}
