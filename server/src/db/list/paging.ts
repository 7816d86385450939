import { sql, AliasNode, IdentifierNode, SelectQueryNode, TableNode, type Expression, type InferResult, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { LIST_COUNT_BOUND, type PageQuery } from '@huiyun/contract';
import { dialectOf } from '../dialect.ts';
import type { OwnValues } from '../list-templates.ts';
import { searchIndexes } from '../search-index.ts';
import { countBoundOf, countInPage, countStatementOf, countUpTo } from './counting.ts';
import { decodeCursor, encodeCursor, isCursorValue, type Cursor } from './cursor.ts';
import { listMemoryOf, statementKeyOf } from './memory.ts';
import { planSearches, type ForcedPlan, type SearchForm } from './search-plan.ts';
import type { ListSearch, Search } from './search.ts';

// The shared list machinery: every paged list of the product reads its page here (`listPage`); how a
// list stays fast at a million rows is in docs/performance.md ("Lists at scale").

/** A list's sortable API fields → the columns they sort by (a whitelist: client text never reaches the SQL). */
export type SortColumns = Readonly<Record<string, string>>;

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
export type Paging = Pick<PageQuery, 'page' | 'limit' | 'sortField' | 'sortOrder'> & { after?: string };

export function pagingOf(query: Paging | { pageNum: number; pageSize: number; after?: string }): Paging {
  if ('pageNum' in query) return { page: query.pageNum, limit: query.pageSize, sortField: '', sortOrder: '', after: query.after };
  return query;
}

export type ListOptions = {
  sortColumns: SortColumns;
  /** The list's contains filters (`contains`), ANDed to `filtered`: listPage chooses how each is read. */
  searches?: readonly ListSearch[];
  defaultSort: [string, 'asc' | 'desc'];
  tieBreaker: string;
  /** Tests only: read every search of the query one way instead of choosing per term (planSearches). */
  searchPlan?: ForcedPlan;
  /** Tests only: told the form each search is read with, for the page and for the count. */
  onSearchPlan?: (forms: { page: SearchForm[]; count: SearchForm[] }) => void;
  /** Tests only: the step of a searched list's count, instead of SEARCH_COUNT_STEP (a small one needs fewer rows). */
  searchCountStep?: number;
};

/**
 * What `listPage` answers, and every list's query passes on: the page, the total, whether the count stopped
 * at a bound, and where the next page starts (`next`, a cursor the client sends back as `after`).
 * `totalBounded` and `next` are required keys (their value may be undefined) so a list that builds its own
 * answer and drops one does not compile: pass `{ ...listed, rows: listed.rows.map(toX) }`.
 */
/** The row a list's column function selects, as Kysely infers it from the schema (db/schema.ts): what the list's mapper takes. */
export type SelectedRow<F extends (...args: never[]) => SelectQueryBuilder<any, any, any>> = InferResult<ReturnType<F>>[number];

export type Listed<Row> = { rows: Row[]; total: number; totalBounded: true | undefined; next: string | undefined };

/**
 * One page of a filtered query plus the total, the shape every list call answers. Sorting is by a
 * whitelisted column only (the client names an API field, never a column), then by `tieBreaker` so
 * paging is stable. `selectColumns` picks the row's columns; the rows are of the type Kysely infers
 * from the schema (the mapper takes `SelectedRow<typeof selectColumns>`).
 *
 * The total is exact up to the count's bound (`countBoundOf`: LIST_COUNT_BOUND, or a step of
 * SEARCH_COUNT_STEP when a contains filter is in the query) and the bound + 1 beyond, with
 * `totalBounded` (共 10,000+ 条, 共 1,000+ 条): a page that is not full needs no count at all (offset +
 * its rows), a full one counts at most the bound + 1 rows. Pages starting past LIST_COUNT_BOUND answer no rows.
 *
 * A page is read in two steps when the list's table can be named by its key (a single table, sorted on
 * its own columns, the tie-breaker its integer key): the keys of the page off the sort index, then the
 * page's columns and joins for those rows only — not for every row skipped or sorted.
 */
export async function listPage<DB, TB extends keyof DB, O, SelectDB, SelectTB extends keyof SelectDB>(
  db: Kysely<any>,
  filtered: SelectQueryBuilder<DB, TB, {}>,
  selectColumns: (qb: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<SelectDB, SelectTB, O>,
  query: Paging | { pageNum: number; pageSize: number; after?: string },
  options: ListOptions,
): Promise<Listed<O>> {
  const paging = pagingOf(query);
  const offset = (paging.page - 1) * paging.limit;
  const filteredNode = filtered.toOperationNode() as SelectQueryNode;
  const searches = options.searches ?? [];
  const bound = countBoundOf(offset, paging.limit, searches.length > 0, options.searchCountStep);
  const streamable = dialectOf(db) === 'sqlite' && !filteredNode.joins?.length && !filteredNode.groupBy;
  const planned = searches.flatMap((s) => (s.search ? [s.search] : []));
  const plan = planned.length > 0 ? await planSearches(db, planned, streamable, options.searchPlan) : undefined;
  if (plan) options.onSearchPlan?.(plan.forms);
  // the searches ANDed to the filtered query, each in the form chosen for the page and for the count
  const withSearches = (chosen?: Map<Search, Expression<SqlBool>>) =>
    searches.reduce((q, s) => q.where((s.search && chosen?.get(s.search)) || s.condition), filtered);
  const forPage = withSearches(plan?.page);
  const forCount = plan ? withSearches(plan.count) : forPage;
  const memory = listMemoryOf(db);
  // A list reads its statements from templates once its column function is known (db/list-templates.ts). A
  // streamed count's FTS5 question is a value of the search's, not of its query: one of the template's own.
  const shapes = memory.shapes.shapesOf(selectColumns);
  const streamed = plan?.streamed;
  const countOwn: OwnValues = { ...NO_OWN_VALUES, phrase: streamed?.phrase };
  const countOf = (values: OwnValues) => countStatementOf(db, forCount, bound, streamed, values.phrase);
  let counting: ReturnType<typeof countStatementOf> | undefined; // built once, whether run alone or in the page's statement
  const countStatement = () => (counting ??= countOf(countOwn));
  const countShape = streamed ? `count ${bound} streamed ${streamed.search} ${streamed.keyRef}` : `count ${bound}`;
  const countQuery = shapes ? shapes.statement(countShape, [forCount], countOf, countOwn) : countStatement().compile();
  if (offset > LIST_COUNT_BOUND) return { rows: [], ...await countUpTo(db, countQuery, bound), next: undefined };
  const sortColumn = Object.hasOwn(options.sortColumns, paging.sortField) ? options.sortColumns[paging.sortField] : undefined;
  const [orderColumn, direction] = sortColumn && paging.sortOrder
    ? [sortColumn, paging.sortOrder === 'ascend' ? 'asc' as const : 'desc' as const]
    : options.defaultSort;
  const sort = `${orderColumn} ${direction}`;
  const ordered = <Q extends SelectQueryBuilder<any, any, any>>(qb: Q): Q => qb.orderBy(sql.ref(orderColumn), direction).orderBy(sql.ref(options.tieBreaker), direction) as Q;
  // Every page also reads its rows' sort value and key, for the cursor of the page after it.
  const withPosition = <Q extends SelectQueryBuilder<any, any, any>>(qb: Q): Q => qb.select([sql.ref(orderColumn).as(SORT_VALUE), sql.ref(options.tieBreaker).as(SORT_KEY)]) as Q;
  const cursor = decodeCursor(paging.after);
  const seek = cursor && cursor.page === paging.page - 1 && cursor.sort === sort && memory.fitsSort(sort, cursor.key) ? cursor.key : undefined;
  /** The cursor of the page after this one: a full page's last sort value and key. */
  const nextCursor = (read: Record<string, unknown>[]): string | undefined => {
    const last = read.at(-1);
    if (read.length !== paging.limit || !isCursorValue(last?.[SORT_VALUE]) || !isCursorValue(last?.[SORT_KEY])) return undefined;
    const key: Cursor['key'] = [last[SORT_VALUE], last[SORT_KEY]];
    memory.learnSort(sort, key);
    return encodeCursor({ page: paging.page, sort, key });
  };
  const pageOffset = seek ? 0 : offset;
  const own: OwnValues = { offset: pageOffset, seekValue: seek?.[0], seekKey: seek?.[1], phrase: undefined };
  // the limit as a literal, part of the shape: a bound LIMIT makes SQLite compile the statement again at every
  // run (db/sqlite-dialect.ts LiteralLimitCompiler)
  const limit = sql.lit(paging.limit);
  // A keyed list reads the page's keys first, then its columns and joins for those rows only (one statement:
  // `key in (the keys subquery)`) — past the first page always (the rows skipped), and on any page when its
  // columns join or select from other tables: SQLite evaluates the select list for every row it sorts, so a
  // company administrator's 任务列表 page 1 over 10,000 tasks in scope took 6 ms, its keys 0.04 ms. A list of
  // its own columns reads page 1 directly (the keys-first form measured ~15 % slower there, raw).
  const keyed = keyedBy(filteredNode, orderColumn, options.tieBreaker);
  const pageStatement = (countedWithPage: boolean) => (values: OwnValues) => {
    const seekAfter = seek ? sql<SqlBool>`(${sql.ref(orderColumn)}, ${sql.ref(options.tieBreaker)}) ${sql.raw(direction === 'desc' ? '<' : '>')} (${values.seekValue}, ${values.seekKey})` : undefined;
    const pageOf = seekAfter ? forPage.where(seekAfter) : forPage;
    const offsetOf = values.offset as number;
    let pageQuery: SelectQueryBuilder<any, any, any> | undefined;
    if (keyed) {
      const byKeys = selectColumns(filtered.clearWhere()); // built once: what the check reads and what the page runs
      if (pageOffset > 0 || readsOtherTables(byKeys.toOperationNode() as SelectQueryNode)) {
        const keys = ordered(pageOf.select(sql.ref(options.tieBreaker).as('pageKey'))).limit(limit).offset(offsetOf);
        pageQuery = ordered(withPosition(byKeys.where(sql.ref(options.tieBreaker), 'in', keys as never)));
      }
    }
    pageQuery ??= ordered(withPosition(selectColumns(pageOf))).limit(limit).offset(offsetOf);
    return countedWithPage ? pageQuery.select(sql<number>`(${countInPage(db, forCount, countStatement)})`.as(LIST_TOTAL)) : pageQuery;
  };
  // The count goes in the page's statement (a subquery both databases run once), not in a statement of its
  // own, when it will be cheap and wanted: a key list of fewer than SEARCH_PROBE rows (a rare term), or a
  // count that was exact the last time (`exactCounts`: a day's logs, a company's users). One round trip
  // less a full page; a count that reached its bound lately is not run at all (`countUpTo`).
  const countKey = statementKeyOf(countQuery);
  const countedWithPage = !seek && !plan?.streamed && (!!plan?.fewRows || (!!memory.exactCounts.get(countKey) && !memory.boundedCounts.get(countKey)));
  // what shapes the page's statement besides the filtered query's text (a count in it is bounded at `bound`)
  const pageShape = `page ${paging.limit} ${sort} ${options.tieBreaker} ${seek ? 'seek' : ''} ${pageOffset > 0 ? 'offset' : ''} ${countedWithPage ? `counted ${bound}` : ''}`;
  const pageSources = countedWithPage && forCount !== forPage ? [forPage, forCount] : [forPage];
  const pageQuery = shapes ? shapes.statement(pageShape, pageSources, pageStatement(countedWithPage), own) : pageStatement(countedWithPage)(own).compile();
  const read = (await db.executeQuery<Record<string, unknown>>(pageQuery)).rows;
  if (countedWithPage && read.length > 0) {
    const counted = Number(read[0]![LIST_TOTAL]);
    memory.rememberCount(countKey, counted, bound);
    // a plain count (countInPage) may run past the bound: said as bound + 1, as a bounded one is
    return { rows: withoutPositions(read) as O[], total: Math.min(counted, bound + 1), totalBounded: counted > bound ? true : undefined, next: nextCursor(read) };
  }
  const next = nextCursor(read);
  const rows = withoutPositions(read) as O[];
  // The page that holds the last row offered (LIST_COUNT_BOUND + 1) may run past it: 共 10,000+ 条 still.
  if (offset + rows.length > LIST_COUNT_BOUND) return { rows, total: LIST_COUNT_BOUND + 1, totalBounded: true, next };
  if (rows.length > 0 && rows.length < paging.limit) return { rows, total: offset + rows.length, totalBounded: undefined, next };
  if (rows.length === 0 && offset === 0) return { rows, total: 0, totalBounded: undefined, next };
  return { rows, ...await countUpTo(db, countQuery, bound), next };
}

export const SORT_VALUE = 'listSortValue';

export const SORT_KEY = 'listSortKey';

export const LIST_TOTAL = 'listTotal';

/** A statement with no values of listPage's own (a count's FTS5 question aside). */
export const NO_OWN_VALUES: OwnValues = { offset: undefined, seekValue: undefined, seekKey: undefined, phrase: undefined };

/**
 * The rows of a page less their sort value and key (and the total counted with the page), as plain objects
 * of one shape. Copied by a function made for the page's columns (`rowCopierOf`): a copy made key by key
 * (`row[key] = …` in a loop) gave objects V8 keeps as dictionaries, and every later read of them was slow —
 * 交易订单's 10 rows of 25 columns took ~25 µs to copy and ~50 µs more to map (toOrder's spreads), ~15 % of
 * the request; copied by the made function, the two take ~35 µs (a loop timing, docs/performance.md).
 */
export function withoutPositions(read: Record<string, unknown>[]): Record<string, unknown>[] {
  return read.length === 0 ? [] : read.map(rowCopierOf(read[0]!));
}

export type RowCopier = (read: Record<string, unknown>) => Record<string, unknown>;

export const rowCopiers = new Map<string, RowCopier>();

export const ROW_COPIERS = 1_000;

/** The copier of rows with `row`'s columns (in their order), made once per column list. */
export function rowCopierOf(row: Record<string, unknown>): RowCopier {
  const columns = Object.keys(row);
  const id = columns.join('\u0000');
  let copier = rowCopiers.get(id);
  if (!copier) {
    const kept = columns.filter((key) => key !== SORT_VALUE && key !== SORT_KEY && key !== LIST_TOTAL);
    // a column named __proto__ would set the copy's prototype in an object literal: copied key by key instead
    copier = kept.includes('__proto__')
      ? (read) => Object.fromEntries(kept.map((key) => [key, read[key]]))
      // the column names are the statement's (aliases the code chose); JSON.stringify quotes each as a JS string
      : (new Function('r', `return { ${kept.map((key) => `${JSON.stringify(key)}: r[${JSON.stringify(key)}]`).join(', ')} };`) as RowCopier);
    if (rowCopiers.size >= ROW_COPIERS) rowCopiers.delete(rowCopiers.keys().next().value!);
    rowCopiers.set(id, copier);
  }
  return copier;
}

/** Whether a page's select reads more than its table's rows: a join, or a subquery among its columns. */
export function readsOtherTables(node: SelectQueryNode): boolean {
  if (node.joins?.length) return true;
  return (node.selections ?? []).some(({ selection }) => SelectQueryNode.is(AliasNode.is(selection) ? selection.node : selection));
}

/**
 * Whether `tieBreaker` is the integer key of the query's one table (db/search-index.ts names them) and
 * the sort is on that table's own columns: then a page's keys name its rows, one each.
 */
export function keyedBy(node: SelectQueryNode, orderColumn: string, tieBreaker: string): boolean {
  if (node.joins?.length || node.groupBy || node.from?.froms.length !== 1) return false;
  const from = node.from.froms[0]!;
  const table = AliasNode.is(from) ? from.node : from;
  if (!TableNode.is(table)) return false;
  const alias = AliasNode.is(from) && IdentifierNode.is(from.alias) ? from.alias.name : table.table.identifier.name;
  const spec = (searchIndexes as Record<string, { key: string }>)[table.table.identifier.name];
  const prefixOf = (column: string) => (column.includes('.') ? column.slice(0, column.lastIndexOf('.')) : alias);
  const nameOf = (column: string) => column.slice(column.lastIndexOf('.') + 1);
  return !!spec && nameOf(tieBreaker) === spec.key && prefixOf(tieBreaker) === alias && prefixOf(orderColumn) === alias;
}
