import { OperationNodeTransformer, RawNode, type Expression, type Kysely, type KyselyPlugin, type OperationNode, type QueryId, type SqlBool } from 'kysely';
import { LIST_COUNT_BOUND } from '@huiyun/contract';
import { listMemoryOf, statementKeyOf } from './memory.ts';
import { containsNodes, SEARCH_PROBE, searchesByNode, type Search } from './search.ts';
import { keySpanOf, rowsSpanned } from './trigrams.ts';

// How each search of a list's query is read for this request: a rare term's keys, the index, or a walk.

/** Swaps each search of a query for the form chosen for it. */
export class SearchSwapper extends OperationNodeTransformer {
  readonly #chosen: Map<Search, Expression<SqlBool>>;
  constructor(chosen: Map<Search, Expression<SqlBool>>) {
    super();
    this.#chosen = chosen;
  }
  protected override transformRaw(node: RawNode, queryId?: QueryId): RawNode {
    const search = searchesByNode.get(node);
    if (!search) return super.transformRaw(node, queryId);
    return (this.#chosen.get(search)?.toOperationNode() as RawNode | undefined) ?? node;
  }
}

/**
 * The searches of a query (in the order a transformer meets them) and whether it has a contains filter
 * of any form. A walk over the node tree that copies nothing: a transformer rebuilt (and froze) every
 * node of the query on every request only to look.
 */
export function findSearches(root: OperationNode): { found: Search[]; searches: boolean } {
  const found: Search[] = [];
  let searches = false;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null || typeof (value as { kind?: unknown }).kind !== 'string') return;
    const node = value as OperationNode;
    if (RawNode.is(node)) {
      const search = searchesByNode.get(node);
      if (search) found.push(search);
      if (search || containsNodes.has(node)) searches = true;
    }
    for (const key in node) if (key !== 'kind') visit((node as unknown as Record<string, unknown>)[key]);
  };
  visit(root);
  return { found, searches };
}

export const swapSearches = (chosen: Map<Search, Expression<SqlBool>>): KyselyPlugin => ({
  transformQuery: ({ node, queryId }) => new SearchSwapper(chosen).transformNode(node, queryId),
  transformResult: async ({ result }) => result,
});

// Measured on the list bench (SQLite, 100,000 users / 1,000,000 log rows): walking the sort index and
// comparing a row with `like` costs ~0.2 µs a row; a match of a 5–8 character term read from FTS5
// trigram doclists (IN list, then sorted) ~3–6 µs; a bounded count with `like` 0.04–0.2 µs a row (more
// for wide rows and Chinese text), with FTS5 ~4 µs a match of `zhang`, ~0.7 µs of `双十一` (one trigram).
// The count streamed from FTS5 (`countUpTo`), to 1,001: `双十一` 0.37 ms (`like`: 12.9 ms), `zhang` 2.3 ms
// (4.1 ms), `wangfang` over 1M log rows 7.0 ms (the IN list: 24.7 ms) — bench database, machine loaded.
export const WALK_PER_MATCH = 20; // rows walked that cost what one FTS5 match costs, for the page

export const SCAN_PER_MATCH_SHORT = 3; // rows scanned that cost what one FTS5 match of a single trigram costs, for the count

export const SCAN_PER_MATCH_TRIGRAM = 20; // … and per trigram of a longer term

/**
 * How a search is read: its matches as a key list (rare), the FTS5 IN list, or `like` on the rows read;
 * for the count also `stream`: the FTS5 matches read in key order, each row looked up, stopping at the
 * count's bound (`countUpTo`) — the IN list reads every match first, however many the count needs.
 */
export type SearchForm = 'keys' | 'indexed' | 'scan' | 'stream';

export type SearchProbe = { n: number; firstKey: number | null; nthMatch: number | null; lastKey: number | null; trigrams: number };

/**
 * The plan of one search from its probe: the first `n` (up to SEARCH_PROBE) matches in key order, the
 * key of the last of them, and the table's first and last keys. Fewer than SEARCH_PROBE matches: a rare
 * term (its keys are the filter). Else the share of rows that match is n over the keys those matches
 * span, and each form costs what it reads: `like` a row walked or scanned, FTS5 a match — and an FTS5
 * match costs more the more trigrams the term has (each one's positions are merged), ~the cost of
 * scanning 3 rows for a 3-character term, ~20 rows a trigram for longer ones.
 */
export function chooseSearchPlan(probe: SearchProbe, offset: number, limit: number, countBound = LIST_COUNT_BOUND): { page: 'indexed' | 'scan'; count: 'stream' | 'scan' } {
  const n = Number(probe.n);
  if (n < SEARCH_PROBE || probe.nthMatch == null) return { page: 'indexed', count: 'stream' };
  const first = Number(probe.firstKey ?? 1);
  const rows = rowsSpanned(probe.firstKey, probe.lastKey);
  const share = Math.min(1, n / Math.max(1, Number(probe.nthMatch) - first + 1));
  const matches = share * rows;
  const walked = Math.min(rows, (offset + limit) / share);
  const scanPerMatch = probe.trigrams <= 1 ? SCAN_PER_MATCH_SHORT : SCAN_PER_MATCH_TRIGRAM * probe.trigrams;
  // The count stops at countBound + 1 matches. The FTS5 stream reads that many; `like` is taken to read the
  // whole table: SQLite scans the narrowest index that covers the column — the searched column's own,
  // alphabetical, where a term's matches cluster (`zhang`: 96,000 of 100,000 users read for 1,001 matches).
  const streamed = Math.min(matches, countBound + 1);
  return { page: walked < WALK_PER_MATCH * matches ? 'scan' : 'indexed', count: rows < scanPerMatch * streamed ? 'scan' : 'stream' };
}

/**
 * Per search of the query: the page reads the FTS5 matches (IN list) or walks with `like`, the count
 * streams the FTS5 matches or scans with `like`, whichever costs less for this term. The probe reads
 * the term's first SEARCH_PROBE matches in key order: all of them for a rare term (then they are the
 * filter, as a key list), else how far the last of them lies gives the share of rows that match
 * (chooseSearchPlan). A count is streamed only for a query of one table and no grouping (`streamable`):
 * there one match is one row.
 * Both forms select the same rows; only the work differs (tests compare them on both sides of the switch).
 */
export async function planSearches(db: Kysely<any>, searches: readonly Search[], offset: number, limit: number, countBound: number, streamable: boolean, force?: ForcedPlan) {
  const page = new Map<Search, Expression<SqlBool>>();
  const count = new Map<Search, Expression<SqlBool>>();
  const forms = { page: [] as SearchForm[], count: [] as SearchForm[] };
  let streamed: Search | undefined;
  let fewRows = false; // a search read as its rows' keys: the list is at most SEARCH_PROBE − 1 rows
  // `found`: the search as the query holds it (the key of the swap); `search`: its forms, narrowed where they can be
  let found: Search;
  const choose = (search: Search, forPage: 'keys' | 'indexed' | 'scan', chosenForCount: SearchForm, keys?: Expression<SqlBool>) => {
    // One search drives a streamed count; in it each row is checked with `like` (cheap: the row is read anyway).
    const forCount = chosenForCount === 'stream' && (streamed || !streamable) ? 'indexed' : chosenForCount;
    if (forCount === 'stream') streamed = search;
    page.set(found, forPage === 'keys' ? keys! : search[forPage]);
    count.set(found, forCount === 'keys' ? keys! : search[forCount === 'stream' ? 'scan' : forCount]);
    forms.page.push(forPage);
    forms.count.push(forCount);
  };
  for (found of searches) {
    const narrowed = await found.narrow?.(db);
    const search = narrowed ? { ...found, ...narrowed } : found;
    if (force && !search.valueList) {
      choose(search, force === 'stream' ? 'indexed' : force, force);
      continue;
    }
    if (await search.common?.(db)) {
      choose(search, 'scan', 'scan'); // PostgreSQL's common term: `like`, the planner choosing the GIN bitmap or the sort index
      continue;
    }
    const probed = await probeOf(db, search);
    if (probed.keys) {
      // A rare term: the probe read all its matches, so the page and the count take them as they are
      // and the index is not read again (PostgreSQL: ip `10.3.7`, 172 matches of 1,000,000 — two GIN
      // bitmaps of common trigrams, page and count, 21 ms; the probe and two key lookups 5.6 ms).
      choose(search, 'keys', 'keys', search.matchedKeys(probed.keys));
      if (!search.valueList) fewRows = true; // (a value list's few values may hold many rows)
      continue;
    }
    if (search.valueList) {
      // hundreds of values contain the term: the rows of any of them, the value table read in the statement
      choose(search, 'indexed', 'indexed');
      continue;
    }
    if (!search.search) {
      // PostgreSQL: a common term is `lower(x) like`; the planner walks the sort index or reads the GIN bitmap.
      choose(search, 'scan', 'scan');
      continue;
    }
    const span = await keySpanOf(db, search.table, search.key);
    const chosen = chooseSearchPlan({ n: SEARCH_PROBE, firstKey: span.first, nthMatch: Number(probed.lastKey), lastKey: span.last, trigrams: search.trigrams }, offset, limit, countBound);
    choose(search, chosen.page, chosen.count);
  }
  return { page, count, forms, streamed, fewRows };
}

/**
 * A search's probe: a rare term's keys (all its matches: fewer than SEARCH_PROBE), or for a common one the
 * key of its SEARCH_PROBE-th match. That a term is common is remembered TRIGRAM_MEMORY_MS (`commonProbes`),
 * and its probe not run meanwhile (`zhang` of 100,000 users: 145 µs of a request's ~880): the forms a
 * common term is read with select the same rows whatever the probe said, so a remembered probe can only
 * make a plan slower, never its answer wrong. A rare term's keys are the filter: read on every request.
 */
export async function probeOf(db: Kysely<any>, search: Search): Promise<{ keys: unknown[]; lastKey?: undefined } | { keys?: undefined; lastKey: unknown }> {
  const memory = listMemoryOf(db);
  const probe = search.probe.compile(db);
  const key = statementKeyOf(probe);
  const remembered = memory.commonProbes.get(key);
  if (remembered !== undefined) return { lastKey: remembered };
  const { rows } = await db.executeQuery(probe);
  if (rows.length < SEARCH_PROBE) return { keys: rows.map((r) => r.k) };
  const lastKey = rows.at(-1)!.k;
  memory.commonProbes.set(key, lastKey);
  return { lastKey };
}

/** Tests only: every search of the query read one way (`stream`: the page through the IN list, the count streamed). */
export type ForcedPlan = 'indexed' | 'scan' | 'stream';
