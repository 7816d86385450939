import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../test/test-database.ts';
import { useTestDatabase } from '../test/use-test-database.ts';
import { compiledOnce, compiledWrite } from './compiled-once.ts';
import { migrateToLatest } from './migrate.ts';

describe('compiledOnce', () => {
  const database = useTestDatabase();
  beforeAll(async () => {
    await migrateToLatest(database().db);
  });

  it('builds a statement once and runs it with each call’s values in their places', async () => {
    let builds = 0;
    const pick = compiledOnce<{ min: number; max: number; label: string }, { n: number; label: string }>((db, v) => {
      builds += 1;
      return db
        .selectFrom(sql<{ n: number }>`(select 1 as n union all select 2 union all select 3 union all select 4)`.as('t'))
        .select(['t.n', sql<string>`${v.label}`.as('label')])
        .where('t.n', '>=', v.min)
        .where('t.n', '<=', v.max)
        .orderBy('t.n');
    });
    expect(await pick(database().db, { min: 2, max: 3, label: 'a' })).toEqual([{ n: 2, label: 'a' }, { n: 3, label: 'a' }]);
    expect(await pick(database().db, { min: 4, max: 9, label: 'b' })).toEqual([{ n: 4, label: 'b' }]);
    expect(builds).toBe(1);
  });

  it('runs a write built once and answers how many rows it changed', async () => {
    const { db } = database();
    let builds = 0;
    const rename = compiledWrite<{ from: string; to: string }>((q, v) => {
      builds += 1;
      return q.updateTable('sys_variable').set({ varValue: v.to }).where('varValue', '=', v.from);
    });
    await db.insertInto('sys_variable').values(['a', 'a', 'b'].map((varValue, k) => ({
      varLable: `标签${k}`, varName: `compiled_${k}`, varValue, deptId: null, addUser: 'admin', editUser: 'admin', addTime: 1, editTime: 1,
    }))).execute();
    expect(await rename(db, { from: 'a', to: 'c' })).toBe(2);
    expect(await rename(db, { from: 'a', to: 'd' })).toBe(0);
    expect(await rename(db, { from: 'b', to: 'c' })).toBe(1);
    expect(builds).toBe(1);
    const values = await db.selectFrom('sys_variable').select('varValue').where('varName', 'like', 'compiled_%').orderBy('varName').execute();
    expect(values.map((v) => v.varValue)).toEqual(['c', 'c', 'c']);
  });

  it.runIf(testDbKind() === 'postgres')('refuses on PostgreSQL a statement that would be sent unnamed, parsed and planned each call', async () => {
    const pick = compiledOnce<{ a: number; b: number }, { n: number }>((db, v) => db
      .selectFrom(sql<{ n: number }>`(select 1 as n)`.as('t'))
      .select('t.n')
      .where('t.n', 'in', [v.a, v.b]));
    await expect(pick(database().db, { a: 1, b: 2 })).rejects.toThrow(/would not be prepared/);
  });
});
