import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime, type JobRunView, type SystemSnapshot } from '@huiyun/contract';
import { timedJobRun } from '../../../db/job-runs.ts';
import { startLogRetention } from '../../../db/log-retention.ts';
import { startAdminApp, type TestApp } from '../../../test/harness.ts';
import { startReconcileJob, yesterdayOf } from '../../pay/reconcile/job.ts';

// The background jobs' last runs in 监控查询 (SQLite and, with TEST_DATABASE_URL, PostgreSQL): the order sweep,
// the log retention and the daily 对账 record each run — when, how long, what it did, or why it failed — and the
// snapshot shows them in words; a failure stays shown after the next good run.

let t: TestApp;
let token: string;

beforeAll(async () => ({ t, token } = await startAdminApp()));
afterAll(async () => t?.close());

const jobs = async (): Promise<JobRunView[]> => ((await t.call('GET', '/api/SystemMonitor/snapshot', { token })).body.data as SystemSnapshot).business.jobs;

/** Polls the snapshot until `job` has run (the jobs run on their own timers). */
async function ranOnce(job: JobRunView['job']): Promise<JobRunView> {
  for (let i = 0; i < 200; i++) {
    const run = (await jobs()).find((j) => j.job === job);
    if (run) return run;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${job} never ran`);
}

describe('the background jobs\' last runs', () => {
  it('shows none before a job ran', async () => {
    expect(await jobs()).toEqual([]);
  });

  it('records each job\'s run from the job itself, in words, in a fixed order', async () => {
    const now = t.ctx.now();
    await t.ctx.db.insertInto('sys_login_log').values([40, 41].map((days) => ({ userName: 'old', userId: null, deptId: null, ip: '127.0.0.1', userAgent: '', success: 1, message: '', loginTime: now - days * 86_400_000 }))).execute();
    const retention = startLogRetention(t.ctx.db, { days: 30, everyMs: 3_600_000, now: t.ctx.now });
    const reconcile = startReconcileJob({ db: t.ctx.db, now: t.ctx.now, gatewayOf: () => undefined, accountOf: async () => undefined }, '00:00');
    const sweeper = t.payments.startOrderSweeper({ everyMs: 20 });
    try {
      expect(await ranOnce('logRetention')).toMatchObject({ ok: true, summary: '删除操作日志 0 条、登录日志 2 条', error: '', pid: process.pid, failTime: null });
      expect(await ranOnce('reconcile')).toMatchObject({ ok: true, summary: `${yesterdayOf(t.ctx.now())}：对账 1 个支付配置（该日失败 1），差异 0 条，0 个已对过或由其他实例在对` }); // the seed's 支付配置: no gateway here
      const sweep = await ranOnce('orderSweep');
      expect(sweep).toMatchObject({ ok: true, error: '' });
      expect(sweep.summary).toMatch(/^超时订单 0（已支付 0，已关闭 0，出错 0），出货超时 0，自动退款 0/);
      expect(sweep.durationMs).toBeGreaterThanOrEqual(0);
      expect(sweep.startTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    } finally {
      await retention.stop();
      await reconcile.stop();
      await sweeper.stop();
    }
    expect((await jobs()).map((j) => j.job)).toEqual(['orderSweep', 'logRetention', 'reconcile']);
  });

  it('shows a failed run with its reason, and keeps that failure shown after the next good run', async () => {
    const failedAt = t.ctx.now();
    await expect(timedJobRun(t.ctx.db, 'logRetention', () => failedAt, () => Promise.reject(new Error('数据库暂不可用')))).rejects.toThrow('数据库暂不可用');
    expect((await jobs()).find((j) => j.job === 'logRetention')).toMatchObject({ ok: false, summary: '', error: '数据库暂不可用', failTime: formatDateTime(failedAt), failError: '数据库暂不可用' });
    await timedJobRun(t.ctx.db, 'logRetention', t.ctx.now, async () => ({ sys_oper_log: 3, sys_login_log: 0 }));
    expect((await jobs()).find((j) => j.job === 'logRetention')).toMatchObject({
      ok: true, summary: '删除操作日志 3 条、登录日志 0 条', error: '', failTime: formatDateTime(failedAt), failError: '数据库暂不可用',
    });
  });
});
