import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { connectDatabase } from '../../server/src/db/connect.ts';
import { createTestDatabase } from '../../server/src/test/test-database.ts';

export type BenchServer = App & { url: string; dbKind: 'sqlite' | 'postgres'; sqliteFile?: string; databaseUrl?: string; close: () => Promise<void> };

export const ADMIN_PASSWORD = 'Admin@12345';

/**
 * The real server listening on a loopback port, on a throw-away database: a SQLite file, or (with
 * BENCH_DB=postgres and TEST_DATABASE_URL) a fresh PostgreSQL database dropped afterwards.
 */
export async function startBenchServer(): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-bench-'));
  const postgres = process.env.BENCH_DB === 'postgres';
  let drop = async () => {};
  let db;
  let sqliteFile: string | undefined;
  let databaseUrl: string | undefined;
  // The product's own settings where a bench run passes them (DATABASE_PREPARED_STATEMENTS, DATABASE_POOL_SIZE).
  const config = loadConfig({
    ADMIN_PASSWORD, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', LOGIN_SLOWDOWN_MS: '0', DATABASE_PREPARED_STATEMENTS: process.env.DATABASE_PREPARED_STATEMENTS,
    DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE,
  });
  if (postgres) {
    process.env.TEST_DB = 'postgres';
    const testDb = await createTestDatabase({ prepared: config.preparedStatements, poolSize: config.poolSize });
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
    close: async () => {
      await app.app.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function loginAs(server: BenchServer, userName: string, passwd: string): Promise<string> {
  const response = await fetch(`${server.url}/sync/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName, passwd }),
  });
  const body = (await response.json()) as { data?: { token: string } };
  if (!body.data) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.data.token;
}
