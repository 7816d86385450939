import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, PostgresDriver, type Driver, type LogConfig, type PostgresDialectConfig } from 'kysely';
import pg from 'pg';
import { ConnectionQueue, QueuedConnectionDriver, type PoolRefusal } from './connection-queue.ts';
import { prepareRepeatedStatements } from './pg-prepared.ts';
import type { Database } from './schema.ts';
import { nodeSqliteDialect, openSqlite } from './sqlite-dialect.ts';
import { StatementTimeoutDriver, type StatementTimeoutCount } from './statement-timeout.ts';

// int8 (counts, epoch-ms times) arrives as a string by default; every value we store fits in a
// double, so parse it to a number for this pool only (no global type-parser change).
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * PostgreSQL: `prepared` (default true) sends repeated statements as named prepared statements
 * (db/pg-prepared.ts); `poolSize` (default 20) caps the connections; a caller waits for one at most
 * `poolWaitMs` (default 5 s) and at most `poolMaxWaiting` callers wait (default unbounded): past
 * either it is refused with PoolBusyError (answered 503).
 */
/** `busyTimeoutMs`: how long a statement waits for another connection's write lock (5000 unless given). */
export type DbTarget = { kind: 'sqlite'; file: string; busyTimeoutMs?: number } | { kind: 'postgres'; url: string; prepared?: boolean; poolSize?: number; poolWaitMs?: number; poolMaxWaiting?: number };

/** A PostgreSQL pool's figures now and its counts so far (监控查询, /metrics). */
export type PoolStats = {
  /** Connections it may open at most. */
  size: number;
  open: number;
  idle: number;
  inUse: number;
  /** Callers waiting for a connection now. */
  waiting: number;
  /** Callers that had to wait, and those refused, so far. */
  waits: number;
  refused: Record<PoolRefusal, number>;
  /** Statements cancelled by their statement timeout so far (db/statement-timeout.ts). */
  statementTimeouts: number;
};

const poolStats = new WeakMap<Kysely<Database>, () => PoolStats>();

/** The pool behind a PostgreSQL database; undefined on SQLite (its one connection is lent in turn). */
export const poolStatsOf = (db: Kysely<Database>): PoolStats | undefined => poolStats.get(db)?.();

/** Told when a PostgreSQL connection is lost and when a new one is made (infra/dependency-faults.ts DependencyWatch). */
export type ConnectionWatch = { lost: (error: unknown) => void; back: () => void };

/** How long a request waits for a new PostgreSQL connection to be made before it answers 503 (the database is away). */
const PG_CONNECT_TIMEOUT_MS = 5_000;
const PG_POOL_WAIT_MS = 5_000;

/**
 * `log` sees every statement run (the benchmarks capture the exact SQL of an endpoint with it); `watch`
 * hears of PostgreSQL connections lost and made.
 */
export function connectDatabase(target: DbTarget, options: { log?: LogConfig; watch?: ConnectionWatch } = {}): Kysely<Database> {

  if (target.kind === 'postgres') {
    const size = target.poolSize ?? 20;
    const pool = new pg.Pool({ connectionString: target.url, max: size, types: pgTypes, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, keepAlive: true });
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
    const queue = new ConnectionQueue({ size, waitMs: target.poolWaitMs ?? PG_POOL_WAIT_MS, maxWaiting: target.poolMaxWaiting });
    const timeouts: StatementTimeoutCount = { timedOut: 0 };
    const db = new Kysely<Database>({ dialect: new BoundedPostgresDialect({ pool }, queue, timeouts), log: options.log });
    poolStats.set(db, () => ({
      size, open: pool.totalCount, idle: pool.idleCount, inUse: pool.totalCount - pool.idleCount, waiting: queue.waiting + pool.waitingCount,
      waits: queue.counts.waits, refused: { ...queue.counts.refused }, statementTimeouts: timeouts.timedOut,
    }));
    return db;
  }
  if (target.file !== ':memory:') fs.mkdirSync(path.dirname(target.file), { recursive: true });
  return new Kysely<Database>({ dialect: nodeSqliteDialect(openSqlite(target.file, target.busyTimeoutMs)), log: options.log });
}

/**
 * The pool's connections lent through a bounded queue (db/connection-queue.ts) rather than pg-pool's own,
 * whose only bound is its connect timeout and whose waiters are neither counted nor capped; and each lent
 * with the caller's statement timeout (db/statement-timeout.ts).
 */
class BoundedPostgresDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig;
  readonly #queue: ConnectionQueue;
  readonly #timeouts: StatementTimeoutCount;

  constructor(config: PostgresDialectConfig, queue: ConnectionQueue, timeouts: StatementTimeoutCount) {
    super(config);
    this.#config = config;
    this.#queue = queue;
    this.#timeouts = timeouts;
  }

  override createDriver(): Driver {
    return new StatementTimeoutDriver(new QueuedConnectionDriver(new PostgresDriver(this.#config), this.#queue), this.#timeouts);
  }
}
