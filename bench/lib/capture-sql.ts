import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { connectDatabase } from '../../server/src/db/connect.ts';
import type { Database } from '../../server/src/db/schema.ts';
import { measureLoop, type Figures } from './measure.ts';
import type { BenchServer } from './server.ts';
import { whenUnlocked } from './sqlite-busy.ts';

export type CapturedQuery = { sql: string; parameters: readonly unknown[] };

/**
 * A second connection to the bench server's database, statements seen by `log`. On SQLite it lives in the server's
 * own process, so it never waits for a lock (busy timeout 0): run its work under whenUnlocked (sqlite-busy.ts).
 */
export function connectBeside(server: BenchServer, log: (event: { level: string; query: CapturedQuery }) => void): Kysely<Database> {
  return server.dbKind === 'postgres'
    ? connectDatabase({ kind: 'postgres', url: server.databaseUrl! }, { log })
    : connectDatabase({ kind: 'sqlite', file: server.sqliteFile!, busyTimeoutMs: 0 }, { log });
}

/**
 * Runs `work` (the endpoint's own query function) twice on a second connection to the bench database and
 * answers the statements the second run executed — what the server runs for a repeated request (a list's
 * count that reached its bound is remembered a few seconds: db/list/memory.ts) — so a raw-driver baseline
 * replays exactly the same SQL.
 */
export function captureQueries(server: BenchServer, work: (db: Kysely<Database>) => Promise<unknown>): Promise<CapturedQuery[]> {
  return whenUnlocked(async () => {
    const captured: CapturedQuery[] = [];
    let capturing = false;
    const db = connectBeside(server, (event) => {
      if (capturing && event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters });
    });
    try {
      await work(db);
      capturing = true;
      await work(db);
    } finally {
      await db.destroy();
    }
    return captured;
  });
}

/** The baseline of a list bench: the captured statements replayed straight through the bare driver, under the same load. */
export async function replayThroughDriver(
  server: BenchServer,
  statements: readonly CapturedQuery[],
  label: string,
  load: { concurrency: number; seconds: number },
): Promise<Figures> {
  if (server.dbKind === 'sqlite') {
    const raw = new DatabaseSync(server.sqliteFile!, { readOnly: true });
    const prepared = statements.map((s) => ({ statement: raw.prepare(s.sql), parameters: s.parameters as SQLInputValue[] }));
    const figures = await measureLoop(label, () => prepared.map((p) => p.statement.all(...p.parameters)), load);
    raw.close();
    return figures;
  }
  const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 20 });
  const figures = await measureLoop(label, async () => {
    for (const s of statements) await pool.query(s.sql, s.parameters as unknown[]);
  }, load);
  await pool.end();
  return figures;
}
