import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { PageQuery } from '@huiyun/contract';

/** `column` contains `text`, case-insensitively, with % and _ in the text taken literally. */
export function contains(column: string, text: string): Expression<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

export type SortColumns = Record<string, string>;

/**
 * One page of a filtered query plus the total, the shape every list call answers. Sorting is by a
 * whitelisted column only (the client names an API field, never a column), then by `tieBreaker` so
 * paging is stable.
 */
export async function listPage<O>(
  filtered: SelectQueryBuilder<any, any, {}>,
  selectColumns: (qb: SelectQueryBuilder<any, any, {}>) => SelectQueryBuilder<any, any, any>,
  query: PageQuery,
  options: { sortColumns: SortColumns; defaultSort: [string, 'asc' | 'desc']; tieBreaker: string },
): Promise<{ rows: O[]; total: number }> {
  const { total } = (await filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst()) as { total: number };
  if (Number(total) === 0) return { rows: [], total: 0 };
  const sortColumn = options.sortColumns[query.sortField];
  const [orderColumn, direction] = sortColumn && query.sortOrder
    ? [sortColumn, query.sortOrder === 'ascend' ? 'asc' as const : 'desc' as const]
    : options.defaultSort;
  const rows = await selectColumns(filtered)
    .orderBy(orderColumn, direction)
    .orderBy(options.tieBreaker, direction)
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return { rows: rows as O[], total: Number(total) };
}
