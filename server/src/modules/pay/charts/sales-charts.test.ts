import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, messages, OrderStatus, PayType, shanghaiDayStart, TransType } from '@huiyun/contract';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { twoCompanies, type TwoCompanies } from '../../../test/companies.ts';
import { insertOrder } from '../../../test/orders.ts';

// 数据可视化 on SQLite and (TEST_DATABASE_URL) PostgreSQL: orders written as the payment half writes them
// (the rollups follow by trigger), read through /api/Charts/statistics — the 日/月/年 series, Beijing midnight,
// a refund on another day than its payment, the cards, the ranks and shares, the filters and the data
// scope, an empty period, and bad filters.

const m = messages.salesCharts;
const HOUR = 3_600_000;
const at = (day: string, hours = 12) => shanghaiDayStart(day)! + hours * HOUR;
const NOW = at('2026-03-15', 12); // the test's "now": Beijing noon of 2026-03-15
let t: TestApp;
let c: TwoCompanies;
let serial = 0;

type Sale = { deptId: number; machineNo: string; payType?: number; goods?: string; amount: number; createTime: number; payTime?: number | null };
async function sale(s: Sale): Promise<number> {
  const orderId = await insertOrder(t.ctx.db, {
    deptId: s.deptId, orderNo: `SC${++serial}`, payType: s.payType ?? PayType.wechat, machineNo: s.machineNo, goodsName: s.goods ?? '可乐',
    goodsPrice: s.amount, orderStatus: OrderStatus.created, createTime: s.createTime, payTime: null,
  });
  if (s.payTime !== null) {
    await t.ctx.db.updateTable('pay_order').set({ orderStatus: OrderStatus.paid, payTime: s.payTime ?? s.createTime }).where('orderId', '=', orderId).execute();
    await t.ctx.db.updateTable('pay_order').set({ orderStatus: OrderStatus.dispensed }).where('orderId', '=', orderId).execute();
  }
  return orderId;
}
async function refund(orderId: number, amount: number, when: number, succeeds = true) {
  const o = await t.ctx.db.selectFrom('pay_order').selectAll().where('orderId', '=', orderId).executeTakeFirstOrThrow();
  const refundId = await insertOrder(t.ctx.db, {
    deptId: o.deptId, orderNo: `SC${++serial}R`, payType: o.payType, transType: TransType.refund, machineNo: o.machineNo, goodsName: o.goodsName, goodsPrice: o.goodsPrice,
    payAmount: -amount, orderStatus: OrderStatus.refunding, createTime: when - 1000, payTime: null, parentId: orderId, requestKey: `k${serial}`,
  });
  await t.ctx.db.updateTable('pay_order').set(succeeds ? { orderStatus: OrderStatus.refunded, payTime: when } : { orderStatus: OrderStatus.refundFailed }).where('orderId', '=', refundId).execute();
}
const machine = (deptId: number, machineNo: string, machineName: string) => t.ctx.db.insertInto('pay_machine')
  .values({ deptId, machineNo, machineName, terminalKey: 'k', lastSeenAt: null, addTime: NOW, editTime: NOW }).execute();

beforeAll(async () => {
  t = await startTestApp();
  t.clock.advance(NOW - Date.now());
  c = await twoCompanies(t, 'sc', '图表');
  await machine(c.companyA, 'SC-A1', '一号机');
  await machine(c.companyA, 'SC-A2', '二号机');
  await machine(c.companyB, 'SC-B1', '乙号机');
  // Beijing midnight of 03-15: a second before it is 03-14, a second after it 03-15
  const late = await sale({ deptId: c.companyA, machineNo: 'SC-A1', amount: 300, createTime: at('2026-03-14', 23.99), payTime: at('2026-03-15', 0) - 1000 });
  await sale({ deptId: c.companyA, machineNo: 'SC-A1', amount: 500, goods: '雪碧', createTime: at('2026-03-15', 0) + 1000 });
  await sale({ deptId: c.companyA, machineNo: 'SC-A2', payType: PayType.alipay, amount: 250, createTime: at('2026-03-15', 9) });
  await sale({ deptId: c.companyA, machineNo: 'SC-A2', amount: 400, createTime: at('2026-03-15', 10), payTime: null }); // walked away: a click only
  await sale({ deptId: c.companyB, machineNo: 'SC-B1', amount: 1000, goods: '矿泉水', createTime: at('2026-03-13') });
  await sale({ deptId: c.companyA, machineNo: 'SC-A1', amount: 200, createTime: at('2026-02-10') }); // last month
  await sale({ deptId: c.companyA, machineNo: 'SC-A1', amount: 700, createTime: at('2025-06-01') }); // last year
  // the 03-14 sale refunded in part on 03-15, and a refund that failed (counts nothing)
  await refund(late, 120, at('2026-03-15', 8));
  await refund(late, 50, at('2026-03-15', 9), false);
});
afterAll(async () => t?.close());

const charts = (body: Record<string, unknown> = {}, as = c.admin) => t.call('POST', '/api/Charts/statistics', { token: as, body });
const data = async (body: Record<string, unknown> = {}, as = c.admin) => {
  const answer = await charts(body, as);
  expect(answer.body.success, answer.body.msg).toBe(true);
  return answer.body.data;
};
const pointOf = (series: { period: string }[], period: string) => series.find((p) => p.period === period);

describe('数据可视化', () => {
  it('draws the last 30 days by Beijing day: payments on their day, a refund on its own day, clicks = orders created', async () => {
    const d = await data();
    expect(d).toMatchObject({ granularity: 'day', from: '2026-02-14', to: '2026-03-15' });
    expect(d.series).toHaveLength(30);
    expect(pointOf(d.series, '2026-03-14')).toEqual({ period: '2026-03-14', createdCount: 1, paidCount: 1, amount: '3.00', paidAmount: '3.00', refundAmount: '0.00' });
    expect(pointOf(d.series, '2026-03-15')).toEqual({ period: '2026-03-15', createdCount: 3, paidCount: 2, amount: '6.30', paidAmount: '7.50', refundAmount: '1.20' });
    expect(pointOf(d.series, '2026-03-13')).toMatchObject({ createdCount: 1, paidCount: 1, amount: '10.00' });
    expect(pointOf(d.series, '2026-03-01')).toMatchObject({ createdCount: 0, paidCount: 0, amount: '0.00' });
  });

  it('draws the last 12 months and the last 5 years', async () => {
    const months = await data({ granularity: 'month' });
    expect(months.series.map((p: { period: string }) => p.period)).toEqual(['2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03']);
    expect(pointOf(months.series, '2026-03')).toMatchObject({ createdCount: 5, paidCount: 4, amount: '19.30' });
    expect(pointOf(months.series, '2026-02')).toMatchObject({ paidCount: 1, amount: '2.00' });
    expect(pointOf(months.series, '2025-06')).toMatchObject({ paidCount: 1, amount: '7.00' });
    const years = await data({ granularity: 'year' });
    expect(years.series.map((p: { period: string; amount: string }) => [p.period, p.amount])).toEqual([['2022', '0.00'], ['2023', '0.00'], ['2024', '0.00'], ['2025', '7.00'], ['2026', '21.30']]);
  });

  it('gives today, yesterday and this month against the period before', async () => {
    const { cards } = await data();
    expect(cards).toEqual([
      { key: 'today', amount: '6.30', count: 2, previousAmount: '3.00', previousCount: 1 },
      { key: 'yesterday', amount: '3.00', count: 1, previousAmount: '10.00', previousCount: 1 },
      { key: 'month', amount: '19.30', count: 4, previousAmount: '2.00', previousCount: 1 },
    ]);
  });

  it('ranks terminals and goods by amount net of refunds, and shares the pay methods by their labels', async () => {
    const d = await data();
    expect(d.topMachines).toEqual([
      { key: 'SC-B1', name: '乙号机', amount: '10.00', count: 1 },
      { key: 'SC-A1', name: '一号机', amount: '6.80', count: 2 },
      { key: 'SC-A2', name: '二号机', amount: '2.50', count: 1 },
    ]);
    expect(d.topGoods).toEqual([
      { key: '矿泉水', name: '矿泉水', amount: '10.00', count: 1 },
      { key: '雪碧', name: '雪碧', amount: '5.00', count: 1 },
      { key: '可乐', name: '可乐', amount: '4.30', count: 2 },
    ]);
    expect(d.payShare).toEqual([
      { payType: PayType.alipay, label: '支付宝', amount: '2.50', count: 1 },
      { payType: PayType.wechat, label: '微信支付', amount: '16.80', count: 3 },
    ]);
  });

  it('filters by company, terminal, pay type and time range', async () => {
    const byMachine = await data({ machineNo: 'SC-A2' });
    expect(pointOf(byMachine.series, '2026-03-15')).toMatchObject({ createdCount: 2, paidCount: 1, amount: '2.50' });
    expect(byMachine.topMachines.map((r: { key: string }) => r.key)).toEqual(['SC-A2']);
    const byPay = await data({ payType: String(PayType.alipay) });
    expect(byPay.cards[0]).toMatchObject({ amount: '2.50', count: 1 });
    const byDept = await data({ deptId: c.companyB });
    expect(byDept.topMachines.map((r: { key: string }) => r.key)).toEqual(['SC-B1']);
    const range = await data({ start: '2026-03-14', end: '2026-03-15' });
    expect(range.series.map((p: { period: string }) => p.period)).toEqual(['2026-03-14', '2026-03-15']);
    expect(range.topMachines.map((r: { key: string }) => r.key)).toEqual(['SC-A1', 'SC-A2']);
    const monthRange = await data({ granularity: 'month', start: '2025-12-20', end: '2026-02-05' });
    expect(monthRange.series.map((p: { period: string }) => p.period)).toEqual(['2025-12', '2026-01', '2026-02']);
    // partial months: read from whole months with the days outside the range taken back (the 02-10 sale is after 02-05)
    expect(pointOf(monthRange.series, '2026-02')).toMatchObject({ createdCount: 0, amount: '0.00' });
    expect(monthRange.topMachines).toEqual([]);
    const partial = await data({ granularity: 'month', start: '2026-02-10', end: '2026-03-13' });
    expect(partial.series.map((p: { period: string; amount: string }) => [p.period, p.amount])).toEqual([['2026-02', '2.00'], ['2026-03', '10.00']]);
    expect(partial.topMachines.map((r: { key: string; amount: string }) => [r.key, r.amount])).toEqual([['SC-B1', '10.00'], ['SC-A1', '2.00']]);
    expect(partial.topGoods.map((r: { key: string; amount: string }) => [r.key, r.amount])).toEqual([['矿泉水', '10.00'], ['可乐', '2.00']]);
  });

  it('draws an empty period as zeros with nothing ranked, never an error', async () => {
    const empty = await data({ start: '2024-01-01', end: '2024-01-31' });
    expect(empty.series).toHaveLength(31);
    expect(empty.series.every((p: { createdCount: number; amount: string }) => p.createdCount === 0 && p.amount === '0.00')).toBe(true);
    expect(empty).toMatchObject({ topMachines: [], topGoods: [], payShare: [] });
  });

  it("keeps a company administrator to its companies' sales, and refuses another company", async () => {
    const a = await data({}, c.adminA);
    expect(a.topMachines.map((r: { key: string }) => r.key)).toEqual(['SC-A1', 'SC-A2']);
    expect(pointOf(a.series, '2026-03-13')).toMatchObject({ paidCount: 0 });
    const refused = await charts({ deptId: c.companyB }, c.adminA);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe(messages.common.outOfScope);
    const options = await t.call('POST', '/api/Charts/options', { token: c.adminA, body: {} });
    expect(options.body.data.depts.map((d: { deptId: number }) => d.deptId)).toEqual([c.companyA]);
    expect(options.body.data.machines.map((d: { machineNo: string }) => d.machineNo)).toEqual(['SC-A1', 'SC-A2']);
    expect((await charts({}, c.userA)).status).toBe(403); // an ordinary user holds no 数据可视化 code
  });

  it('answers a bad filter with a clear message (400), never a 5xx', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ granularity: 'week' }, m.granularityInvalid],
      [{ payType: 7 }, m.payTypeInvalid],
      [{ payType: 'x' }, m.payTypeInvalid],
      [{ machineNo: 'A B' }, m.machineNoInvalid],
      [{ deptId: 'abc' }, m.deptInvalid],
      [{ start: '2026-02-30' }, m.startInvalid],
      [{ end: 'yesterday' }, m.endInvalid],
      [{ start: '2026-03-10', end: '2026-03-01' }, m.dateOrder],
      [{ start: '2020-01-01', end: '2026-01-01' }, fill(m.rangeTooLong, { days: 366, months: 120, years: 20 })],
      [{ granularity: 'year', start: '1970-01-01', end: '2026-01-01' }, fill(m.rangeTooLong, { days: 366, months: 120, years: 20 })],
    ];
    for (const [body, msg] of cases) {
      const answer = await charts(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.msg, JSON.stringify(body)).toBe(msg);
    }
  });
});
