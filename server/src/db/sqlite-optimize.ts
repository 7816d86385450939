import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialect.ts';
import { runPeriodically } from './periodic.ts';

// SQLite's planner statistics (sqlite_stat1), kept as SQLite advises for a long-lived connection
// (https://sqlite.org/lang_analyze.html#autoanalyze): `PRAGMA optimize=0x10002` once the server is up,
// then `PRAGMA optimize` every hour. Each analyses only the tables whose statistics are missing or out of
// date, reading at most ANALYSIS_LIMIT rows of each index (milliseconds at a million rows). PostgreSQL's
// autovacuum does the same there. Without statistics SQLite plans by rules of thumb: the list benches ran
// ANALYZE after seeding, and now the product plans with what they measured.

/** Rows of each index ANALYZE reads (an estimate from a sample is enough for the planner). */
export const ANALYSIS_LIMIT = 1_000;

export type SqliteOptimizer = { stop: () => Promise<void> };

/** Runs the first pass at once (in the background) and one every `everyMs`; nothing on PostgreSQL. */
export function startSqliteOptimizer(db: Kysely<any>, options: { everyMs?: number; onError?: (error: unknown) => void } = {}): SqliteOptimizer {
  if (dialectOf(db) !== 'sqlite') return { stop: async () => {} };
  return runPeriodically((first) => optimizeSqlite(db, first).catch((error: unknown) => options.onError?.(error)), options.everyMs ?? 3_600_000);
}

/** One pass; `first`: also the tables never analysed, however small (0x10002: all tables, this connection's first). */
export async function optimizeSqlite(db: Kysely<any>, first: boolean): Promise<void> {
  await sql`pragma analysis_limit = ${sql.raw(String(ANALYSIS_LIMIT))}`.execute(db);
  await sql.raw(first ? 'pragma optimize = 0x10002' : 'pragma optimize').execute(db);
}
