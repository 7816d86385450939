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

it('reads rows as objects of their columns, one shape for a statement, in all and in iterate', () => {
  const connection = withStatementCache(new DatabaseSync(':memory:'));
  connection.prepare('create table t (a integer, "__proto__" text, b text)').run([]);
  connection.prepare('insert into t values (?, ?, ?), (?, ?, ?)').run([1, 'p1', 'x', 2, 'p2', null]);
  const select = connection.prepare('select a, "__proto__", b, a as b from t order by a');
  expect(select.reader).toBe(true);
  const rows = select.all([]) as Record<string, unknown>[];
  // a name given twice keeps its last value, as node:sqlite's own rows do; __proto__ is a column, not the prototype
  expect(rows.map((r) => Object.entries(r))).toEqual([[['a', 1], ['__proto__', 'p1'], ['b', 1]], [['a', 2], ['__proto__', 'p2'], ['b', 2]]]);
  expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  expect([...select.iterate([])]).toEqual(rows);
  expect(connection.prepare('insert into t (a) values (3) returning a, b').all([])).toEqual([{ a: 3, b: null }]);
  connection.close();
});

it('a kept `select *` yields the columns of the schema after a change, also after the same change again', () => {
  const connection = withStatementCache(new DatabaseSync(':memory:'));
  const run = (sql: string) => connection.prepare(sql).run([]);
  const all = () => connection.prepare('select * from t').all([]);
  run('create table t (a integer)');
  run('insert into t values (1)');
  expect(all()).toEqual([{ a: 1 }]);
  for (let round = 0; round < 2; round++) {
    run('alter table t add column b text');
    expect(all()).toEqual([{ a: 1, b: null }]);
    run('alter table t drop column b');
    expect(all()).toEqual([{ a: 1 }]);
  }
  connection.close();
});

it('writes a limit as a literal, an offset and any other value as a parameter (a bound LIMIT is compiled again at each run)', () => {
  const db = new Kysely<{ t: { n: number } }>({ dialect: nodeSqliteDialect(new DatabaseSync(':memory:')) });
  const compiled = db.selectFrom('t').select('n').where('n', '>', 5).limit(10).offset(20).compile();
  expect(compiled.sql).toBe('select "n" from "t" where "n" > ? limit 10 offset ?');
  expect(compiled.parameters).toEqual([5, 20]);
  expect(db.selectFrom('t').select('n').limit(-1).compile().parameters).toEqual([-1]); // not a count of rows: as before
});
