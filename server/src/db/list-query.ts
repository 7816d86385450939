import {
  OperationNodeTransformer, sql, type Expression, type KyselyPlugin, type Kysely, type OperationNode, type QueryId, type RawBuilder,
  type CompiledQuery, type SelectQueryBuilder, type SqlBool,
  AliasNode, IdentifierNode, RawNode, SelectQueryNode, TableNode,
} from 'kysely';
import { LIST_COUNT_BOUND, SEARCH_COUNT_STEP, type PageQuery } from '@huiyun/contract';
import { dialectOf } from './dialect.ts';
import { ListShapeMemory, type OwnValues } from './list-templates.ts';
import { pgSearchedTerm, pgSearchedText, searchIndexes, searchTableOf, trigramIndexOf, valueListOf, type SearchedColumn, type SearchedTable } from './search-index.ts';

// The shared list machinery: every paged list of the product reads its page here (`listPage`), and
// every list route is registered by http/list-routes.ts. How a list stays fast at a million rows
// (issue 14, docs/performance.md "Lists at scale") is decided here once for all lists:
// - contains filters read a trigram index (`contains`, db/search-index.ts); on SQLite each request
//   probes the term's FTS5 matches first and reads a rare term's few matches as a key list, a common
//   one by walking the sort index with `like` (`planSearches`);
// - the default sort and the equality filters read composite indexes (migration 0010);
// - the page is read first, and counted only when it is full, at most LIST_COUNT_BOUND + 1 rows — with
//   a contains filter in steps of SEARCH_COUNT_STEP (共 1,000+ 条: `countBoundOf`);
// - a page starting past LIST_COUNT_BOUND is not read (the offset a page walks is bounded), and a page
//   reads its keys first, then joins names to those rows only.

/**
 * `column` (of `table`, as the query names it: `u.userName` or `userName`) contains `text`,
 * case-insensitively, with % and _ in the text taken literally; backed by the column's trigram index.
 *
 * A text of 3 characters or more is a *search*: `listPage` decides per request how to read it
 * (`planSearches`). A rare term's few matches (probed first) become a key list on both databases. On
 * SQLite a common term is read as the matches of the FTS5 table (IN list) or by walking the list's sort
 * index comparing each row with `like`; on PostgreSQL as `lower(x) like`, the planner choosing between
 * the GIN trigram bitmap and the sort index. Used outside `listPage` it is the IN list / the `like`.
 */
export function contains<T extends SearchedTable>(db: Kysely<any>, table: T, column: `${string}.${SearchedColumn<T>}` | SearchedColumn<T>, text: string): Expression<SqlBool> {
  const dot = column.lastIndexOf('.');
  const name = column.slice(dot + 1);
  const spec = searchIndexes[table];
  if (!(spec.columns as readonly string[]).includes(name)) throw new Error(`${table}.${name} has no search index (db/search-index.ts)`);
  const pattern = likePatternOf(text);
  const key = dot < 0 ? spec.key : `${column.slice(0, dot)}.${spec.key}`;
  const trigrams = [...text].length - 2;
  const valueTable = valueListOf(table, name);
  if (valueTable) return searchValueList(db, column, valueTable, text, { table, key: spec.key, keyRef: key, trigrams });
  if (dialectOf(db) === 'postgres') {
    const like = sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    if (trigrams < 1) return new ContainsExpression(like); // no trigram: the GIN index cannot probe it
    const { term, translated } = pgSearchedTerm(table, name, text);
    /** The filter as the trigram index reads `parts` of the term, each match checked against the column (strpos: no index takes it). */
    const pgForms = (parts: readonly string[]): Pick<Search, 'indexed' | 'scan' | 'probe' | 'trigrams'> => {
      const on = (ref: string) => parts.length === 1 && parts[0] === term && !translated
        ? sql<SqlBool>`lower(${sql.ref(ref)}) like ${pattern} escape '\\'`
        : sql<SqlBool>`${sql.join(parts.map((part) => sql`${pgSearchedText(table, name, ref)} like ${likePatternOf(part)} escape '\\'`), sql` and `)}
          and strpos(lower(${sql.ref(ref)}), ${text.toLowerCase()}) > 0`;
      const filter = on(column);
      return {
        indexed: filter, scan: filter, trigrams: parts.reduce((n, part) => n + [...part].length - 2, 0),
        probe: sql<{ k: unknown }>`select ${sql.ref(spec.key)} as k from ${sql.table(table)} where ${on(name)} limit ${SEARCH_PROBE}`,
      };
    };
    return new SearchExpression({
      table, key: spec.key, keyRef: key, search: '', phrase: '', ...pgForms([term]),
      matchedKeys: (keys) => sql<SqlBool>`${sql.ref(key)} = any(${keys.map(Number)}::bigint[])`,
      narrow: async (db) => {
        const parts = await withoutDenseTrigrams(term, await pgTrigramRows(db, table, name));
        return parts.length === 1 && parts[0] === term ? undefined : pgForms(parts);
      },
      common: async (db) => {
        const counter = await pgTrigramRows(db, table, name);
        return counter.resolution > 0 && (await counter.rowsOf(term)) >= SURELY_COMMON_TEXTS * counter.resolution;
      },
    });
  }
  // SQLite's LIKE already ignores ASCII case (its lower() knows no other), so the column is compared as is.
  const scan = sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
  if (trigrams < 1) return new ContainsExpression(scan);
  const search = searchTableOf(table);
  const fts = sql.table(search);
  /** The FTS5 forms of the filter for the text, or for parts of it (each match then checked with `like`). */
  const ftsForms = (parts: readonly string[]): Pick<Search, 'phrase' | 'indexed' | 'probe' | 'trigrams'> => {
    const phrase = ftsPhraseOf(name, parts);
    const matches = sql`select rowid from ${fts} where ${fts} match ${phrase}`;
    if (parts.length === 1 && parts[0] === text) {
      return {
        phrase, trigrams, indexed: sql<SqlBool>`${sql.ref(key)} in (${matches})`,
        // FTS5 answers rowids in ascending order: the first SEARCH_PROBE matches, read the cheap way round.
        probe: sql<{ k: unknown }>`select rowid as k from ${fts} where ${fts} match ${phrase} limit ${SEARCH_PROBE}`,
      };
    }
    return {
      phrase, trigrams: parts.reduce((n, part) => n + [...part].length - 2, 0), indexed: sql<SqlBool>`${sql.ref(key)} in (${matches}) and ${scan}`,
      probe: sql<{ k: unknown }>`select rowid as k from ${fts} where ${fts} match ${phrase}
        and (select ${sql.ref(name)} from ${sql.table(table)} where ${sql.ref(spec.key)} = ${fts}.rowid) like ${pattern} escape '\\' limit ${SEARCH_PROBE}`,
    };
  };
  return new SearchExpression({
    table, key: spec.key, keyRef: key, search, scan, ...ftsForms([text]),
    matchedKeys: (keys) => sql<SqlBool>`${sql.ref(key)} in (select value from json_each(${JSON.stringify(keys.map(Number))}))`,
    narrow: async (db) => {
      const counter = ftsTrigramRows(db, search, name);
      const span = await keySpanOf(db, table, spec.key);
      const parts = (await separateTrigrams(text, counter, rowsSpanned(span.first, span.last))) ?? (await withoutDenseTrigrams(text, counter));
      return parts.length === 1 && parts[0] === text ? undefined : ftsForms(parts);
    },
  });
}

/**
 * A trigram of a text is dense when FTS5 holds it for at least DENSE_TRIGRAM_ROWS rows and
 * DENSE_OVER_RAREST times as many as the text's rarest trigram. The text's matches are at most its
 * rarest trigram's, so leaving the dense ones out of the FTS5 question adds few rows to check with
 * `like` (~0.3 µs each), while their doclists cost 7–35 ns an entry to merge (bench data, SQLite).
 * Counts stop at TRIGRAM_COUNT_CAP (a trigram in more rows is dense beside any rarest trigram that
 * could make the text worth narrowing).
 */
export const DENSE_TRIGRAM_ROWS = 1_000;
export const DENSE_OVER_RAREST = 8;
export const TRIGRAM_COUNT_CAP = 131_072;

/**
 * The parts of `text` that the trigram index should be asked for: `text` less its dense trigrams (how
 * many rows hold each: `rowsOf`). Both indexes merge the posting lists of every trigram of a term, the
 * common ones' as long as the table: ip `10.3.7` of 登录日志 (`10.` is in every row) read a million-row
 * doclist to answer 172 matches, 2.2 ms on SQLite (`0.3.7` 0.5 ms); 3.5 ms of GIN bitmap on PostgreSQL
 * (`0x3x7` 0.6 ms). `会员日推广770` of 100,000 tasks (4 of its trigrams in 10,000 names each) 0.29 ms; `广770`
 * 0.05 ms. The runs of trigrams that are not dense are the parts (asked together: AND); a match of the
 * text is a match of every part, so the parts' matches checked against the text are the text's. No
 * trigram dense: the text as it is.
 */
export async function withoutDenseTrigrams(text: string, counter: TrigramCounter): Promise<string[]> {
  const chars = [...text];
  if (chars.length < 4) return [text];
  const counts: number[] = [];
  for (let at = 0; at <= chars.length - 3; at++) counts.push(await counter.rowsOf(chars.slice(at, at + 3).join(''))); // trigram `at`: chars at..at+2
  const dense = Math.max(DENSE_TRIGRAM_ROWS, DENSE_OVER_RAREST * Math.max(Math.min(...counts), counter.resolution));
  const parts: string[] = [];
  let run: number | undefined; // the first trigram of the run of sparse trigrams being read
  counts.forEach((count, at) => {
    if (count < dense) run ??= at;
    else if (run !== undefined) {
      parts.push(chars.slice(run, at + 2).join(''));
      run = undefined;
    }
  });
  if (run !== undefined) parts.push(chars.slice(run).join(''));
  return parts.length === 1 && parts[0] === text ? [text] : parts;
}

/**
 * SQLite: a candidate FTS5 answers costs ~25 doclist entries — its `like` check reads its row (~0.3 µs), an
 * entry of a trigram's doclist ~0.011 µs (the bench's 100,000 users, a loop).
 */
export const CANDIDATE_OVER_ENTRY = 25;

/**
 * SQLite: the trigrams of `text` to ask FTS5 for, each on its own (AND), when two or more of them apart
 * are worth reading; else undefined (then `withoutDenseTrigrams`). FTS5 reads a phrase's positions, and
 * trigrams that overlap narrow little (the texts holding one mostly hold the next): `wangfang7` of
 * 100,000 users asked as `wan AND ngfan AND ng7` reads 11 candidates in 236 µs, as `gfa AND wan` (its
 * rarest trigram, and the rarest that shares no character with it) 100 candidates in 149 µs, as `gfa`
 * alone 800 in 274 µs. So: the rarest trigram, then the next rarest that overlap none taken while each
 * costs less to read (its rows) than the candidates it would rule out, the trigrams taken as independent
 * among the table's `rows`, cost (CANDIDATE_OVER_ENTRY).
 */
export async function separateTrigrams(text: string, counter: TrigramCounter, rows: number): Promise<string[] | undefined> {
  const chars = [...text];
  if (chars.length < 6) return undefined; // no two trigrams apart
  const trigrams: { at: number; rows: number }[] = [];
  for (let at = 0; at <= chars.length - 3; at++) trigrams.push({ at, rows: await counter.rowsOf(chars.slice(at, at + 3).join('')) });
  const [rarest, ...others] = trigrams.toSorted((a, b) => a.rows - b.rows || a.at - b.at);
  const taken = [rarest!];
  let candidates = rarest!.rows;
  for (const trigram of others) {
    if (taken.some((t) => Math.abs(t.at - trigram.at) < 3)) continue;
    const ruledOut = candidates * (1 - trigram.rows / Math.max(rows, trigram.rows));
    if (trigram.rows >= CANDIDATE_OVER_ENTRY * ruledOut) break; // the rest hold as many rows or more
    taken.push(trigram);
    candidates *= trigram.rows / Math.max(rows, 1);
  }
  return taken.length < 2 ? undefined : taken.toSorted((a, b) => a.at - b.at).map((t) => chars.slice(t.at, t.at + 3).join(''));
}

/** How many rows hold a trigram, and the fewest rows a count can tell from none (a count from a sample knows no fewer than one sampled text stands for). */
type TrigramCounter = { rowsOf: (trigram: string) => number | Promise<number>; resolution: number };

/** SQLite: the rows of FTS5 table `search` whose `column` holds a trigram, counted to TRIGRAM_COUNT_CAP and remembered TRIGRAM_MEMORY_MS. */
export function ftsTrigramRows(db: Kysely<any>, search: string, column: string): TrigramCounter {
  const memory = listMemoryOf(db);
  const fts = sql.table(search);
  return { resolution: 1, rowsOf: async (trigram) => {
    const key = `${search}\u0000${column}\u0000${trigram.toLowerCase()}`;
    let rows = memory.trigramRows.get(key);
    if (rows === undefined) {
      const counted = await sql<{ n: number }>`select count(*) as n
        from (select 1 from ${fts} where ${fts} match ${ftsPhraseOf(column, [trigram])} limit ${TRIGRAM_COUNT_CAP})`.execute(db);
      rows = Number(counted.rows[0]?.n ?? 0);
      memory.trigramRows.set(key, rows);
    }
    return rows;
  } };
}

/**
 * PostgreSQL: the rows of `table` whose searched `column` holds a trigram, as the planner's statistics of
 * the column's trigram index tell them (its most common values and histogram, a sample of the indexed
 * texts, each standing for a share of the rows; read once in TRIGRAM_MEMORY_MS). A sample tells the
 * trigrams of many percent of the rows (`10x` of `10.3.7`: all of them), the ones whose GIN posting lists
 * are long; below ~1 % of the rows (one histogram entry's share) it cannot tell a trigram's rows, so one
 * is dense only at 8 times that. No statistics yet (a table never analysed): no trigram is dense.
 */
export async function pgTrigramRows(db: Kysely<any>, table: string, column: string): Promise<TrigramCounter> {
  const memory = listMemoryOf(db);
  const index = trigramIndexOf(table, column);
  let sample = memory.trigramSamples.get(index);
  if (!sample) {
    const { rows } = await sql<{ mcv: string[] | null; freqs: number[] | null; hist: string[] | null; nullFrac: number; tableRows: number }>`
      select most_common_vals::text::text[] as mcv, most_common_freqs as freqs, histogram_bounds::text::text[] as hist, null_frac as "nullFrac",
        (select reltuples from pg_class where oid = ${table}::regclass) as "tableRows"
      from pg_stats where schemaname = current_schema() and tablename = ${index}`.execute(db);
    const stats = rows[0];
    const tableRows = Math.max(0, Number(stats?.tableRows ?? 0)); // -1: never analysed
    const mcv = (stats?.mcv ?? []).map((text, at) => ({ text, share: Number(stats?.freqs?.[at] ?? 0) }));
    const hist = stats?.hist ?? [];
    const histShare = hist.length ? Math.max(0, 1 - Number(stats?.nullFrac ?? 0) - mcv.reduce((n, v) => n + v.share, 0)) / hist.length : 0;
    sample = { tableRows, texts: [...mcv, ...hist.map((text) => ({ text, share: histShare }))] };
    memory.trigramSamples.set(index, sample);
  }
  const { tableRows, texts } = sample;
  return {
    // a trigram no sampled text holds may still be in up to one text's share of the rows (the histogram's: ~1 % of them)
    resolution: Math.round(tableRows * Math.min(1, ...texts.map((v) => v.share))),
    rowsOf: (trigram) => Math.round(tableRows * texts.reduce((n, v) => (v.text.includes(trigram) ? n + v.share : n), 0)),
  };
}

/** `text` as a `like` pattern of a lowercase column: contained anywhere, % _ and \\ taken literally. */
const likePatternOf = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `parts` as FTS5 phrases of `column`, all of them matched (a quote in a part is a character, not syntax). */
const ftsPhraseOf = (column: string, parts: readonly string[]) => {
  const phrases = parts.map((part) => `"${part.replaceAll('"', '""')}"`);
  return phrases.length === 1 ? `${column} : ${phrases[0]}` : `${column} : (${phrases.join(' AND ')})`;
};

/**
 * A contains filter on a column with a value list (search-index.ts `valueLists`): the values that
 * contain `text` are found in the value table (its trigram index; `like` for 1–2 characters, the table
 * being small), and the rows are those whose column equals one of them. The probe reads the values:
 * under SEARCH_PROBE of them (nearly always) they are the filter, by equality; more, and the filter is
 * the subquery of the value table.
 */
function searchValueList(db: Kysely<any>, column: string, valueTable: SearchedTable, text: string, of: Pick<Search, 'table' | 'key' | 'keyRef' | 'trigrams'>): Expression<SqlBool> {
  const pattern = likePatternOf(text);
  let values: RawBuilder<SqlBool>;
  if (dialectOf(db) === 'postgres') values = sql<SqlBool>`lower(value) like ${pattern} escape '\\'`;
  else if (of.trigrams < 1) values = sql<SqlBool>`value like ${pattern} escape '\\'`;
  else {
    const search = sql.table(searchTableOf(valueTable));
    values = sql<SqlBool>`id in (select rowid from ${search} where ${search} match ${ftsPhraseOf('value', [text])})`;
  }
  const among = sql<SqlBool>`${sql.ref(column)} in (select value from ${sql.table(valueTable)} where ${values})`;
  return new SearchExpression({
    ...of, search: '', phrase: '', valueList: true, indexed: among, scan: among,
    probe: sql<{ k: unknown }>`select value as k from ${sql.table(valueTable)} where ${values} limit ${SEARCH_PROBE}`,
    matchedKeys: (found) => {
      // one value: plain equality, so PostgreSQL reads (column, time, key) in order (= any(array) sorts every row of it)
      if (found.length === 1) return sql<SqlBool>`${sql.ref(column)} = ${String(found[0])}`;
      return dialectOf(db) === 'postgres'
        ? sql<SqlBool>`${sql.ref(column)} = any(${found.map(String)}::text[])`
        : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(found.map(String))}))`;
    },
  });
}

/**
 * A contains filter of 3+ characters: its forms, and what a probe needs to choose between them. On
 * PostgreSQL `search` and `phrase` are empty and `indexed` is `scan` (the planner picks the index).
 */
type Search = {
  table: string; key: string; keyRef: string; search: string; phrase: string; trigrams: number; indexed: RawBuilder<SqlBool>; scan: RawBuilder<SqlBool>;
  /** A search of the column's value list (`searchValueList`): `indexed` and `scan` are its subquery, the probe reads values. */
  valueList?: true;
  /** The term's first SEARCH_PROBE matches in the whole table, by key (of a value list: the values). */
  probe: RawBuilder<{ k: unknown }>;
  /** The filter as the keys (values) of all its matches (a rare term, whose probe read them all). */
  matchedKeys: (keys: unknown[]) => RawBuilder<SqlBool>;
  /**
   * PostgreSQL: whether the statistics' sample shows the term in so many texts that it surely has
   * SEARCH_PROBE matches or more: then it is read as a common term without a probe (the probe reads the
   * whole GIN bitmap of a common term before its limit: `zhang` of 100,000 users, 1.8 ms).
   */
  common?: (db: Kysely<any>) => Promise<boolean>;
  /** The forms for parts of the term that read less (`withoutDenseTrigrams`), if there are such parts. */
  narrow?: (db: Kysely<any>) => Promise<Partial<Pick<Search, 'phrase' | 'indexed' | 'scan' | 'probe' | 'trigrams'>> | undefined>;
};

/** The node each search puts in a query, to find it there again (`planSearches`). */
const searchesByNode = new WeakMap<OperationNode, Search>();

class SearchExpression implements Expression<SqlBool> {
  readonly search: Search;
  constructor(search: Search) {
    this.search = search;
  }
  get expressionType(): SqlBool | undefined {
    return undefined;
  }
  toOperationNode(): OperationNode {
    const node = this.search.indexed.toOperationNode();
    searchesByNode.set(node, this.search);
    return node;
  }
}

/** The nodes of the contains filters that have one form (1–2 characters), to find them in a query. */
const containsNodes = new WeakSet<OperationNode>();

/** A contains filter with one form: marked so `listPage` knows the query searches (its count is bounded in steps). */
class ContainsExpression implements Expression<SqlBool> {
  readonly #node: OperationNode;
  constructor(condition: RawBuilder<SqlBool>) {
    this.#node = condition.toOperationNode();
    containsNodes.add(this.#node);
  }
  get expressionType(): SqlBool | undefined {
    return undefined;
  }
  toOperationNode(): OperationNode {
    return this.#node;
  }
}

/** Swaps each search of a query for the form chosen for it. */
class SearchSwapper extends OperationNodeTransformer {
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
function findSearches(root: OperationNode): { found: Search[]; searches: boolean } {
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

const swapSearches = (chosen: Map<Search, Expression<SqlBool>>): KyselyPlugin => ({
  transformQuery: ({ node, queryId }) => new SearchSwapper(chosen).transformNode(node, queryId),
  transformResult: async ({ result }) => result,
});

/**
 * PostgreSQL: a term held by this many of the statistics' sampled texts is common without a probe. Each
 * sampled text stands for ~1 % of the rows (the histogram's share), so 4 of them are ~4 % of the rows:
 * 4,000 of 100,000 users, far past SEARCH_PROBE even if the sample was lucky.
 */
const SURELY_COMMON_TEXTS = 4;

/** How many of a search's matches the probe reads: enough to tell a rare term from a common one. */
export const SEARCH_PROBE = 256;
// Measured on the list bench (SQLite, 100,000 users / 1,000,000 log rows): walking the sort index and
// comparing a row with `like` costs ~0.2 µs a row; a match of a 5–8 character term read from FTS5
// trigram doclists (IN list, then sorted) ~3–6 µs; a bounded count with `like` 0.04–0.2 µs a row (more
// for wide rows and Chinese text), with FTS5 ~4 µs a match of `zhang`, ~0.7 µs of `双十一` (one trigram).
// The count streamed from FTS5 (`countUpTo`), to 1,001: `双十一` 0.37 ms (`like`: 12.9 ms), `zhang` 2.3 ms
// (4.1 ms), `wangfang` over 1M log rows 7.0 ms (the IN list: 24.7 ms) — bench database, machine loaded.
const WALK_PER_MATCH = 20; // rows walked that cost what one FTS5 match costs, for the page
const SCAN_PER_MATCH_SHORT = 3; // rows scanned that cost what one FTS5 match of a single trigram costs, for the count
const SCAN_PER_MATCH_TRIGRAM = 20; // … and per trigram of a longer term

/**
 * How a search is read: its matches as a key list (rare), the FTS5 IN list, or `like` on the rows read;
 * for the count also `stream`: the FTS5 matches read in key order, each row looked up, stopping at the
 * count's bound (`countUpTo`) — the IN list reads every match first, however many the count needs.
 */
export type SearchForm = 'keys' | 'indexed' | 'scan' | 'stream';

type SearchProbe = { n: number; firstKey: number | null; nthMatch: number | null; lastKey: number | null; trigrams: number };

/** The rows a table's keys from `first` to `last` can hold (at least 1: an empty table's span is null). */
const rowsSpanned = (first: number | null, last: number | null) => Math.max(Number(last ?? 0) - Number(first ?? 1) + 1, 1);

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
async function planSearches(db: Kysely<any>, searches: readonly Search[], offset: number, limit: number, countBound: number, streamable: boolean, force?: ForcedPlan) {
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
async function probeOf(db: Kysely<any>, search: Search): Promise<{ keys: unknown[]; lastKey?: undefined } | { keys?: undefined; lastKey: unknown }> {
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

/**
 * The first and last key of a table: how many rows a probe's matches are spread over (chooseSearchPlan).
 * Remembered for TRIGRAM_MEMORY_MS: it moves as slowly as a trigram's count, and a common term's
 * request then runs its probe and its page, not a third statement.
 */
async function keySpanOf(db: Kysely<any>, table: string, key: string): Promise<{ first: number | null; last: number | null }> {
  const memory = listMemoryOf(db);
  const remembered = memory.keySpans.get(table);
  if (remembered) return remembered;
  // two subqueries: SQLite reads min() and max() off the key only when each is a query of its own
  const { rows } = await sql<{ first: number | null; last: number | null }>`select (select min(${sql.ref(key)}) from ${sql.table(table)}) as first, (select max(${sql.ref(key)}) from ${sql.table(table)}) as last`.execute(db);
  const span = { first: rows[0]?.first ?? null, last: rows[0]?.last ?? null };
  memory.keySpans.set(table, span);
  return span;
}

/** Tests only: every search of the query read one way (`stream`: the page through the IN list, the count streamed). */
type ForcedPlan = 'indexed' | 'scan' | 'stream';

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
export type Paging = Pick<PageQuery, 'page' | 'limit' | 'sortField' | 'sortOrder'> & { after?: string };

function pagingOf(query: Paging | { pageNum: number; pageSize: number; after?: string }): Paging {
  if ('pageNum' in query) return { page: query.pageNum, limit: query.pageSize, sortField: '', sortOrder: '', after: query.after };
  return query;
}

/**
 * Where the page after a page starts: its last row's sort value and key, with the page's number and sort.
 * Handed out with a full page (`next`), taken back as `after` with the next page's number: that page is
 * then read from the sort index at that row (keyset) instead of walking every row before it. A cursor of
 * another page or sort, or one that does not read, is ignored (the page is read by its offset).
 */
type Cursor = { page: number; sort: string; key: [CursorValue, CursorValue] };
type CursorValue = string | number;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.page, cursor.sort, ...cursor.key])).toString('base64url');
}

function decodeCursor(text: string | undefined): Cursor | undefined {
  if (!text) return undefined;
  try {
    const parts: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(parts) || parts.length !== 4) return undefined;
    const [page, sort, value, key] = parts as unknown[];
    if (!Number.isSafeInteger(page) || typeof sort !== 'string' || !isCursorValue(value) || !isCursorValue(key)) return undefined;
    return { page: page as number, sort, key: [value, key] };
  } catch {
    return undefined;
  }
}

type ListOptions = {
  sortColumns: SortColumns;
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
export type Listed<Row> = { rows: Row[]; total: number; totalBounded: true | undefined; next: string | undefined };

/**
 * How far the count of a list's rows goes: LIST_COUNT_BOUND; for a list filtered by a contains search
 * the multiple of `step` (SEARCH_COUNT_STEP) that holds the page — 1,000 for pages 1–100 at 10 a page,
 * 2,000 for 101–200 — so a full page always leaves the next page offered when rows continue.
 */
export function countBoundOf(offset: number, limit: number, searched: boolean, step = SEARCH_COUNT_STEP): number {
  if (!searched) return LIST_COUNT_BOUND;
  return Math.min(LIST_COUNT_BOUND, step * Math.max(1, Math.ceil((offset + limit) / step)));
}

/**
 * One page of a filtered query plus the total, the shape every list call answers. Sorting is by a
 * whitelisted column only (the client names an API field, never a column), then by `tieBreaker` so
 * paging is stable. `selectColumns` picks the row's columns; end it with `.$castTo<Row>()` to name
 * the row type the mapper takes.
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
  const finder = findSearches(filteredNode);
  const bound = countBoundOf(offset, paging.limit, finder.searches, options.searchCountStep);
  const streamable = dialectOf(db) === 'sqlite' && !filteredNode.joins?.length && !filteredNode.groupBy;
  const plan = finder.found.length > 0 ? await planSearches(db, finder.found, offset, paging.limit, bound, streamable, options.searchPlan) : undefined;
  if (plan) options.onSearchPlan?.(plan.forms);
  const forPage = plan ? filtered.withPlugin(swapSearches(plan.page)) : filtered;
  const forCount = plan ? filtered.withPlugin(swapSearches(plan.count)) : filtered;
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
  const own: OwnValues = { offset: pageOffset, limit: paging.limit, seekValue: seek?.[0], seekKey: seek?.[1], phrase: undefined };
  // A keyed list reads the page's keys first, then its columns and joins for those rows only (one statement:
  // `key in (the keys subquery)`) — past the first page always (the rows skipped), and on any page when its
  // columns join or select from other tables: SQLite evaluates the select list for every row it sorts, so a
  // company administrator's 任务列表 page 1 over 10,000 tasks in scope took 6 ms, its keys 0.04 ms. A list of
  // its own columns reads page 1 directly (the keys-first form measured ~15 % slower there, raw).
  const keyed = keyedBy(filteredNode, orderColumn, options.tieBreaker);
  const pageStatement = (countedWithPage: boolean) => (values: OwnValues) => {
    const seekAfter = seek ? sql<SqlBool>`(${sql.ref(orderColumn)}, ${sql.ref(options.tieBreaker)}) ${sql.raw(direction === 'desc' ? '<' : '>')} (${values.seekValue}, ${values.seekKey})` : undefined;
    const pageOf = seekAfter ? forPage.where(seekAfter) : forPage;
    const limit = values.limit as number;
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
  const pageShape = `page ${sort} ${options.tieBreaker} ${seek ? 'seek' : ''} ${pageOffset > 0 ? 'offset' : ''} ${countedWithPage ? `counted ${bound}` : ''}`;
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

const SORT_VALUE = 'listSortValue';
const SORT_KEY = 'listSortKey';
const LIST_TOTAL = 'listTotal';
/** A statement with no values of listPage's own (a count's FTS5 question aside). */
const NO_OWN_VALUES: OwnValues = { offset: undefined, limit: undefined, seekValue: undefined, seekKey: undefined, phrase: undefined };

/**
 * The rows of a page less their sort value and key (and the total counted with the page), as plain objects
 * of one shape. Copied by a function made for the page's columns (`rowCopierOf`): a copy made key by key
 * (`row[key] = …` in a loop) gave objects V8 keeps as dictionaries, and every later read of them was slow —
 * 交易订单's 10 rows of 25 columns took ~25 µs to copy and ~50 µs more to map (toOrder's spreads), ~15 % of
 * the request; copied by the made function, the two take ~35 µs (a loop timing, docs/performance.md).
 */
function withoutPositions(read: Record<string, unknown>[]): Record<string, unknown>[] {
  return read.length === 0 ? [] : read.map(rowCopierOf(read[0]!));
}

type RowCopier = (read: Record<string, unknown>) => Record<string, unknown>;
const rowCopiers = new Map<string, RowCopier>();
const ROW_COPIERS = 1_000;

/** The copier of rows with `row`'s columns (in their order), made once per column list. */
function rowCopierOf(row: Record<string, unknown>): RowCopier {
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
const isCursorValue = (value: unknown): value is CursorValue => Number.isSafeInteger(value) || (typeof value === 'string' && value.length <= 200);

/** Whether a page's select reads more than its table's rows: a join, or a subquery among its columns. */
function readsOtherTables(node: SelectQueryNode): boolean {
  if (node.joins?.length) return true;
  return (node.selections ?? []).some(({ selection }) => SelectQueryNode.is(AliasNode.is(selection) ? selection.node : selection));
}

/**
 * Whether `tieBreaker` is the integer key of the query's one table (db/search-index.ts names them) and
 * the sort is on that table's own columns: then a page's keys name its rows, one each.
 */
function keyedBy(node: SelectQueryNode, orderColumn: string, tieBreaker: string): boolean {
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

/** The rows of `filtered`, counted up to `bound` + 1 (as `total`): at most that many index entries read. */
function boundedCount(db: Kysely<any>, filtered: SelectQueryBuilder<any, any, {}>, bound: number) {
  return db.selectFrom(filtered.select(sql.lit(1).as('one')).limit(bound + 1).as('bounded')).select(sql<number | string>`count(*)`.as('total'));
}

/**
 * The statement counting `filtered` up to `bound` + 1. With a `streamed` search (SQLite) it walks that
 * search's FTS5 matches in key order and checks each one's row against the filter, so it stops after
 * bound + 1 rows found instead of reading every match; `phrase` is its FTS5 question (a template's stand-in).
 */
function countStatementOf(db: Kysely<any>, filtered: SelectQueryBuilder<any, any, {}>, bound: number, streamed?: Search, phrase: unknown = streamed?.phrase): SelectQueryBuilder<any, any, { total: number | string }> {
  if (!streamed) return boundedCount(db, filtered, bound);
  const search = sql.table(streamed.search);
  const row = filtered.select(sql.lit(1).as('one')).where(sql.ref(streamed.keyRef), '=', sql.ref(`${streamed.search}.rowid`));
  const matches = db.selectFrom(search.as(streamed.search) as never).select(sql.lit(1).as('one'))
    .where(sql<SqlBool>`${search} match ${phrase}`).where(({ exists }) => exists(row as never)).limit(bound + 1).as('bounded');
  return db.selectFrom(matches).select(sql<number | string>`count(*)`.as('total'));
}

/**
 * The count a page's statement carries: one exact lately (at most its bound 10 s ago) or a rare term's few
 * keys. SQLite counts it plainly: the bounded form (a subquery with LIMIT) runs as a co-routine handing each
 * row to the count, ~1.6× the work (a company administrator's 10,000 tasks: 340 against 208 µs), and a count
 * at most its bound so lately can only have grown by what was written since. PostgreSQL keeps the bounded
 * form: its LIMIT costs little there, and the planner may read a plain count another way.
 */
function countInPage(db: Kysely<any>, filtered: SelectQueryBuilder<any, any, {}>, bounded: () => SelectQueryBuilder<any, any, { total: number | string }>) {
  return dialectOf(db) === 'sqlite' ? filtered.select(sql<number>`count(*)`.as('total')) : bounded();
}

/** Runs a count statement (`countStatementOf`), or answers the bound + 1 it reached lately without running it. */
async function countUpTo(db: Kysely<any>, query: CompiledQuery, bound: number): Promise<Pick<Listed<never>, 'total' | 'totalBounded'>> {
  const memory = listMemoryOf(db);
  const key = statementKeyOf(query);
  if (memory.boundedCounts.get(key)) return { total: bound + 1, totalBounded: true };
  const total = Number((await db.executeQuery<{ total: number | string }>(query)).rows[0]?.total ?? 0);
  memory.rememberCount(key, total, bound);
  return { total, totalBounded: total > bound ? true : undefined };
}

/** A statement with its parameters: what the list memory knows a count or a probe by. */
const statementKeyOf = (query: CompiledQuery) => `${query.sql}\u0000${JSON.stringify(query.parameters)}`;

/**
 * The counts that reached their bound lately, per database, by their statement and parameters: for
 * COUNT_MEMORY_MS such a count answers 共 10,000+ 条 without counting again. A count that reached the
 * bound reads bound + 1 index entries — most of the cost of page 1 of a big list, of a common filter, of a
 * company's orders — and the answer hardly moves within seconds (a list that big does not lose 1 of
 * 10,001 rows at once but by deletes or status changes in bulk; then the total says 10,000+ a few seconds
 * longer, while every page is read live). A count below its bound is exact and never remembered, so a list
 * a person is changing row by row shows its exact total. Each server instance keeps its own.
 */
export const COUNT_MEMORY_MS = 10_000;
const COUNT_MEMORY_SIZE = 1_000;
/** How long a trigram's count of rows is taken as read: it moves with the table, slowly. */
export const TRIGRAM_MEMORY_MS = 60_000;

/**
 * What a database's lists learn as they answer (one per database, per server instance): the counts that
 * reached their bound lately, and the types of each sort's values. A cursor comes back from the client:
 * its values are bound as parameters (never SQL), but a text where the sort column holds integers would be
 * refused by PostgreSQL (invalid input syntax for type bigint) — so a cursor is taken only when its values
 * have the types this instance has handed out for that sort; otherwise the page is read by its offset.
 */
/** Values remembered for `ttlMs` (performance.now), at most COUNT_MEMORY_SIZE of them (the oldest go first). */
class ExpiringMemory<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly ttlMs: number;
  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  get(key: string): V | undefined {
    const known = this.entries.get(key);
    if (!known) return undefined;
    const age = performance.now() - known.at;
    if (age >= 0 && age < this.ttlMs) return known.value;
    this.entries.delete(key);
    return undefined;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= COUNT_MEMORY_SIZE) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, at: performance.now() });
  }
}

class ListMemory {
  private readonly sortTypes = new Map<string, string>();
  /** The counts that reached their bound (by statement and parameters). */
  readonly boundedCounts = new ExpiringMemory<true>(COUNT_MEMORY_MS);
  /** The counts that were exact (below their bound) lately: counted in their page's statement next time (`listPage`). Not their totals. */
  readonly exactCounts = new ExpiringMemory<true>(COUNT_MEMORY_MS);
  /** SQLite: the rows of a search table holding a trigram, up to TRIGRAM_COUNT_CAP (`ftsTrigramRows`). */
  readonly trigramRows = new ExpiringMemory<number>(TRIGRAM_MEMORY_MS);
  /** The probes of common terms, by statement and parameters: the key of the term's SEARCH_PROBE-th match (`probeOf`). */
  readonly commonProbes = new ExpiringMemory<unknown>(TRIGRAM_MEMORY_MS);
  /** SQLite: the first and last key of a searched table (`keySpanOf`). */
  readonly keySpans = new ExpiringMemory<{ first: number | null; last: number | null }>(TRIGRAM_MEMORY_MS);
  /** PostgreSQL: the statistics' sample of a trigram index's texts, each with the share of rows it stands for (`pgTrigramRows`). */
  readonly trigramSamples = new ExpiringMemory<{ tableRows: number; texts: { text: string; share: number }[] }>(TRIGRAM_MEMORY_MS);

  /** The statements of the lists, by shape (db/list-templates.ts). */
  readonly shapes = new ListShapeMemory();

  /** How a count ended: exact (counted with its page next time), or at its bound (not counted again for a while). */
  rememberCount(key: string, total: number, bound: number): void {
    if (total <= bound) this.exactCounts.set(key, true);
    else {
      this.exactCounts.delete(key);
      this.boundedCounts.set(key, true);
    }
  }

  learnSort(sort: string, key: Cursor['key']): void {
    if (this.sortTypes.size < COUNT_MEMORY_SIZE) this.sortTypes.set(sort, `${typeof key[0]} ${typeof key[1]}`);
  }

  fitsSort(sort: string, key: Cursor['key']): boolean {
    return this.sortTypes.get(sort) === `${typeof key[0]} ${typeof key[1]}`;
  }
}

// Keyed by the database's adapter: one object per Kysely instance, shared by its transactions and plugins.
const listMemories = new WeakMap<object, ListMemory>();
function listMemoryOf(db: Kysely<any>): ListMemory {
  const adapter = db.getExecutor().adapter;
  let memory = listMemories.get(adapter);
  if (!memory) listMemories.set(adapter, (memory = new ListMemory()));
  return memory;
}

/** How many list statements this database's lists templated, refused to template and filled (db/list-templates.ts): tests and benches. */
export const listTemplateCountsOf = (db: Kysely<any>) => listMemoryOf(db).shapes.counts;
