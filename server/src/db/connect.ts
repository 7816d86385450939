import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, type LogConfig } from 'kysely';
import pg from 'pg';
import { prepareRepeatedStatements } from './pg-prepared.ts';
import type { Database } from './schema.ts';
import { nodeSqliteDialect, openSqlite } from './sqlite-dialect.ts';

// int8 (counts, epoch-ms times) arrives as a string by default; every value we store fits in a
// double, so parse it to a number for this pool only (no global type-parser change).
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * PostgreSQL: `prepared` (default true) sends repeated statements as named prepared statements
 * (db/pg-prepared.ts); `poolSize` (default 20) caps the connections.
 */
export type DbTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; prepared?: boolean; poolSize?: number };

/** The pool behind a PostgreSQL database, for 监控查询's in use / idle / waiting (modules/monitor/server). */
export const pgPoolOf = new WeakMap<Kysely<Database>, pg.Pool>();

/** Told when a PostgreSQL connection is lost and when a new one is made (infra/dependency-faults.ts DependencyWatch). */
export type ConnectionWatch = { lost: (error: unknown) => void; back: () => void };

/** How long a request waits for a new PostgreSQL connection before it answers 503 (the database is away). */
const PG_CONNECT_TIMEOUT_MS = 5_000;

/**
 * `log` sees every statement run (the benchmarks capture the exact SQL of an endpoint with it); `watch`
 * hears of PostgreSQL connections lost and made.
 */
export function connectDatabase(target: DbTarget, options: { log?: LogConfig; watch?: ConnectionWatch } = {}): Kysely<Database> {

  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 20, types: pgTypes, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, keepAlive: true });
    // A connection that dies (PostgreSQL restarted) emits 'error': on the pool while idle, on the client
    // while a request holds it — unheard, either one ends the process. The query under way fails by itself
    // (503), the pool drops the dead client and makes a new one for the next request.
    const lost = (error: unknown) => options.watch?.lost(error);
    pool.on('error', lost);
    pool.on('connect', (client) => {
      client.on('error', lost);
      options.watch?.back();
    });
    // (and a connection that cannot be made: Kysely asks for one by the promise form)
    const connect = pool.connect.bind(pool) as (...args: unknown[]) => Promise<pg.PoolClient> | undefined;
    pool.connect = ((...args: unknown[]) => (args.length > 0 ? connect(...args) : connect()!.catch((error: unknown) => {
      lost(error);
      throw error;
    }))) as typeof pool.connect;
    if (target.prepared !== false) pool.on('connect', (client) => prepareRepeatedStatements(client));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: options.log });
    pgPoolOf.set(db, pool);
    return db;
  }
  if (target.file !== ':memory:') fs.mkdirSync(path.dirname(target.file), { recursive: true });
  return new Kysely<Database>({ dialect: nodeSqliteDialect(openSqlite(target.file)), log: options.log });
}
