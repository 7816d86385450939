import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type App } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { connectDatabase } from '../../server/src/db/connect.ts';
import { createTestDatabase } from '../../server/src/test/test-database.ts';
import { startChildServer } from './child-server.ts';

export type BenchServer = App & {
  url: string; dbKind: 'sqlite' | 'postgres'; sqliteFile?: string; databaseUrl?: string;
  /** Closes the server and drops its database; `keepAs` first copies a PostgreSQL database to a database of that name. */
  close: (keepAs?: string) => Promise<void>;
};

export const ADMIN_PASSWORD = 'Admin@12345';

/**
 * The real server listening on a loopback port, on a throw-away database: a SQLite file, or (with
 * BENCH_DB=postgres and TEST_DATABASE_URL) a fresh PostgreSQL database dropped afterwards. `settings`: more of the
 * product's settings (environment names) for this bench's server.
 */
export async function startBenchServer(settings: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-bench-'));
  const postgres = process.env.BENCH_DB === 'postgres';
  let drop = async () => {};
  let db;
  let sqliteFile: string | undefined;
  let databaseUrl: string | undefined;
  // The product's own settings where a bench run passes them (DATABASE_PREPARED_STATEMENTS, DATABASE_POOL_SIZE).
  const config = loadConfig({
    ADMIN_PASSWORD, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', LOGIN_SLOWDOWN_MS: '0', DATABASE_PREPARED_STATEMENTS: process.env.DATABASE_PREPARED_STATEMENTS,
    DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE, ...settings,
  });
  if (postgres) {
    process.env.TEST_DB = 'postgres';
    const testDb = await createTestDatabase({ prepared: config.preparedStatements, poolSize: config.poolSize, migrated: true });
    db = testDb.db;
    drop = testDb.drop;
    databaseUrl = testDb.url;
  } else {
    sqliteFile = path.join(dataDir, 'bench.db');
    db = connectDatabase({ kind: 'sqlite', file: sqliteFile });
  }
  const app = await buildApp(config, { db, logger: false });
  // a long accept queue (the kernel caps it at net.core.somaxconn): a bench opening hundreds of connections
  // at once must not lose SYNs to the default 511 and wait out their 1, 3, 7, 15 s retransmits
  const address = await app.app.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });
  return {
    ...app,
    url: address,
    dbKind: postgres ? 'postgres' : 'sqlite',
    sqliteFile,
    databaseUrl,
    close: async (keepAs?: string) => {
      await app.app.close();
      if (keepAs && databaseUrl) await copyDatabase(databaseUrl, keepAs);
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A copy of the (closed) PostgreSQL database at `url`, named `name`: a seeded bench database to look at plans by hand. */
async function copyDatabase(url: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${pg.escapeIdentifier(name)}`);
    await admin.query(`create database ${pg.escapeIdentifier(name)} template ${pg.escapeIdentifier(new URL(url).pathname.slice(1))}`);
  } finally {
    await admin.end();
  }
}

/**
 * The server on `server`'s (seeded) database in a process of its own (serve-child.ts): what a list bench
 * loads with autocannon, so the load generator does not run on the server's event loop. BENCH_IN_PROCESS=1
 * answers `server` itself (how the list benches measured before 2026-11-24 16:00 UTC). BENCH_CPU_PROF=dir writes
 * the serving process's --cpu-prof there. `env`: settings of that process (e.g. CHARTS_RANK_CACHE_SECONDS).
 */
export async function servingProcess(server: BenchServer, env: Record<string, string> = {}): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  if (process.env.BENCH_IN_PROCESS === '1') return { url: server.url, pid: process.pid, stop: async () => {} };
  const cpuProfDir = process.env.BENCH_CPU_PROF; // a profile of the serving process, as bench/terminal.ts writes one
  return startChildServer<{ url: string }>(path.join(import.meta.dirname, 'serve-child.ts'), cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [],
    { ...env, ...(server.databaseUrl ? { BENCH_SERVE_DATABASE_URL: server.databaseUrl } : { BENCH_SERVE_SQLITE: server.sqliteFile! }) });
}

/** `body` (of page N) with the cursor the list answered for page N − 1: what the pager sends stepping one page forward. */
export async function withCursorOfPageBefore(url: string, token: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const pageField = 'pageNum' in body ? 'pageNum' : 'page';
  const before = { ...body, [pageField]: Number(body[pageField]) - 1 };
  const answer = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify(before) })).json()) as { next?: string };
  if (!answer.next) throw new Error(`no cursor in the answer for ${JSON.stringify(before)}`);
  return { ...body, after: answer.next };
}

export async function loginAs(server: Pick<BenchServer, 'url'>, userName: string, passwd: string): Promise<string> {
  const response = await fetch(`${server.url}/sync/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName, passwd }),
  });
  const body = (await response.json()) as { data?: { token: string } };
  if (!body.data) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.data.token;
}

/**
 * How the server reaches PostgreSQL at `url`: over TCP (`host:port`) or a Unix socket (`?host=/dir`). On one
 * machine the socket costs the server and the backends less a round trip (docs/performance.md, "What a purchase costs").
 */
export function databaseTransport(url: string): string {
  const parsed = new URL(url);
  const host = parsed.searchParams.get('host') ?? decodeURIComponent(parsed.hostname);
  return host.startsWith('/') ? `Unix socket ${host}` : `TCP ${host}:${parsed.port || '5432'}`;
}
