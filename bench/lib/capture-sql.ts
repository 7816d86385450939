import type { Kysely } from 'kysely';
import { connectDatabase } from '../../server/src/db/connect.ts';
import type { Database } from '../../server/src/db/schema.ts';
import type { BenchServer } from './server.ts';

export type CapturedQuery = { sql: string; parameters: readonly unknown[] };

/**
 * Runs `work` (the endpoint's own query function) on a second connection to the bench database and
 * answers the statements it executed, so a raw-driver baseline replays exactly the same SQL.
 */
export async function captureQueries(server: BenchServer, work: (db: Kysely<Database>) => Promise<unknown>): Promise<CapturedQuery[]> {
  const captured: CapturedQuery[] = [];
  const log = (event: { level: string; query: { sql: string; parameters: readonly unknown[] } }) => {
    if (event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters });
  };
  const db = server.dbKind === 'postgres'
    ? connectDatabase({ kind: 'postgres', url: server.databaseUrl! }, { log })
    : connectDatabase({ kind: 'sqlite', file: server.sqliteFile! }, { log });
  try {
    await work(db);
  } finally {
    await db.destroy();
  }
  return captured;
}
