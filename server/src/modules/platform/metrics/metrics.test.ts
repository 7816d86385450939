import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timedJobRun } from '../../../db/job-runs.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { testDbKind } from '../../../test/test-database.ts';

// GET /metrics on SQLite and (TEST_DATABASE_URL) PostgreSQL: off without METRICS_TOKEN, a bearer token with it,
// Prometheus text with the process, the requests by route and the business gauges.

const TOKEN = 'metrics-token-0123456789';

describe('GET /metrics', () => {
  let off: TestApp;
  let on: TestApp;
  beforeAll(async () => {
    off = await startTestApp();
    on = await startTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await off?.close();
    await on?.close();
  });

  it('is off (404) unless METRICS_TOKEN is set', async () => {
    expect((await off.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('refuses a missing or wrong bearer token', async () => {
    expect((await on.call('GET', '/metrics')).status).toBe(401);
    expect((await on.call('GET', '/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    expect((await on.call('GET', '/metrics', { token: TOKEN })).status).toBe(401); // a console token header is not the bearer
  });

  it('answers the process, the requests by route and the business in Prometheus text', async () => {
    await on.call('POST', '/sync/login', { body: { userName: 'admin', passwd: 'wrong' } });
    const answer = await on.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(answer.raw.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = answer.raw.body;
    expect(text).toMatch(/^huiyun_process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^huiyun_http_request_duration_seconds_count\{method="POST",route="\/sync\/login",status="4xx"\} 1$/m);
    for (const gauge of ['huiyun_machines_online 0', 'huiyun_devices_online 0', 'huiyun_refunds_in_flight 0', 'huiyun_orders_created_today 0']) expect(text).toContain(`\n${gauge}\n`);
  });

  it('answers the PostgreSQL pool: its size, use, queue, refusals and statement timeouts (none on SQLite)', async () => {
    const text = (await on.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).raw.body;
    if (testDbKind() === 'sqlite') return void expect(text).not.toMatch(/^huiyun_database_pool_/m);
    expect(text).toMatch(/^huiyun_database_pool_size 20$/m);
    for (const gauge of ['connections', 'in_use', 'idle', 'waiting']) expect(text).toMatch(new RegExp(`^huiyun_database_pool_${gauge} \\d+$`, 'm'));
    expect(text).toMatch(/^huiyun_database_pool_waits_total \d+$/m);
    expect(text).toMatch(/^huiyun_database_pool_refusals_total\{reason="queue_full"\} 0$/m);
    expect(text).toMatch(/^huiyun_database_pool_refusals_total\{reason="wait_timeout"\} 0$/m);
    expect(text).toMatch(/^huiyun_database_statement_timeouts_total 0$/m);
  });

  it('answers the background jobs\' last runs by job', async () => {
    const scrape = async () => (await on.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).raw.body;
    expect(await scrape()).not.toMatch(/^huiyun_job_last_run_ok\{/m); // none has run in this app
    await expect(timedJobRun(on.ctx.db, 'reconcile', () => 1_700_000_000_000, () => Promise.reject(new Error('账单下载失败')))).rejects.toThrow();
    await timedJobRun(on.ctx.db, 'orderSweep', () => 1_700_000_100_000, async () => ({ claimed: 0 }));
    const text = await scrape();
    expect(text).toMatch(/^huiyun_job_last_run_ok\{job="reconcile"\} 0$/m);
    expect(text).toMatch(/^huiyun_job_last_run_ok\{job="orderSweep"\} 1$/m);
    expect(text).toMatch(/^huiyun_job_last_run_start_seconds\{job="orderSweep"\} 1700000100$/m);
    expect(text).toMatch(/^huiyun_job_last_failure_seconds\{job="reconcile"\} 1700000000$/m);
    expect(text).not.toMatch(/^huiyun_job_last_failure_seconds\{job="orderSweep"\}/m);
  });
});
