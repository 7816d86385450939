import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, OrderStatus, TransType, type SystemSnapshot } from '@huiyun/contract';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { twoCompanies, type TwoCompanies } from '../../../test/companies.ts';
import { insertOrders } from '../../../test/orders.ts';
import { testDbKind } from '../../../test/test-database.ts';
import { RequestStats, routeStats } from './request-stats.ts';

// 监控查询 on SQLite and (TEST_DATABASE_URL) PostgreSQL: the super administrator's only; the snapshot carries this
// process, the requests per route (counted by the hook), the database and the business figures.

let t: TestApp;
let c: TwoCompanies;

beforeAll(async () => {
  t = await startTestApp();
  c = await twoCompanies(t, 'sm', '监控');
});
afterAll(async () => t?.close());

const snapshot = async (token = c.admin) => t.call('GET', '/api/SystemMonitor/snapshot', { token });

describe('监控查询', () => {
  it('is the super administrator\'s only', async () => {
    for (const token of [c.adminA, c.userA]) {
      const refused = await snapshot(token);
      expect(refused.status).toBe(403);
      expect(refused.body.msg).toBe(messages.common.forbidden);
    }
    expect((await t.call('GET', '/api/SystemMonitor/snapshot')).status).toBe(401);
  });

  it('shows the process, the requests per route, the database and the business', async () => {
    const now = t.ctx.now();
    await insertOrders(t.ctx.db, [
      { deptId: c.companyA, orderNo: 'SM-1', machineNo: 'SM-M1', orderStatus: OrderStatus.dispensed, createTime: now, payTime: now },
      { deptId: c.companyA, orderNo: 'SM-1R', transType: TransType.refund, machineNo: 'SM-M1', payAmount: -50, orderStatus: OrderStatus.refunding, createTime: now, payTime: null },
    ]);
    await t.ctx.db.insertInto('pay_machine').values({ deptId: c.companyA, machineNo: 'SM-M1', machineName: '监控机', terminalKey: 'k', lastSeenAt: now, addTime: now, editTime: now }).execute();
    await t.ctx.db.insertInto('pay_alarm').values({ kind: 'latePayment', orderNo: 'SM-1', createTime: now }).execute();
    await t.call('POST', '/api/Charts/statistics', { token: c.admin, body: { granularity: 'week' } }); // a 400, counted

    const answer = await snapshot();
    expect(answer.status).toBe(200);
    const s = answer.body.data as SystemSnapshot;
    expect(s.server).toMatchObject({ node: process.version, pid: process.pid, workers: 1 });
    expect(s.server.rss).toBeGreaterThan(0);
    expect(s.server.heapUsed).toBeGreaterThan(0);
    expect(s.requests.find((r) => r.route === 'POST /sync/login')).toMatchObject({ count: 4, errors: 0 }); // the four logins of twoCompanies
    expect(s.requests.find((r) => r.route === 'POST /api/Charts/statistics')).toMatchObject({ count: 1, errors: 0 });
    expect(s.requests.find((r) => r.route === 'GET /api/SystemMonitor/snapshot')).toMatchObject({ count: 3 }); // the refusals above
    expect(s.database.kind).toBe(testDbKind());
    if (s.database.kind === 'postgres') {
      expect(s.database.sizeBytes).toBeGreaterThan(0);
      expect(s.database.pool!.total).toBeGreaterThan(0);
      expect(s.database.pool!.waiting).toBe(0);
    }
    expect(s.business).toMatchObject({ machinesOnline: 1, refundsInFlight: 1, alarmsToday: 1, devicesOnline: 0 });
    expect(s.redis === null).toBe(!process.env.TEST_REDIS_URL || testDbKind() !== 'postgres');
  });

  it('answers percentiles over the window and forgets what is older', () => {
    const stats = new RequestStats();
    const now = 10_000_000;
    for (let ms = 1; ms <= 100; ms++) stats.record('GET /x', ms, ms > 98 ? 500 : 200, now);
    stats.record('GET /old', 5, 200, now - 6 * 60_000);
    expect(stats.snapshot(now)).toEqual([{ route: 'GET /x', count: 100, errors: 2, p50: 50, p95: 95, p99: 99 }]);
  });

  it('takes the windows of several processes together, as one process that answered everything', () => {
    const now = 10_000_000;
    const [odd, even] = [new RequestStats(), new RequestStats()];
    for (let ms = 1; ms <= 100; ms++) (ms % 2 ? odd : even).record('GET /x', ms, ms > 98 ? 500 : 200, now);
    even.record('GET /y', 7, 200, now);
    expect(routeStats([odd.window(now), even.window(now)])).toEqual([
      { route: 'GET /x', count: 100, errors: 2, p50: 50, p95: 95, p99: 99 },
      { route: 'GET /y', count: 1, errors: 0, p50: 7, p95: 7, p99: 7 },
    ]);
  });
});
