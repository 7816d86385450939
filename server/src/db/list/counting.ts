import { sql, type CompiledQuery, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { LIST_COUNT_BOUND, SEARCH_COUNT_STEP } from '@huiyun/contract';
import { dialectOf } from '../dialect.ts';
import { listMemoryOf, statementKeyOf } from './memory.ts';
import type { Search } from './search.ts';

// A list's total: counted up to a bound (共 10,000+ 条), remembered a few seconds when it reached it.

/**
 * How far the count of a list's rows goes: LIST_COUNT_BOUND; for a list filtered by a contains search
 * the multiple of `step` (SEARCH_COUNT_STEP) that holds the page — 1,000 for pages 1–100 at 10 a page,
 * 2,000 for 101–200 — so a full page always leaves the next page offered when rows continue.
 */
export function countBoundOf(offset: number, limit: number, searched: boolean, step = SEARCH_COUNT_STEP): number {
  if (!searched) return LIST_COUNT_BOUND;
  return Math.min(LIST_COUNT_BOUND, step * Math.max(1, Math.ceil((offset + limit) / step)));
}

/** The rows of `filtered`, counted up to `bound` + 1 (as `total`): at most that many index entries read. */
export function boundedCount(db: Kysely<any>, filtered: SelectQueryBuilder<any, any, {}>, bound: number) {
  return db.selectFrom(filtered.select(sql.lit(1).as('one')).limit(sql.lit(bound + 1)).as('bounded')).select(sql<number | string>`count(*)`.as('total'));
}

/**
 * The statement counting `filtered` up to `bound` + 1. With a `streamed` search (SQLite) it walks that
 * search's FTS5 matches in key order and checks each one's row against the filter, so it stops after
 * bound + 1 rows found instead of reading every match; `phrase` is its FTS5 question (a template's stand-in).
 */
export function countStatementOf(db: Kysely<any>, filtered: SelectQueryBuilder<any, any, {}>, bound: number, streamed?: Search, phrase: unknown = streamed?.phrase): SelectQueryBuilder<any, any, { total: number | string }> {
  if (!streamed) return boundedCount(db, filtered, bound);
  const search = sql.table(streamed.search);
  const row = filtered.select(sql.lit(1).as('one')).where(sql.ref(streamed.keyRef), '=', sql.ref(`${streamed.search}.rowid`));
  const matches = db.selectFrom(search.as(streamed.search) as never).select(sql.lit(1).as('one'))
    .where(sql<SqlBool>`${search} match ${phrase}`).where(({ exists }) => exists(row as never)).limit(sql.lit(bound + 1)).as('bounded');
  return db.selectFrom(matches).select(sql<number | string>`count(*)`.as('total'));
}

/**
 * The count a page's statement carries: one exact lately (at most its bound 10 s ago) or a rare term's few
 * keys. SQLite counts it plainly: the bounded form (a subquery with LIMIT) runs as a co-routine handing each
 * row to the count, ~1.6× the work (a company administrator's 10,000 tasks: 340 against 208 µs), and a count
 * at most its bound so lately can only have grown by what was written since. PostgreSQL keeps the bounded
 * form: its LIMIT costs little there, and the planner may read a plain count another way.
 */
export function countInPage(db: Kysely<any>, filtered: SelectQueryBuilder<any, any, {}>, bounded: () => SelectQueryBuilder<any, any, { total: number | string }>) {
  return dialectOf(db) === 'sqlite' ? filtered.select(sql<number>`count(*)`.as('total')) : bounded();
}

/** Runs a count statement (`countStatementOf`), or answers the bound + 1 it reached lately without running it. */
export async function countUpTo(db: Kysely<any>, query: CompiledQuery, bound: number): Promise<{ total: number; totalBounded: true | undefined }> {
  const memory = listMemoryOf(db);
  const key = statementKeyOf(query);
  if (memory.boundedCounts.get(key)) return { total: bound + 1, totalBounded: true };
  const total = Number((await db.executeQuery<{ total: number | string }>(query)).rows[0]?.total ?? 0);
  memory.rememberCount(key, total, bound);
  return { total, totalBounded: total > bound ? true : undefined };
}
