import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { serverOnTestDatabase, type ServerProcess } from '../../../test/server-process.ts';
import { startTcpProxy, targetOf, type TcpProxy } from '../../../test/tcp-proxy.ts';
import { testDbKind } from '../../../test/test-database.ts';
import { expectBooksExact, newFaults, sell, settledBooks, sleep, untilAnswered, type Progress } from '../../../test/terminal-flow.ts';
import { prepareMachines, type SimMachine } from '../../../../../tools/terminal-simulator/setup.ts';
import { TerminalClient } from '../../../../../tools/terminal-simulator/terminal-client.ts';

// A real server process whose PostgreSQL and Redis are reached through proxies the test cuts
// (every live connection destroyed, new ones refused) and restores — the shared services are never
// stopped. The process must never exit, answer 503 with its message while a dependency is away, serve
// again by itself when it is back, and leave the books exact. On SQLite: a write lock held elsewhere
// (SQLITE_BUSY) answers 503, and the next request goes through.

const ADMIN = 'Admin@12345';
const GENEROUS = 15_000; // no request may hang: each must answer well within this
const onPostgres = testDbKind() === 'postgres';
const redisUrl = process.env.TEST_REDIS_URL;

type Answer = { status: number; body: { success: boolean; msg: string; data?: any } };

async function request(server: ServerProcess, method: 'GET' | 'POST', url: string, options: { token?: string; body?: unknown } = {}): Promise<Answer> {
  const answer = await fetch(`${server.url}${url}`, {
    method,
    headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(options.token ? { token: options.token } : {}) },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(GENEROUS),
  });
  return { status: answer.status, body: await answer.json() as Answer['body'] };
}

const machineList = (server: ServerProcess, token: string) => request(server, 'POST', '/api/Machine/list', { token, body: { page: 1, limit: 10 } });
const login = (server: ServerProcess) => request(server, 'POST', '/sync/login', { body: { userName: 'admin', passwd: ADMIN } });
const logLines = (server: ServerProcess, msg: string) => server.output().stdout.split('\n').filter((line) => line.includes(`"msg":"${msg}"`)).length;

/** Polls `probe` until `done` says yes (each probe answers within GENEROUS; the test's timeout bounds the wait). */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    await sleep(100);
  }
}

describe.runIf(onPostgres)('PostgreSQL and Redis away, through a proxy the test cuts', () => {
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy | undefined;
  let server: ServerProcess;
  let db: Kysely<Database>;
  let close: (() => Promise<void>) | undefined;
  let machines: SimMachine[];
  const redisPrefix = `huiyun-test:${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    pgProxy = await startTcpProxy(targetOf(process.env.TEST_DATABASE_URL!));
    redisProxy = redisUrl ? await startTcpProxy(targetOf(redisUrl)) : undefined;
    const env = { PAY_SWEEP_SECONDS: '1', PAY_RECOVER_SECONDS: '2', REDIS_PREFIX: redisPrefix, ...(redisProxy ? { REDIS_URL: redisProxy.via(redisUrl!) } : {}) };
    ({ server, db, close } = await serverOnTestDatabase(env, { via: pgProxy.via }));
    machines = await prepareMachines({ server: server.url, admin: 'admin', password: ADMIN, count: 3, prefix: 'OUTAGE' });
  }, 60_000);

  afterAll(async () => {
    await close?.();
    await pgProxy?.close();
    await redisProxy?.close();
    if (redisUrl) {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${redisPrefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });

  it('PostgreSQL cut while machines sell: 503 with its message, nothing exits, the flow goes on after, the books exact', async () => {
    const token = (await login(server)).body.data.token as string;
    let seed = 11;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const progress: Progress = { created: [], dispensed: 0, failed: 0 };
    const faults = newFaults();
    const selling = Promise.all(machines.map((m) => sell(server.url, m, 8, progress, faults, random)));

    while (progress.created.length < 6) await sleep(20);
    pgProxy.cut();
    const list = await machineList(server, token);
    expect(list.status).toBe(503);
    expect(list.body.msg).toBe(messages.common.databaseUnavailable);
    const health = await request(server, 'GET', '/healthz');
    expect(health.status).toBe(503);
    expect(health.body.data.database).toBe('down');
    expect((await request(server, 'GET', '/livez')).status).toBe(200);
    // the machines meet it too, and keep asking
    await until(async () => faults.unavailable, (n) => n >= 3);
    await sleep(1_500); // a sweep or two fails meanwhile
    pgProxy.restore();

    await selling;
    expect(faults.other).toEqual([]);
    expect(await settledBooks(db)).toBe(0);
    await expectBooksExact(db, 'OUTAGE', progress);
    expect(progress.dispensed + progress.failed).toBe(machines.length * 8);
    expect((await request(server, 'GET', '/healthz')).status).toBe(200);
    expect((await machineList(server, token)).status).toBe(200);
    expect(server.exitedByItself()).toBe(0);
    expect(logLines(server, 'PostgreSQL unreachable')).toBe(1);
    expect(logLines(server, 'PostgreSQL back')).toBe(1);
    expect(server.output().stderr).not.toMatch(/Unhandled|ECONNRESET/);
  }, 120_000);

  it.runIf(redisUrl)('Redis cut: the console answers 503, login is refused (not hung), a machine still sells; one log line each way', async () => {
    const token = (await login(server)).body.data.token as string;
    expect((await machineList(server, token)).status).toBe(200);
    redisProxy!.cut();
    // (a session read within the last second is answered from this instance's memory: then Redis is asked)
    const list = await until(() => machineList(server, token), (a) => a.status !== 200);
    expect(list.status).toBe(503);
    expect(list.body.msg).toBe(messages.common.redisUnavailable);
    const refused = await login(server);
    expect(refused.status).toBe(503);
    expect(refused.body.msg).toBe(messages.login.throttleUnavailable);
    const health = await request(server, 'GET', '/healthz');
    expect(health.status).toBe(503);
    expect(health.body.data).toEqual({ database: 'up', redis: 'down' });
    expect((await request(server, 'GET', '/livez')).status).toBe(200);

    // a machine's purchase needs no Redis: it goes through with no fault at all
    const progress: Progress = { created: [], dispensed: 0, failed: 0 };
    const faults = newFaults();
    await sell(server.url, machines[0]!, 2, progress, faults, () => 0.5);
    expect(faults).toEqual(newFaults());
    expect(progress.dispensed).toBe(2);

    redisProxy!.restore();
    await until(() => request(server, 'GET', '/healthz'), (a) => a.status === 200);
    // the same session serves again (Redis kept it), and logins go through
    expect((await machineList(server, token)).status).toBe(200);
    expect((await login(server)).body.success).toBe(true);
    expect(server.exitedByItself()).toBe(0);
    expect(logLines(server, 'Redis unreachable')).toBe(1);
    expect(logLines(server, 'Redis back')).toBe(1);
    expect(server.output().stderr).not.toMatch(/ioredis|Unhandled/);
  }, 60_000);
});

describe.runIf(!onPostgres)('SQLite busy: a write lock held elsewhere', () => {
  let server: ServerProcess;
  let dataDir: string;
  let close: (() => Promise<void>) | undefined;
  let machine: SimMachine;

  beforeAll(async () => {
    ({ server, dataDir, close } = await serverOnTestDatabase());
    [machine] = await prepareMachines({ server: server.url, admin: 'admin', password: ADMIN, count: 1, prefix: 'BUSY' });
  }, 60_000);

  afterAll(async () => close?.());

  it('answers 503 with its message past the busy timeout, and the next request goes through', async () => {
    const client = new TerminalClient(server.url, machine!.machineNo, machine!.key);
    const other = new DatabaseSync(path.join(dataDir, 'huiyun.db'));
    other.exec('begin immediate');
    let busy;
    try {
      busy = await client.call('/order/create', { aisleNo: 'A1', payType: 3 }, GENEROUS);
    } finally {
      other.exec('rollback');
      other.close();
    }
    expect(busy.status).toBe(503);
    expect(busy.body.msg).toBe(messages.common.databaseUnavailable);
    const created = await untilAnswered(newFaults(), () => client.call<{ orderNo: string }>('/order/create', { aisleNo: 'A1', payType: 3 }, GENEROUS));
    expect(created.body.success, created.body.msg).toBe(true);
    expect((await request(server, 'GET', '/healthz')).status).toBe(200);
    expect(server.exitedByItself()).toBe(0);
  }, 30_000);
});
