import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { expect, it } from 'vitest';
import { shanghaiDayStart } from '@huiyun/contract';
import { withinShanghaiDays } from './day-range.ts';

// The day filter on its own, compiled without a database: each bound present only when its day is.

const db = new Kysely<{ log: { at: number } }>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
const compiled = (firstDay: string, lastDay: string) => withinShanghaiDays(db.selectFrom('log as l').select('l.at'), 'l.at', firstDay, lastDay).compile();

it('keeps a column from the first day\'s Shanghai midnight to before the midnight after the last', () => {
  const { sql, parameters } = compiled('2026-03-01', '2026-03-02');
  expect(sql).toBe('select "l"."at" from "log" as "l" where "l"."at" >= ? and "l"."at" < ?');
  expect(parameters).toEqual([shanghaiDayStart('2026-03-01'), shanghaiDayStart('2026-03-03')]);
  expect(parameters[1]).toBe(Date.parse('2026-03-02T16:00:00Z'));
});

it('bounds only the side whose day is given, and nothing without days', () => {
  expect(compiled('2026-03-01', '').sql).toBe('select "l"."at" from "log" as "l" where "l"."at" >= ?');
  expect(compiled('', '2026-03-02').sql).toBe('select "l"."at" from "log" as "l" where "l"."at" < ?');
  expect(compiled('', '').sql).toBe('select "l"."at" from "log" as "l"');
});
