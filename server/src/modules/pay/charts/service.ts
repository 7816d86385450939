import type { Kysely } from 'kysely';
import { fenToYuan, payTypeLabel, type ChartGranularity, type SalesCard, type SalesCharts, type SalesChartsQuery, type SalesRank } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import type { DeptScope } from '../../../db/scope.ts';
import { chartRange, dayText, monthStartOf, monthsBefore, periodOf } from './periods.ts';
import { checkFilters, familyOf, hasMonths, machineNames, sumsByPayType, sumsByPeriod, sumsOver, topTen, type ChartFilters, type Summed } from './queries.ts';
import type { RankCache } from './rank-cache.ts';
import { foldSalesRollups } from './rollup-fold.ts';
import { isMonthKey, shanghaiDayNumber } from './rollup-tables.ts';
import { spanPieces } from './spans.ts';

// 数据可视化: the series of the 日 / 月 / 年 view, the cards (today, yesterday, this month, each
// with the period before), the top-10 terminals and goods and the pay-method shares — one answer. The 日
// series reads day rows; the 月 / 年 series, the ranks, the shares and the month cards read whole months from
// the month rollups and the rest of their span from the day rollups (spans.ts).

const net = (s: Summed) => s.paidAmount - s.refundAmount;
const zero = (): Summed => ({ createdCount: 0, paidCount: 0, paidAmount: 0, refundAmount: 0 });
const add = (into: Summed, s: Summed) => {
  into.createdCount += s.createdCount;
  into.paidCount += s.paidCount;
  into.paidAmount += s.paidAmount;
  into.refundAmount += s.refundAmount;
};
const rank = (r: { key: string; name: string } & Summed): SalesRank => ({ key: r.key, name: r.name, amount: fenToYuan(net(r)), count: r.paidCount });
/** The label of a month row (YYYYMM) in a 月 or 年 view. */
const monthLabel = (granularity: ChartGranularity, month: number) =>
  granularity === 'year' ? String(Math.floor(month / 100)) : `${Math.floor(month / 100)}-${String(month % 100).padStart(2, '0')}`;

export async function salesCharts(db: Kysely<Database>, ranks: RankCache, scope: DeptScope, query: SalesChartsQuery, now: number): Promise<SalesCharts> {
  checkFilters(scope, query);
  await foldSalesRollups(db); // every change committed before this request, in the rollups it reads
  const range = chartRange(query, now);
  const today = shanghaiDayNumber(now);
  const family = familyOf(query);
  const span = spanPieces(range.from, range.to, today);
  const rankKey = JSON.stringify([scope, query.deptId, query.machineNo, query.payType, range.from, range.to]);
  const [periods, cards, [machines, goods], payTypes] = await Promise.all([
    sumsByPeriod(db, family, spanPieces(range.from, range.to, today, query.granularity !== 'day'), scope, query),
    salesCards(db, scope, query, today),
    ranks(rankKey, () => Promise.all([
      topTen(db, 'sales', span, scope, query).then((top) => namedMachines(db, top)),
      topTen(db, 'goods', spanPieces(range.from, range.to, today, hasMonths('goods', query)), scope, query),
    ])),
    sumsByPayType(db, family, span, scope, query),
  ]);
  const buckets = new Map(range.periods.map((p) => [p, zero()]));
  for (const p of periods) add(buckets.get(isMonthKey(p.p) ? monthLabel(query.granularity, p.p) : periodOf(query.granularity, p.p))!, p);
  return {
    granularity: query.granularity,
    from: dayText(range.from),
    to: dayText(range.to),
    series: [...buckets].map(([period, s]) => ({
      period, createdCount: s.createdCount, paidCount: s.paidCount, amount: fenToYuan(net(s)), paidAmount: fenToYuan(s.paidAmount), refundAmount: fenToYuan(s.refundAmount),
    })),
    cards,
    topMachines: machines.map(rank),
    topGoods: goods.map((g) => rank({ ...g, name: g.key })),
    payShare: payTypes.map((p) => ({ payType: p.payType, label: payTypeLabel(p.payType), amount: fenToYuan(net(p)), count: p.paidCount })),
  };
}

async function namedMachines(db: Kysely<Database>, top: ({ key: string } & Summed)[]) {
  const names = await machineNames(db, top.map((m) => m.key));
  return top.map((m) => ({ ...m, name: names.get(m.key) ?? '' }));
}

/**
 * 今日 against 昨日, 昨日 against the day before, 本月 (1st to today) against the same days of last month
 * (to its last day when it is shorter). The filters apply, the time range does not.
 */
async function salesCards(db: Kysely<Database>, scope: DeptScope, filters: ChartFilters, today: number): Promise<SalesCard[]> {
  const monthStart = monthStartOf(today);
  const lastMonthStart = monthsBefore(today, 1);
  const lastMonthSameDay = Math.min(lastMonthStart + (today - monthStart), monthStart - 1);
  const family = familyOf(filters);
  const [days, month, lastMonth] = await Promise.all([
    sumsByPeriod(db, family, spanPieces(today - 2, today, today, false), scope, filters),
    sumsOver(db, family, spanPieces(monthStart, today, today), scope, filters),
    sumsOver(db, family, spanPieces(lastMonthStart, lastMonthSameDay, today), scope, filters),
  ]);
  const on = (day: number) => days.find((d) => d.p === day) ?? zero();
  const card = (key: SalesCard['key'], current: Summed, previous: Summed): SalesCard => ({
    key, amount: fenToYuan(net(current)), count: current.paidCount, previousAmount: fenToYuan(net(previous)), previousCount: previous.paidCount,
  });
  return [
    card('today', on(today), on(today - 1)),
    card('yesterday', on(today - 1), on(today - 2)),
    card('month', month, lastMonth),
  ];
}
