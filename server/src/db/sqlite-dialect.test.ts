import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { nodeSqliteDialect, openSqlite, withStatementCache } from './sqlite-dialect.ts';

it('reuses a statement by its text, and once full lets the least recently used one go', () => {
  const connection = withStatementCache(new DatabaseSync(':memory:'), 3);
  const one = connection.prepare('select 1 as n');
  expect(connection.prepare('select 1 as n')).toBe(one);
  expect(one.all([])).toEqual([{ n: 1 }]);
  const two = connection.prepare('select 2 as n');
  connection.prepare('select 3 as n'); // full: 1, 2, 3
  expect(connection.prepare('select 1 as n')).toBe(one); // used: now the most recent
  connection.prepare('select 4 as n'); // 2 goes
  expect(connection.prepare('select 1 as n')).toBe(one);
  expect(connection.prepare('select 2 as n')).not.toBe(two); // prepared again; 3 went for it
  connection.close();
});

it('a transaction that reads, then writes, is not refused when another connection wrote in between', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-immediate-'));
  const file = path.join(dir, 'db.sqlite');
  const db = new Kysely<{ t: { n: number } }>({ dialect: nodeSqliteDialect(openSqlite(file)) });
  // another process's connection (a script, a test fixture); no busy wait, so a held lock shows at once
  const other = new DatabaseSync(file, { timeout: 0 });
  try {
    await db.schema.createTable('t').addColumn('n', 'integer').execute();
    let outsideWrite = 'not tried';
    await db.transaction().execute(async (trx) => {
      await trx.selectFrom('t').selectAll().execute();
      try {
        other.exec('insert into t values (2)');
        outsideWrite = 'committed';
      } catch (error) {
        outsideWrite = (error as Error).message;
      }
      // a deferred BEGIN failed here with "database is locked" once the outside write had committed
      await trx.insertInto('t').values({ n: 1 }).execute();
    });
    expect(outsideWrite).toBe('database is locked'); // the transaction held the write lock from its start
    other.exec('insert into t values (2)');
    expect((await db.selectFrom('t').select('n').orderBy('n').execute()).map((r) => r.n)).toEqual([1, 2]);
  } finally {
    other.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
