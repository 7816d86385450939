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
  /** A list whose rows go past LIST_COUNT_BOUND answers total LIST_COUNT_BOUND + 1 and this flag (共 10,000+ 条). */
  totalBounded?: true;
};

/**
 * Lists count their rows up to this many (issue 14): beyond it a count would read the whole table on
 * every page, so the answer says "more than 10,000" (total 10,001, totalBounded) and the pager offers
 * the first 10,001 rows; a filter narrows the rest. Pages starting past it answer no rows.
 */
export const LIST_COUNT_BOUND = 10_000;

/** The pager's page sizes (SPEC §9). Here, not in fields.ts: a list screen must not load zod for it. */
export const pageSizeOptions = [10, 20, 30, 40];

export type Page<T> = { data: T[]; total: number };

/** 共 N 条 under a list (ListPage's pager): 共 10,000+ 条 when the server's count went past LIST_COUNT_BOUND. */
export function listTotalText(total: number): string {
  return total > LIST_COUNT_BOUND
    ? fill(common.totalItemsBounded, { total: LIST_COUNT_BOUND.toLocaleString('en-US') })
    : fill(common.totalItems, { total });
}
