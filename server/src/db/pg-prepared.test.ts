import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDbKind } from '../test/test-database.ts';
import { useTestDatabase } from '../test/use-test-database.ts';
import { isPreparable } from './pg-prepared.ts';

describe('isPreparable', () => {
  it('leaves texts whose parameter count follows the data unnamed', () => {
    expect(isPreparable('select "id" from "t" where "a" = $1 and "b" = $2 limit $3')).toBe(true);
    expect(isPreparable('insert into "t" ("a", "b") values ($1, $2)')).toBe(true);
    expect(isPreparable('update "t" set "a" = $1 where "id" in ($2, $3, $4)')).toBe(false);
    expect(isPreparable('select 1 from "t" where "id" not in ($1, $2)')).toBe(false);
    expect(isPreparable('insert into "t" ("a", "b") values ($1, $2), ($3, $4)')).toBe(false);
    expect(isPreparable('select * from unnest($1::int[], $2::boolean[]) as r(id, sent)')).toBe(true);
  });
});

describe.runIf(testDbKind() === 'postgres')('prepared statements on PostgreSQL', () => {
  const database = useTestDatabase();

  it('prepares a repeated statement once per connection, and no statement with a variable list', async () => {
    await database().db.connection().execute(async (db) => {
      for (let i = 0; i < 3; i++) await sql`select ${i}::int + 1 as n`.execute(db);
      const list = await sql<{ n: number }>`select count(*)::int as n from (values (1), (2), (3)) as v(x) where x in (${1}, ${2})`.execute(db);
      expect(list.rows[0].n).toBe(2);
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db);
      const statements = prepared.rows.map((r) => r.statement);
      expect(statements.filter((s) => s.startsWith('select $1::int + 1'))).toHaveLength(1);
      expect(statements.some((s) => s.includes('x in ('))).toBe(false);
    });
  });
});
