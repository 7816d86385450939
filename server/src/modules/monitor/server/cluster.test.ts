import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemSnapshot } from '@huiyun/contract';
import { serverOnTestDatabase, type ServerOnTestDatabase } from '../../../test/server-process.ts';
import { testDbKind } from '../../../test/test-database.ts';

// A real server with SERVER_WORKERS=2 (PostgreSQL and Redis only, as config.ts requires): whichever process a
// request reaches, one /metrics scrape covers both processes (each one's process metrics under its pid, the
// request histogram added up) and the 监控查询 snapshot lists both, counts the requests both answered, and shows
// the order sweep's last run, written by one of them.

const TOKEN = 'cluster-metrics-token-0123';
const redisUrl = process.env.TEST_REDIS_URL;
const REFUSED = 12;
const REFUSED_ROUTE = '/api/Role/dropDown/all'; // a GET that needs a session: refused without one

/** One request on a connection of its own (node:cluster hands each new connection to the next process). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false, headers }, (answer) => {
      let body = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => void (body += chunk)).on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

describe.runIf(testDbKind() === 'postgres' && redisUrl)('SERVER_WORKERS=2: one scrape, one snapshot for both processes', () => {
  let running: ServerOnTestDatabase;
  let token: string;
  const redisPrefix = `huiyun-test:${randomBytes(4).toString('hex')}:`;
  const snapshot = async () => JSON.parse((await get(`${running.server.url}/api/SystemMonitor/snapshot`, { token })).body).data as SystemSnapshot;

  beforeAll(async () => {
    running = await serverOnTestDatabase({ SERVER_WORKERS: '2', REDIS_URL: redisUrl!, REDIS_PREFIX: redisPrefix, METRICS_TOKEN: TOKEN, PAY_SWEEP_SECONDS: '1' }, { startWithinMs: 60_000 });
    const login = await fetch(`${running.server.url}/sync/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName: 'admin', passwd: 'Admin@12345' }),
    });
    token = ((await login.json()) as { data: { token: string } }).data.token;
    // the second process starts once the first listens: wait until both answer
    for (let i = 0; i < 200 && (await snapshot()).server.processes.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('lists both processes in the snapshot, whichever answers, and the sweep\'s last run from one of them', async () => {
    for (let i = 0; i < 4; i++) {
      const s = await snapshot();
      expect(s.server.workers).toBe(2);
      expect(s.server.processes).toHaveLength(2);
      const pids = s.server.processes.map((p) => p.pid);
      expect(new Set(pids).size).toBe(2);
      expect(pids).toContain(s.server.pid); // the one that answered is one of them
      for (const p of s.server.processes) expect(p.rss).toBeGreaterThan(0);
    }
    let sweep: SystemSnapshot['business']['jobs'][number] | undefined;
    for (let i = 0; i < 100 && !sweep; i++) {
      sweep = (await snapshot()).business.jobs.find((job) => job.job === 'orderSweep');
      if (!sweep) await new Promise((r) => setTimeout(r, 100));
    }
    expect(sweep).toMatchObject({ ok: true, error: '' });
    expect((await snapshot()).server.processes.map((p) => p.pid)).toContain(sweep!.pid);
  });

  it('answers one /metrics scrape for both processes (process metrics by pid, requests added up), and the snapshot\'s requests of both', async () => {
    for (let i = 0; i < REFUSED; i++) expect((await get(`${running.server.url}${REFUSED_ROUTE}`)).status).toBe(401);
    const pids = (await snapshot()).server.processes.map((p) => p.pid);
    for (let i = 0; i < 4; i++) {
      const scrape = await get(`${running.server.url}/metrics`, { authorization: `Bearer ${TOKEN}` });
      expect(scrape.status).toBe(200);
      for (const pid of pids) expect(scrape.body).toMatch(new RegExp(`^huiyun_process_resident_memory_bytes\\{pid="${pid}"\\} \\d+`, 'm'));
      // the refusals landed on both processes (one connection each, handed out in turn); the scrape counts all
      expect(scrape.body).toContain(`\nhuiyun_http_request_duration_seconds_count{method="GET",route="${REFUSED_ROUTE}",status="4xx"} ${REFUSED}\n`);
      // the shared gauges once, not once a process
      expect(scrape.body.match(/^huiyun_machines_online /gm)).toHaveLength(1);
      expect(scrape.body).toContain('\nhuiyun_machines_online 0\n');
      expect(scrape.body).toMatch(/^huiyun_job_last_run_ok\{job="orderSweep"\} 1$/m);
    }
    // the snapshot's requests per route: both processes' answers taken together
    for (let i = 0; i < 4; i++) expect((await snapshot()).requests.find((r) => r.route === `GET ${REFUSED_ROUTE}`)).toMatchObject({ count: REFUSED, errors: 0 });
  });
});
