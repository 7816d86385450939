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
 * Runs `work` (the endpoint's own query function) twice on a second connection to the bench database and
 * answers the statements the second run executed — what the server runs for a repeated request (a list's
 * count that reached its bound is remembered a few seconds: db/list/memory.ts) — so a raw-driver baseline
 * replays exactly the same SQL.
 */
export function captureQueries(server: BenchServer, work: (db: Kysely<Database>) => Promise<unknown>): Promise<CapturedQuery[]> {
  // SQLite: a second connection in the server's process, so a held lock is waited for without blocking (sqlite-busy.ts)
  return whenUnlocked(async () => {
    const captured: CapturedQuery[] = [];
    let capturing = false;
    const log = (event: { level: string; query: { sql: string; parameters: readonly unknown[] } }) => {
      if (capturing && event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters });
    };
    const db = server.dbKind === 'postgres'
      ? connectDatabase({ kind: 'postgres', url: server.databaseUrl! }, { log })
      : connectDatabase({ kind: 'sqlite', file: server.sqliteFile!, busyTimeoutMs: 0 }, { log });
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
