import { fill } from './messages/fill.ts';
import { common } from './messages/common.ts';

// The one answer shape of every API call (PRODUCT §2). msg and errorInfo carry the same text so
// readers of either field work.
export type Envelope<T = unknown> = {
  success: boolean;
  msg: string;
  errorInfo: string;
  data?: T;
  total?: number;
  /**
   * The list's count stopped at a bound: there are more rows than `total - 1` (共 1,000+ 条, 共 10,000+ 条).
   * `total` is then the bound + 1, so a pager that knows nothing of the flag still offers every page up
   * to the bound and one more. Which lists bound where: LIST_COUNT_BOUND and SEARCH_COUNT_STEP.
   */
  totalBounded?: true;
  /** A list page that is full: where the page after it starts, to send back as `after` with that page's number (keyset paging). */
  next?: string;
};

/**
 * Lists count their rows up to this many: beyond it a count would read the whole table on
 * every page, so the answer says "more than 10,000" (total 10,001, totalBounded) and the pager offers
 * the first 10,001 rows; a filter narrows the rest. Pages starting past it answer no rows.
 */
export const LIST_COUNT_BOUND = 10_000;

/**
 * A list filtered by a contains search (a name, a mobile, an ip typed into the search form) counts its
 * matches in steps of this many: page 1 of `zhang` answers 共 1,000+ 条 once 1,001 rows match,
 * and the pager offers pages up to row 1,001; a page reaching past a step counts up to the next one
 * (page 101 at 10 a page: 共 2,000+ 条), so the next page is offered while rows continue, up to
 * LIST_COUNT_BOUND. Why 1,000: an exact count of a common term reads every match (1 ms per ~250 of them
 * on the bench's machine), while 100 pages are more than anyone pages through instead of typing a longer
 * term; equality and date filters are index-backed and keep their exact count up to LIST_COUNT_BOUND.
 */
export const SEARCH_COUNT_STEP = 1_000;

/** The pager's page sizes (SPEC §9). Here, not in fields.ts: a list screen must not load zod for it. */
export const pageSizeOptions = [10, 20, 30, 40];
/** 任务列表's page size (SPEC §2.14), here for the same reason. */
export const TASK_PAGE_SIZE = 40;

/** A page of a list as a screen's fetcher answers it: the rows, the total, whether the count stopped at a bound, and the next page's cursor. */
export type Page<T> = { data: T[]; total: number; totalBounded?: true; next?: string };

/**
 * 共 N 条 under a list (ListPage's pager). A bounded count (the answer's `totalBounded`; without the flag,
 * a total past LIST_COUNT_BOUND) reads 共 1,000+ 条 / 共 10,000+ 条: the total is then the bound + 1.
 */
export function listTotalText(total: number, bounded = total > LIST_COUNT_BOUND): string {
  return bounded
    ? fill(common.totalItemsBounded, { total: (total - 1).toLocaleString('en-US') })
    : fill(common.totalItems, { total });
}
