import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { SystemSnapshot } from '@huiyun/contract';
import type { Config } from '../../../config.ts';
import { poolStatsOf } from '../../../db/connect.ts';
import { dialectOf } from '../../../db/dialect.ts';
import type { Database } from '../../../db/schema.ts';

// The database: its kind, its size on disk, the pool (PostgreSQL), and the slowest statements by mean time
// from pg_stat_statements when the extension is loaded (it needs shared_preload_libraries; not assumed).

async function slowestStatements(db: Kysely<Database>) {
  const loaded = await sql<{ found: number }>`select count(*) as found from pg_extension where extname = 'pg_stat_statements'`.execute(db);
  if (Number(loaded.rows[0]?.found ?? 0) === 0) return null;
  try {
    const rows = await sql<{ statement: string; calls: string | number; meanMs: string | number }>`
      select left(query, 300) as statement, calls, mean_exec_time as "meanMs" from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database()) order by mean_exec_time desc limit 10`.execute(db);
    return rows.rows.map((r) => ({ statement: r.statement, calls: Number(r.calls), meanMs: Math.round(Number(r.meanMs) * 100) / 100 }));
  } catch {
    return null; // listed but not preloaded: the view refuses to be read
  }
}

const fileSize = (file: string) => {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
};

export async function databaseStats(db: Kysely<Database>, config: Config): Promise<SystemSnapshot['database']> {
  if (dialectOf(db) === 'postgres') {
    const size = await sql<{ size: string | number }>`select pg_database_size(current_database()) as size`.execute(db);
    const pool = poolStatsOf(db);
    return {
      kind: 'postgres',
      sizeBytes: Number(size.rows[0]?.size ?? 0),
      pool: pool ? { total: pool.open, idle: pool.idle, waiting: pool.waiting } : null,
      slowest: await slowestStatements(db),
    };
  }
  const file = config.sqliteFile ?? path.join(config.dataDir, 'huiyun.db');
  const sizeBytes = file === ':memory:' ? null : fileSize(file) + fileSize(`${file}-wal`);
  return { kind: 'sqlite', sizeBytes, pool: null, slowest: null };
}
