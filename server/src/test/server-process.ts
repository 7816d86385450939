import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { connectDatabase } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { createTestDatabase, testDbKind } from './test-database.ts';

// A real server process for crash tests: started on a free port over a data directory (SQLite) or a
// database URL, killed with SIGKILL (no shutdown hook runs), started again on the same data.

const SERVER_MAIN = path.resolve(import.meta.dirname, '../main.ts');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    }).on('error', reject);
  });
}

export type ServerProcess = {
  readonly url: string;
  /** Starts the server (again) and waits until /healthz answers. */
  start: () => Promise<void>;
  /** SIGKILL, and waits for the exit (on PostgreSQL, serverOnTestDatabase's also for the dead server's backends to end). */
  kill: () => Promise<void>;
  /** Sends `signal` (a graceful stop: SIGTERM) and waits for the exit; answers the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
  /** The application_name its PostgreSQL connections carry (PGAPPNAME), to find its backends. */
  readonly applicationName: string;
  /** Times the process ended by itself, not by kill (a fault test: it must never). */
  readonly exitedByItself: () => number;
  /** The process id of the one running now (its memory: /proc/<pid>/status). */
  readonly pid: () => number | undefined;
  /** What the processes started so far wrote to stdout (the JSON log) and to stderr. */
  readonly output: () => { stdout: string; stderr: string };
};

/** startWithinMs: how long a start may take (default 15 s; a SERVER_WORKERS server starts its processes one after another). */
export async function serverProcess(options: { dataDir: string; databaseUrl?: string; env?: Record<string, string>; startWithinMs?: number }): Promise<ServerProcess> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exitedByItself = 0;
  let killing = false;
  const output = { stdout: '', stderr: '' };
  const applicationName = `huiyun-test-server-${port}`;
  const start = async () => {
    const started = spawn(process.execPath, [SERVER_MAIN], {
      env: {
        ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: options.dataDir, LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'Admin@12345', REDIS_URL: '', PGAPPNAME: applicationName,
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}), ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      output.stderr += chunk.toString();
    });
    started.stdout?.on('data', (chunk: Buffer) => void (output.stdout += chunk.toString()));
    started.once('exit', () => { if (!killing) exitedByItself++; });
    child = started;
    for (let i = 0; i < (options.startWithinMs ?? 15_000) / 50; i++) {
      if (started.exitCode !== null) throw new Error(`server exited with ${started.exitCode}: ${stderr}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
      } catch { /* not listening yet */ }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('server did not start');
  };
  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    killing = true;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
    killing = false;
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const running = child;
    if (!running || running.exitCode !== null) return running?.exitCode ?? null;
    killing = true;
    const code = await new Promise<number | null>((resolve) => {
      running.once('exit', (exitCode) => resolve(exitCode));
      running.kill(signal);
    });
    killing = false;
    return code;
  };
  return { url: `http://127.0.0.1:${port}`, start, kill, stop, applicationName, exitedByItself: () => exitedByItself, pid: () => child?.pid, output: () => output };
}

export type ServerOnTestDatabase = { server: ServerProcess; db: Kysely<Database>; dataDir: string; /** PostgreSQL: the server's database */ databaseUrl?: string; close: () => Promise<void> };

/**
 * A server process on a database of its own — a fresh PostgreSQL database when TEST_DATABASE_URL is set,
 * else SQLite in a temporary data directory — started (migrated, seeded), and a connection for the test
 * to read it. close() kills the server and drops everything. `via` gives the URL the server reaches
 * PostgreSQL by (a fault test's proxy, test/tcp-proxy.ts); the test's own connection goes direct.
 */
export async function serverOnTestDatabase(env: Record<string, string> = {}, options: { via?: (databaseUrl: string) => string; startWithinMs?: number } = {}): Promise<ServerOnTestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-process-'));
  const testDb = testDbKind() === 'postgres' ? await createTestDatabase({ migrated: true }) : undefined;
  const databaseUrl = testDb?.url && options.via ? options.via(testDb.url) : testDb?.url;
  const started = await serverProcess({ dataDir, databaseUrl, env, startWithinMs: options.startWithinMs });
  // A SIGKILLed server's PostgreSQL backends outlive it for a moment: one running a statement (a COMMIT among
  // them) finishes it before it sees the connection gone. "Nothing writes after a kill" holds once they are gone.
  const server: ServerProcess = testDb
    ? { ...started, kill: async () => { await started.kill(); await backendsGone(testDb.db, started.applicationName); } }
    : started;
  try {
    await server.start();
  } catch (error) {
    // one that did not start in time may still run: end it and drop its database all the same
    await server.kill();
    await testDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const db = testDb?.db ?? connectDatabase({ kind: 'sqlite', file: path.join(dataDir, 'huiyun.db') });
  return {
    server,
    db,
    dataDir,
    databaseUrl: testDb?.url,
    close: async () => {
      await server.kill();
      await db.destroy();
      if (testDb) await testDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function backendsGone(db: Kysely<Database>, applicationName: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = ${applicationName}`.execute(db);
    if (rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the killed server's PostgreSQL backends (${applicationName}) did not end within 10 s`);
}
