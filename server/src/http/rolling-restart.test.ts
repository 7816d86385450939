import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind, type TestDatabase } from '../test/test-database.ts';
import { freePort, serverProcess, type ServerProcess } from '../test/server-process.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../test/round-robin-proxy.ts';
import { expectBooksExact, newFaults, sell, settledBooks, sleep, type Progress } from '../test/terminal-flow.ts';
import { prepareMachines } from '../../../tools/terminal-simulator/setup.ts';
import { startDevices } from '../../../tools/device-simulator/run-devices.ts';
import { expectCountersMatchRows } from '../test/devices.ts';
import { loginOverHttp, sendingTaskOverHttp } from '../test/sending-over-http.ts';

// A rolling restart of two instances behind a load balancer (test/round-robin-proxy.ts, health-checking
// /healthz): one stopped with SIGTERM while the other serves, started again, then the other — while 50
// machines sell and 10 devices send through the balancer. No machine notices: every call answered below 500
// on its first try (no 503, no refused connect reaches a machine or a device: nothing retried), both processes
// exit 0 having cut nothing, books exact, and no report lost: every number a device was told was applied is
// sent in the task's rows, its counters equal to those rows.
// Two instances need a shared database and Redis: PostgreSQL + Redis only.

const redisUrl = process.env.TEST_REDIS_URL;
const MACHINES = 50;
const PURCHASES = 3;
const DEVICES = 10;

type Figures = { ms: number; inFlightAtStart: number; cutOff: number };
const drainFigures = (stdout: string): Figures[] =>
  stdout.split('\n').filter((l) => l.includes('"drain"')).map((l) => (JSON.parse(l) as { drain: Figures }).drain);

describe.runIf(testDbKind() === 'postgres' && redisUrl)('rolling restart of two instances behind a load balancer (needs TEST_DATABASE_URL and TEST_REDIS_URL)', () => {
  let database: TestDatabase;
  let servers: ServerProcess[] = [];
  let proxy: RoundRobinProxy;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-rolling-'));
  const redisPrefix = `huiyun-test:${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    // the pay page's links (code URLs) name the balancer, not an instance
    const proxyPort = await freePort();
    const env = { REDIS_URL: redisUrl!, REDIS_PREFIX: redisPrefix, LOG_LEVEL: 'info', SHUTDOWN_GRACE_SECONDS: '20', SHUTDOWN_NOTICE_MS: '500', PUBLIC_BASE_URL: `http://127.0.0.1:${proxyPort}` };
    for (let i = 0; i < 2; i++) servers.push(await serverProcess({ dataDir, databaseUrl: database.url, env }));
    proxy = await startRoundRobinProxy(servers.map((s) => s.url), { checkMs: 50, port: proxyPort });
    for (const s of servers) await s.start(); // one after the other: the first seeds
  }, 90_000);

  afterAll(async () => {
    await proxy?.close();
    for (const s of servers) await s.kill();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('no machine notices: nothing refused, nothing failed, nothing lost', async () => {
    const machines = await prepareMachines({ server: proxy.url, admin: 'admin', password: 'Admin@12345', count: MACHINES, prefix: 'ROLL' });
    const machineCodes = Array.from({ length: DEVICES }, (_, i) => `roll-${i + 1}`);
    // more numbers than the devices send in the run (a number a second each, at 20 times the speed): they send throughout
    const sending = await sendingTaskOverHttp({ url: proxy.url, db: database.db, token: await loginOverHttp(proxy.url), machineCodes, numbers: 5_000, codePrefix: 'ROLLDEV', intervalSeconds: 1 });
    let seed = 5;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const fleet = startDevices({
      server: proxy.url, codes: sending.codes, machinePrefix: 'roll', speed: 20, failRate: 0.05, duplicateRate: 0, lateRate: 0, reportEvery: 5,
      retry: { firstDelayMs: 50, maxDelayMs: 500 }, random,
    });
    while (fleet.stats.sent < DEVICES) await sleep(10); // every device is sending
    const progress: Progress = { created: [], dispensed: 0, failed: 0 };
    const faults = newFaults();
    const selling = Promise.all(machines.map((m) => sell(proxy.url, m, PURCHASES, progress, faults, random)));
    const exits: (number | null)[] = [];
    for (const [i, share] of [[0, 0.25], [1, 0.6]] as const) {
      while (progress.created.length < MACHINES * PURCHASES * share) await sleep(10);
      exits.push(await servers[i]!.stop('SIGTERM'));
      await servers[i]!.start();
      await sleep(200); // the balancer's health check sees it back
    }
    await selling;
    fleet.stop(); // the devices report what they sent, then end
    const devices = await fleet.done;

    expect(exits, servers.map((s) => s.output().stderr + s.output().stdout.split('\n').filter((l) => /"level":(40|50|60)/.test(l)).join('\n')).join('\n---\n').slice(-3000)).toEqual([0, 0]);
    const figures = servers.flatMap((s) => drainFigures(s.output().stdout));
    expect(figures).toHaveLength(2);
    for (const f of figures) expect(f.cutOff).toBe(0);
    console.log(`rolling restart, ${MACHINES} machines and ${DEVICES} devices: drains ${figures.map((f) => `${f.ms} ms (${f.inFlightAtStart} in flight)`).join(', ')}; ${faults.unavailable} 503s and ${faults.other.length} other failures seen by machines; devices: ${devices.sent} sent, ${devices.failed} failed, ${devices.reports} reports, ${devices.retries} retried (${devices.lastError || 'none'}); ${proxy.unreachable()} unreachable at the balancer`);
    const serverWarnings = () => servers.map((s) => s.output().stdout.split('\n').filter((l) => /"level":(40|50|60)|"statusCode":5\d\d/.test(l)).join('\n')).join('\n---\n').slice(-4000);
    expect(faults.unavailable, serverWarnings()).toBe(0);
    expect(faults.other.slice(0, 20), serverWarnings()).toEqual([]);
    expect(proxy.unreachable()).toBe(0);
    expect(await settledBooks(database.db)).toBe(0);
    await expectBooksExact(database.db, 'ROLL', progress);
    expect(progress.dispensed + progress.failed).toBe(MACHINES * PURCHASES);

    expect([devices.errors, devices.retries, devices.refused, devices.duplicatesApplied], devices.lastError).toEqual([0, 0, 0, 0]);
    expect(devices.reports).toBeGreaterThan(DEVICES);
    await expectCountersMatchRows(database.db, sending.taskId);
    const task = await database.db.selectFrom('sync_task').select(['totalSendNum', 'failNum']).where('taskId', '=', sending.taskId).executeTakeFirstOrThrow();
    // each answered report applied once, none lost in a drain: the server's counters are what the devices were told
    expect([task.totalSendNum, task.failNum]).toEqual([devices.sent, devices.failed]);
  }, 240_000);
});
