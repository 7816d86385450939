import type { CompiledQuery, Kysely } from 'kysely';
import { ListShapeMemory } from '../list-templates.ts';
import type { Cursor } from './cursor.ts';

// What a database's lists remember between requests: counts that reached their bound, probes, sort types.

/** A statement with its parameters: what the list memory knows a count or a probe by. */
export const statementKeyOf = (query: CompiledQuery) => `${query.sql}\u0000${JSON.stringify(query.parameters)}`;

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

export const COUNT_MEMORY_SIZE = 1_000;

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
export class ExpiringMemory<V> {
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

export class ListMemory {
  private readonly sortTypes = new Map<string, string>();
  /** The counts that reached their bound (by statement and parameters). */
  readonly boundedCounts = new ExpiringMemory<true>(COUNT_MEMORY_MS);
  /** The counts that were exact (below their bound) lately: counted in their page's statement next time (`listPage`). Not their totals. */
  readonly exactCounts = new ExpiringMemory<true>(COUNT_MEMORY_MS);
  /** SQLite: the rows of a search table holding a trigram, up to TRIGRAM_COUNT_CAP (`ftsTrigramRows`). */
  readonly trigramRows = new ExpiringMemory<number>(TRIGRAM_MEMORY_MS);
  /** The probes of common terms, by statement and parameters (`planSearches`). */
  readonly commonProbes = new ExpiringMemory<true>(TRIGRAM_MEMORY_MS);
  /** SQLite: the first and last key of a searched table (`keySpanOf`). */
  readonly keySpans = new ExpiringMemory<{ first: number | null; last: number | null }>(TRIGRAM_MEMORY_MS);

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
export const listMemories = new WeakMap<object, ListMemory>();

export function listMemoryOf(db: Kysely<any>): ListMemory {
  const adapter = db.getExecutor().adapter;
  let memory = listMemories.get(adapter);
  if (!memory) listMemories.set(adapter, (memory = new ListMemory()));
  return memory;
}

/** How many list statements this database's lists templated, refused to template and filled (db/list-templates.ts): tests and benches. */
export const listTemplateCountsOf = (db: Kysely<any>) => listMemoryOf(db).shapes.counts;
