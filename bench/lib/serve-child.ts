// The bench's serving process: the real server on a database a bench has already seeded (the SQLite
// file or PostgreSQL database of `startBenchServer`), in a process of its own, so the load generator
// (autocannon, in the bench's process) does not share the server's event loop — as in production,
// where the load comes from elsewhere. Prints one JSON line `{url}`, serves until stdin closes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { connectDatabase } from '../../server/src/db/connect.ts';
import { ADMIN_PASSWORD } from './server.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-bench-serve-'));
// BENCH_SERVE_LOG_FILE: the product's logger at LOG_LEVEL (default info, as shipped), written to that file
const logFile = process.env.BENCH_SERVE_LOG_FILE;
const config = loadConfig({
  ADMIN_PASSWORD, DATA_DIR: dataDir, LOG_LEVEL: logFile ? process.env.LOG_LEVEL : 'silent', PORT: '0', LOGIN_SLOWDOWN_MS: '0',
  DATABASE_PREPARED_STATEMENTS: process.env.DATABASE_PREPARED_STATEMENTS, DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE,
  CHARTS_RANK_CACHE_SECONDS: process.env.CHARTS_RANK_CACHE_SECONDS,
});
const target = process.env.BENCH_SERVE_DATABASE_URL
  ? { kind: 'postgres' as const, url: process.env.BENCH_SERVE_DATABASE_URL, prepared: config.preparedStatements, poolSize: config.poolSize }
  : { kind: 'sqlite' as const, file: process.env.BENCH_SERVE_SQLITE! };
const app = await buildApp(config, { db: connectDatabase(target), ...(logFile ? { logStream: pino.destination({ dest: logFile, sync: true }) } : { logger: false }) });
const url = await app.app.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });
process.stdout.write(`${JSON.stringify({ url })}\n`);
process.stdin.resume();
await new Promise((resolve) => process.stdin.on('end', resolve));
await app.app.close(); // closes the database too
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
