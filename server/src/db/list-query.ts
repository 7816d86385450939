import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { PageQuery } from '@huiyun/contract';

// The shared list machinery: every paged list of the product reads its page here (`listPage`), and
// every list route is registered by http/list-routes.ts. Making lists fast (issue 14: index-backed
// filters, bounded counts, keyset pages) is a change to these two files, not to each list.

/** `column` contains `text`, case-insensitively, with % and _ in the text taken literally. */
export function contains(column: string, text: string): Expression<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
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
 */
export async function listPage<DB, TB extends keyof DB, O, SelectDB, SelectTB extends keyof SelectDB>(
  filtered: SelectQueryBuilder<DB, TB, {}>,
  selectColumns: (qb: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<SelectDB, SelectTB, O>,
  query: Paging | { pageNum: number; pageSize: number },
  options: ListOptions,
): Promise<{ rows: O[]; total: number }> {
  const paging = pagingOf(query);
  const counted = await filtered.select(sql`count(*)`.as('total')).$castTo<{ total: number | string }>().executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  if (total === 0) return { rows: [], total: 0 };
  const sortColumn = Object.hasOwn(options.sortColumns, paging.sortField) ? options.sortColumns[paging.sortField] : undefined;
  const [orderColumn, direction] = sortColumn && paging.sortOrder
    ? [sortColumn, paging.sortOrder === 'ascend' ? 'asc' as const : 'desc' as const]
    : options.defaultSort;
  const rows = await selectColumns(filtered)
    .orderBy(sql.ref(orderColumn), direction)
    .orderBy(sql.ref(options.tieBreaker), direction)
    .limit(paging.limit)
    .offset((paging.page - 1) * paging.limit)
    .execute();
  return { rows: rows as O[], total };
}
