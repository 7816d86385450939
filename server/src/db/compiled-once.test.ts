import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDbKind } from '../test/test-database.ts';
import { useTestDatabase } from '../test/use-test-database.ts';
import { compiledOnce } from './compiled-once.ts';

describe('compiledOnce', () => {
  const database = useTestDatabase();

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

  it.runIf(testDbKind() === 'postgres')('refuses on PostgreSQL a statement that would be sent unnamed, parsed and planned each call', async () => {
    const pick = compiledOnce<{ a: number; b: number }, { n: number }>((db, v) => db
      .selectFrom(sql<{ n: number }>`(select 1 as n)`.as('t'))
      .select('t.n')
      .where('t.n', 'in', [v.a, v.b]));
    await expect(pick(database().db, { a: 1, b: 2 })).rejects.toThrow(/would not be prepared/);
  });
});
