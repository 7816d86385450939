import type { Expression, Kysely, SqlBool } from 'kysely';
import { listMemoryOf, statementKeyOf } from './memory.ts';
import { SEARCH_PROBE, type Search } from './search.ts';

// How each search a list passes is read for this request: a rare term's keys, or a walk.

/**
 * How a search is read: its matches as a key list (a rare term), the FTS5 IN list, or `like` on the rows
 * read; for the count also `stream`: the FTS5 matches read in key order, each row looked up, stopping at
 * the count's bound (`countStatementOf`).
 */
export type SearchForm = 'keys' | 'indexed' | 'scan' | 'stream';

/**
 * Per search of the query, two branches from a probe of its first SEARCH_PROBE matches: fewer (a rare
 * term), and its matches are the filter, as a key list, for the page and the count; else (a common term)
 * the page walks the sort index checking rows with `like` and the count streams the FTS5 matches (when the
 * query is of one table and no grouping, `streamable`: one match is one row) or checks rows with `like`.
 * Every form selects the same rows; only the work differs (list tests compare them with a plain reference).
 */
export async function planSearches(db: Kysely<any>, searches: readonly Search[], streamable: boolean, force?: ForcedPlan) {
  const page = new Map<Search, Expression<SqlBool>>(); // each search's form for the page, and for the count
  const count = new Map<Search, Expression<SqlBool>>();
  const forms = { page: [] as SearchForm[], count: [] as SearchForm[] };
  let streamed: Search | undefined;
  let fewRows = false; // a search read as its rows' keys: the list is at most SEARCH_PROBE − 1 rows
  // `found`: the search as the list passed it; `search`: its forms, narrowed where they can be
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
    const keys = await rareKeysOf(db, search);
    if (keys) {
      // a rare term: the probe read all its matches, so the page and the count take them as they are
      choose(search, 'keys', 'keys', search.matchedKeys(keys));
      if (!search.valueList) fewRows = true; // (a value list's few values may hold many rows)
    } else if (search.valueList) {
      choose(search, 'indexed', 'indexed'); // hundreds of values contain the term: the value table read in the statement
    } else {
      choose(search, 'scan', 'stream');
    }
  }
  return { page, count, forms, streamed, fewRows };
}

/**
 * A rare term's keys (all its matches: fewer than SEARCH_PROBE), or undefined for a common one. That a
 * term is common is remembered TRIGRAM_MEMORY_MS and its probe not run meanwhile (`zhang` of 100,000 users:
 * 145 µs of a request's ~880): a common term's forms select the same rows whatever the probe said. A rare
 * term's keys are the filter: read on every request.
 */
async function rareKeysOf(db: Kysely<any>, search: Search): Promise<unknown[] | undefined> {
  const memory = listMemoryOf(db);
  const probe = search.probe.compile(db);
  const key = statementKeyOf(probe);
  if (memory.commonProbes.get(key)) return undefined;
  const { rows } = await db.executeQuery(probe);
  if (rows.length < SEARCH_PROBE) return rows.map((r) => r.k);
  memory.commonProbes.set(key, true);
  return undefined;
}

/** Tests only: every search of the query read one way (`stream`: the page through the IN list, the count streamed). */
export type ForcedPlan = 'indexed' | 'scan' | 'stream';
