import { sql, type Kysely } from 'kysely';
import { listMemoryOf } from './memory.ts';

// Which trigrams of a search term to ask the index for: its dense ones left out.

/**
 * A trigram is dense when held by DENSE_TRIGRAM_ROWS rows or more and DENSE_OVER_RAREST times the text's
 * rarest trigram's; counts stop at TRIGRAM_COUNT_CAP.
 */
export const DENSE_TRIGRAM_ROWS = 1_000;

export const DENSE_OVER_RAREST = 8;

export const TRIGRAM_COUNT_CAP = 131_072;

/**
 * The parts of `text` to ask the trigram index for: `text` less its dense trigrams, whose long doclists
 * cost more to merge than checking the few extra candidates with `like` (docs/performance.md). No dense
 * trigram: the text as it is.
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

/** SQLite: what a candidate's `like` check costs, in FTS5 doclist entries (bench data). */
export const CANDIDATE_OVER_ENTRY = 25;

/**
 * SQLite: the trigrams of `text` to ask FTS5 for each on its own (AND) — the rarest, then the next rarest
 * sharing no character with those taken while it costs less than the candidates it rules out — when two or
 * more are worth it; else undefined. Overlapping trigrams narrow little (docs/performance.md, "Lists at scale").
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
export type TrigramCounter = { rowsOf: (trigram: string) => number | Promise<number>; resolution: number };

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

/** The rows a table's keys from `first` to `last` can hold (at least 1: an empty table's span is null). */
export const rowsSpanned = (first: number | null, last: number | null) => Math.max(Number(last ?? 0) - Number(first ?? 1) + 1, 1);

/**
 * The first and last key of a table: how many rows a probe's matches are spread over (chooseSearchPlan).
 * Remembered for TRIGRAM_MEMORY_MS: it moves as slowly as a trigram's count, and a common term's
 * request then runs its probe and its page, not a third statement.
 */
export async function keySpanOf(db: Kysely<any>, table: string, key: string): Promise<{ first: number | null; last: number | null }> {
  const memory = listMemoryOf(db);
  const remembered = memory.keySpans.get(table);
  if (remembered) return remembered;
  // two subqueries: SQLite reads min() and max() off the key only when each is a query of its own
  const { rows } = await sql<{ first: number | null; last: number | null }>`select (select min(${sql.ref(key)}) from ${sql.table(table)}) as first, (select max(${sql.ref(key)}) from ${sql.table(table)}) as last`.execute(db);
  const span = { first: rows[0]?.first ?? null, last: rows[0]?.last ?? null };
  memory.keySpans.set(table, span);
  return span;
}

/** `parts` as FTS5 phrases of `column`, all of them matched (a quote in a part is a character, not syntax). */
export const ftsPhraseOf = (column: string, parts: readonly string[]) => {
  const phrases = parts.map((part) => `"${part.replaceAll('"', '""')}"`);
  return phrases.length === 1 ? `${column} : ${phrases[0]}` : `${column} : (${phrases.join(' AND ')})`;
};
