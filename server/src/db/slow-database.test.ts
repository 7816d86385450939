import fs from 'node:fs';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './schema.ts';
import { serverOnTestDatabase, type ServerProcess } from '../test/server-process.ts';
import { startTcpProxy, targetOf, type TcpProxy } from '../test/tcp-proxy.ts';
import { testDbKind } from '../test/test-database.ts';
import { expectBooksExact, newFaults, sell, settledBooks, sleep, type Faults, type Progress } from '../test/terminal-flow.ts';
import { prepareMachines, type SimMachine } from '../../../tools/terminal-simulator/setup.ts';

// A real server process whose PostgreSQL is 200 ms a round trip away (the proxy holds each chunk 100 ms each
// way), its pool small, and twice as many machines buying as the pool has connections. What the pool cannot
// serve in time is refused with 503 (the machines back off and try again, as the protocol says) instead of
// piling up: every answer is 2xx or 503, none hangs (the machines' own 15 s timeout never fires), the
// process's memory stays flat, /metrics counts the refusals. With the latency gone, every purchase goes
// through again without a restart, and the books recount exactly.

const POOL = 3;
const MACHINES = POOL * 2;
const PURCHASES = 3;
const METRICS_TOKEN = 'metrics-token-0123456789';
/** How much the server's resident memory may grow over the slow run (its start: some 150–250 MB). */
const RSS_GROWTH_BOUND = 64 * 1024 * 1024;
/** The machines' backoff: the protocol's shape (0–1 s, 2 s, 4 s … 60 s), a fifth of its waits, to keep the run short. */
const BACKOFF = { firstMs: 200, maxMs: 12_000 };

const rssOf = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** `name`'s samples summed over their labels (those whose labels match `labels`). */
const metricSum = (text: string, name: string, labels?: RegExp) =>
  [...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\d+)$`, 'gm'))].filter((match) => !labels || labels.test(match[1] ?? '')).reduce((sum, match) => sum + Number(match[2]), 0);

describe.runIf(testDbKind() === 'postgres')('a slow PostgreSQL (200 ms a round trip) and machines buying at twice what the pool serves (needs TEST_DATABASE_URL)', () => {
  let proxy: TcpProxy;
  let server: ServerProcess;
  let db: Kysely<Database>;
  let close: (() => Promise<void>) | undefined;
  let machines: SimMachine[];

  beforeAll(async () => {
    proxy = await startTcpProxy(targetOf(process.env.TEST_DATABASE_URL!));
    const env = {
      DATABASE_POOL_SIZE: String(POOL), DATABASE_POOL_WAIT_MS: '300', DATABASE_POOL_MAX_WAITING: String(POOL * 4),
      METRICS_TOKEN, LOG_LEVEL: 'warn',
      // as the other fault tests: a refund whose call the pool refused is taken up again at its lease's end, soon
      PAY_SWEEP_SECONDS: '1', PAY_RECOVER_SECONDS: '2',
    };
    ({ server, db, close } = await serverOnTestDatabase(env, { via: proxy.via, startWithinMs: 45_000 }));
    machines = await prepareMachines({ server: server.url, admin: 'admin', password: 'Admin@12345', count: MACHINES, prefix: 'SLOW' });
  }, 90_000);

  afterAll(async () => {
    await close?.();
    await proxy?.close();
  });

  const scrape = async () => {
    const answer = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(15_000) });
    expect(answer.status).toBe(200);
    return answer.text();
  };

  it('refuses with 503 what the pool cannot serve, hangs nothing, stays flat, and catches up when the latency goes', async () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const progress: Progress = { created: [], dispensed: 0, failed: 0 };
    const pid = server.pid()!;

    proxy.delay(100);
    const rssStart = rssOf(pid);
    let rssMax = rssStart;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        rssMax = Math.max(rssMax, rssOf(pid));
        await sleep(100);
      }
    })();
    const slow: Faults = { ...newFaults(), statuses: {} };
    await Promise.all(machines.map((m) => sell(server.url, m, PURCHASES, progress, slow, random, 0, BACKOFF)));
    sampling = false;
    await sampler;
    const slowMetrics = await scrape();
    proxy.delay(0);

    const answered = Object.values(slow.statuses!).reduce((a, b) => a + b, 0);
    const share = slow.unavailable / answered;
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    console.log(`slow database (200 ms a round trip, pool ${POOL}, ${MACHINES} machines × ${PURCHASES} purchases): ${answered} answers ${JSON.stringify(slow.statuses)}, ${slow.unavailable} 503s (${(share * 100).toFixed(1)} %); server RSS ${mb(rssStart)} MB at the start, ${mb(rssMax)} MB at most (+${mb(rssMax - rssStart)} MB); pool refusals ${metricSum(slowMetrics, 'huiyun_database_pool_refusals_total')}, waits ${metricSum(slowMetrics, 'huiyun_database_pool_waits_total')}`);

    expect(slow.other, 'no 500, no answer lost, no client timeout').toEqual([]);
    // 200 or 503 — and the 409 of a create retried within 2 s of one whose order was committed before its answer
    // became a 503 (the protocol's double tap, docs/terminal-protocol.md; sell() checks its message and creates again)
    expect(Object.keys(slow.statuses!).filter((status) => status !== '409').sort()).toEqual(['200', '503']);
    expect(slow.unavailable).toBeGreaterThan(0);
    expect(rssMax - rssStart).toBeLessThan(RSS_GROWTH_BOUND);
    // the machines' 503s are in /metrics, and so are the pool's refusals behind them (not one for one: a new
    // connection that cannot be made within its connect timeout over the slow link is a 503 too, not a refusal)
    const terminal503s = metricSum(slowMetrics, 'huiyun_http_request_duration_seconds_count', /route="\/terminal\/[^"]*",status="5xx"/);
    expect(terminal503s).toBeGreaterThan(0);
    expect(metricSum(slowMetrics, 'huiyun_database_pool_refusals_total')).toBeGreaterThan(0);
    expect(metricSum(slowMetrics, 'huiyun_database_pool_waits_total')).toBeGreaterThan(0);
    expect(slowMetrics).toMatch(new RegExp(`^huiyun_database_pool_size ${POOL}$`, 'm'));

    // the latency gone: every purchase goes through at once, the same process
    const fast: Faults = { ...newFaults(), statuses: {} };
    await Promise.all(machines.map((m) => sell(server.url, m, PURCHASES, progress, fast, random, 0, BACKOFF)));
    expect(fast.unavailable).toBe(0);
    expect(fast.other).toEqual([]);
    expect(Object.keys(fast.statuses!)).toEqual(['200']);
    expect(server.exitedByItself()).toBe(0);

    expect(await settledBooks(db)).toBe(0);
    await expectBooksExact(db, 'SLOW', progress);
    expect(progress.dispensed + progress.failed).toBe(MACHINES * PURCHASES * 2);
  }, 120_000);
});
