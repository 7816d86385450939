import type { Kysely } from 'kysely';
import { fenToYuan, payTypeLabel, type SalesCard, type SalesCharts, type SalesChartsQuery, type SalesRank } from '@huiyun/contract';
import type { Database } from '../../db/schema.ts';
import type { DeptScope } from '../../db/scope.ts';
import { chartRange, dayText, monthStartOf, monthsBefore, periodOf } from './periods.ts';
import { checkFilters, sumsByDay, sumsByPayType, topGoods, topMachines, type ChartFilters, type Summed } from './queries.ts';
import { shanghaiDayNumber } from './rollup-tables.ts';

// 数据可视化 (issue 34 §1): the series of the 日 / 月 / 年 view, the cards (today, yesterday, this month, each
// with the period before), the top-10 terminals and goods and the pay-method shares — one answer.

const net = (s: Summed) => s.paidAmount - s.refundAmount;
const zero = (): Summed => ({ createdCount: 0, paidCount: 0, paidAmount: 0, refundAmount: 0 });
const add = (into: Summed, s: Summed) => {
  into.createdCount += s.createdCount;
  into.paidCount += s.paidCount;
  into.paidAmount += s.paidAmount;
  into.refundAmount += s.refundAmount;
};
const rank = (r: { key: string; name: string } & Summed): SalesRank => ({ key: r.key, name: r.name, amount: fenToYuan(net(r)), count: r.paidCount });

export async function salesCharts(db: Kysely<Database>, scope: DeptScope, query: SalesChartsQuery, now: number): Promise<SalesCharts> {
  checkFilters(scope, query);
  const range = chartRange(query, now);
  const [days, cards, machines, goods, payTypes] = await Promise.all([
    sumsByDay(db, scope, query, range.from, range.to),
    salesCards(db, scope, query, now),
    topMachines(db, scope, query, range.from, range.to),
    topGoods(db, scope, query, range.from, range.to),
    sumsByPayType(db, scope, query, range.from, range.to),
  ]);
  const buckets = new Map(range.periods.map((p) => [p, zero()]));
  for (const d of days) add(buckets.get(periodOf(query.granularity, d.day))!, d);
  return {
    granularity: query.granularity,
    from: dayText(range.from),
    to: dayText(range.to),
    series: [...buckets].map(([period, s]) => ({
      period, createdCount: s.createdCount, paidCount: s.paidCount, amount: fenToYuan(net(s)), paidAmount: fenToYuan(s.paidAmount), refundAmount: fenToYuan(s.refundAmount),
    })),
    cards,
    topMachines: machines.map(rank),
    topGoods: goods.map(rank),
    payShare: payTypes.map((p) => ({ payType: p.payType, label: payTypeLabel(p.payType), amount: fenToYuan(net(p)), count: p.paidCount })),
  };
}

/**
 * 今日 against 昨日, 昨日 against the day before, 本月 (1st to today) against the same days of last month
 * (to its last day when it is shorter). The filters apply, the time range does not.
 */
async function salesCards(db: Kysely<Database>, scope: DeptScope, filters: ChartFilters, now: number): Promise<SalesCard[]> {
  const today = shanghaiDayNumber(now);
  const monthStart = monthStartOf(today);
  const lastMonthStart = monthsBefore(today, 1);
  const lastMonthSameDay = Math.min(lastMonthStart + (today - monthStart), monthStart - 1);
  const from = Math.min(lastMonthStart, today - 2);
  const days = await sumsByDay(db, scope, filters, from, today);
  const over = (first: number, last: number) => {
    const s = zero();
    for (const d of days) if (d.day >= first && d.day <= last) add(s, d);
    return s;
  };
  const card = (key: SalesCard['key'], current: Summed, previous: Summed): SalesCard => ({
    key, amount: fenToYuan(net(current)), count: current.paidCount, previousAmount: fenToYuan(net(previous)), previousCount: previous.paidCount,
  });
  return [
    card('today', over(today, today), over(today - 1, today - 1)),
    card('yesterday', over(today - 1, today - 1), over(today - 2, today - 2)),
    card('month', over(monthStart, today), over(lastMonthStart, lastMonthSameDay)),
  ];
}
