import type { z } from 'zod';

// Shapes the api functions take, owned here so that web/src/api never imports a component
// (components import the api, not the other way round).

export type SortOrder = 'ascend' | 'descend';

/** What every list fetcher receives: paging and sort (SPEC §3 page/limit) plus the screen's filters. */
export type ListParams<F extends object = Record<string, unknown>> = {
  page: number;
  limit: number;
  sortField: string;
  sortOrder: SortOrder | '';
  /** The `next` of the page before this one when the pager stepped forward one page: the server reads from there (keyset). */
  after?: string;
} & F;

/** A stored number file as the calls that read it take it: {fileNo, fileName, fileUrl}. */
export type StoredNumberFile = { fileNo: string; fileName: string; fileUrl: string };

/**
 * A list screen's filters: the named fields of the contract's list query schema, each optional (an empty
 * filter is left out). Type-only: `typeof` of a schema imported with `import type` loads no zod.
 */
export type FiltersOf<S extends z.ZodType, K extends keyof z.output<S>> = Partial<Pick<z.output<S>, K>>;
