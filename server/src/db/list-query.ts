import { sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { LIST_COUNT_BOUND, type PageQuery } from '@huiyun/contract';
import { dialectOf } from './dialect.ts';
import { searchIndexes, searchTableOf, type SearchedColumn, type SearchedTable } from './search-index.ts';

// The shared list machinery: every paged list of the product reads its page here (`listPage`), and
// every list route is registered by http/list-routes.ts. How a list stays fast at a million rows
// (issue 14, docs/performance.md "Lists at scale") is decided here once for all lists:
// - contains filters read a trigram index (`contains`, db/search-index.ts);
// - the default sort and the equality filters read composite indexes (migration 0010);
// - the page is read first, and counted only when it is full, at most LIST_COUNT_BOUND + 1 rows;
// - a page starting past LIST_COUNT_BOUND is not read (the offset a page walks is bounded).

/**
 * `column` (of `table`, as the query names it: `u.userName` or `userName`) contains `text`,
 * case-insensitively, with % and _ in the text taken literally; backed by the column's trigram index.
 */
export function contains<T extends SearchedTable>(db: Kysely<any>, table: T, column: `${string}.${SearchedColumn<T>}` | SearchedColumn<T>, text: string): Expression<SqlBool> {
  const dot = column.lastIndexOf('.');
  const name = column.slice(dot + 1);
  const spec = searchIndexes[table];
  if (!(spec.columns as readonly string[]).includes(name)) throw new Error(`${table}.${name} has no search index (db/search-index.ts)`);
  const escaped = text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  const pattern = `%${escaped}%`;
  if (dialectOf(db) === 'postgres') return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
  // SQLite's LIKE already ignores ASCII case (its lower() knows no other), so the column is compared as is.
  if ([...text].length < 3) return sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
  const key = dot < 0 ? spec.key : `${column.slice(0, dot)}.${spec.key}`;
  const search = searchTableOf(table);
  const phrase = `${name} : "${text.replaceAll('"', '""')}"`;
  return sql<SqlBool>`${sql.ref(key)} in (select rowid from ${sql.table(search)} where ${sql.table(search)} match ${phrase})`;
}

/** A list's sortable API fields → the columns they sort by (a whitelist: client text never reaches the SQL). */
type SortColumns = Readonly<Record<string, string>>;

/**
 * The sort whitelist of a list, from the contract's `*SortFields` (the one truth the screen's sortable
 * columns use too): each field sorts by `table.field`, or by the column `columns` names for it.
 */
export function sortColumnsOf<F extends string>(
  fields: readonly F[],
  options: { table?: string; columns?: Partial<Record<F, string>> } = {},
): SortColumns {
  const prefix = options.table ? `${options.table}.` : '';
  return Object.fromEntries(fields.map((field) => [field, options.columns?.[field] ?? `${prefix}${field}`]));
}

/** The paging of a list: page/limit (system lists) as is; pageNum/pageSize (task-area lists, no sorting) mapped. */
export type Paging = Pick<PageQuery, 'page' | 'limit' | 'sortField' | 'sortOrder'>;

function pagingOf(query: Paging | { pageNum: number; pageSize: number }): Paging {
  if ('pageNum' in query) return { page: query.pageNum, limit: query.pageSize, sortField: '', sortOrder: '' };
  return query;
}

type ListOptions = { sortColumns: SortColumns; defaultSort: [string, 'asc' | 'desc']; tieBreaker: string };

/**
 * One page of a filtered query plus the total, the shape every list call answers. Sorting is by a
 * whitelisted column only (the client names an API field, never a column), then by `tieBreaker` so
 * paging is stable. `selectColumns` picks the row's columns; end it with `.$castTo<Row>()` to name
 * the row type the mapper takes.
 *
 * The total is exact up to LIST_COUNT_BOUND and LIST_COUNT_BOUND + 1 beyond (共 10,000+ 条): a page
 * that is not full needs no count at all (offset + its rows), a full one counts at most
 * LIST_COUNT_BOUND + 1 rows. Pages starting past the bound answer no rows.
 */
export async function listPage<DB, TB extends keyof DB, O, SelectDB, SelectTB extends keyof SelectDB>(
  db: Kysely<any>,
  filtered: SelectQueryBuilder<DB, TB, {}>,
  selectColumns: (qb: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<SelectDB, SelectTB, O>,
  query: Paging | { pageNum: number; pageSize: number },
  options: ListOptions,
): Promise<{ rows: O[]; total: number }> {
  const paging = pagingOf(query);
  const offset = (paging.page - 1) * paging.limit;
  if (offset > LIST_COUNT_BOUND) return { rows: [], total: await countUpTo(db, filtered, LIST_COUNT_BOUND + 1) };
  const sortColumn = Object.hasOwn(options.sortColumns, paging.sortField) ? options.sortColumns[paging.sortField] : undefined;
  const [orderColumn, direction] = sortColumn && paging.sortOrder
    ? [sortColumn, paging.sortOrder === 'ascend' ? 'asc' as const : 'desc' as const]
    : options.defaultSort;
  const rows = (await selectColumns(filtered)
    .orderBy(sql.ref(orderColumn), direction)
    .orderBy(sql.ref(options.tieBreaker), direction)
    .limit(paging.limit)
    .offset(offset)
    .execute()) as O[];
  if (rows.length > 0 && rows.length < paging.limit) return { rows, total: offset + rows.length };
  if (rows.length === 0 && offset === 0) return { rows, total: 0 };
  return { rows, total: await countUpTo(db, filtered, LIST_COUNT_BOUND + 1) };
}

/** The rows of `filtered`, counted up to `most`: never more work than reading that many rows. */
async function countUpTo<DB, TB extends keyof DB>(db: Kysely<any>, filtered: SelectQueryBuilder<DB, TB, {}>, most: number): Promise<number> {
  const bounded = filtered.select(sql.lit(1).as('one')).limit(most).as('bounded');
  const counted = await db
    .selectFrom(bounded)
    .select(sql<number | string>`count(*)`.as('total'))
    .executeTakeFirst();
  return Number(counted?.total ?? 0);
}
