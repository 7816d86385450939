// 数据可视化 at scale. 1,000,000 orders (10 companies, 1,000 machines, one year; the rollups of
// migrations 0025 and 0031 follow the inserts by trigger), each 日 / 月 / 年 chart request unfiltered and filtered by
// company, by terminal and by pay type, through HTTP with the serving process's CPU a request, beside the
// same series aggregated from the orders in SQL (the baseline), bare through the driver, in the same run.
//   npm run bench -- charts   (BENCH_DB=postgres for PostgreSQL; BENCH_SECONDS per case, default 3;
//   BENCH_CONNECTIONS, default 4)
import os from 'node:os';
import { sql } from 'kysely';
import { PayType, salesChartsQuery, type ChartGranularity } from '@huiyun/contract';
import { backfillSalesRollups } from '../server/src/db/migrations/0031_sales_month_rollups.ts';
import { PENDING_TABLE } from '../server/src/db/migrations/sales-pending-sql.ts';
import { chartRange, rollupNames } from '../server/src/modules/pay/charts/index.ts';
import { COMPANIES, MACHINES, machineNo, ORDERS, seedOrders } from './lib/order-fixture.ts';
import { captureQueries, replayThroughDriver } from './lib/capture-sql.ts';
import { measureServedHttp, printTable, type Figures } from './lib/measure.ts';
import { ADMIN_PASSWORD, loginAs, servingProcess, startBenchServer } from './lib/server.ts';
import { benchNumber, expectCount, reportRecount } from './lib/smoke.ts';

const SECONDS = benchNumber('BENCH_SECONDS', 3, 0.05);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const ORDER_COUNT = benchNumber('BENCH_ORDERS', ORDERS, 2_000);

const server = await startBenchServer();
const { db } = server.ctx;
const now = Date.now();
console.log(`Seeding on ${server.dbKind} (rollups by backfill)…`);
const seedStart = performance.now();
// the SQLite bulk insert sets pay_order's triggers aside while it writes (bench/lib/bulk-insert.ts); on PostgreSQL
// the triggers appending to the rollups' pending changes are disabled for the seed (a million rows through the
// rollup triggers took ~30 min on the shared machine): the rollups are then counted from the orders as migrations
// 0025 and 0031's backfills do (the triggers' own counting is what the crash and migration tests recount)
const rollupTrigger = sql`pay_order_pending_insert_delete`;
if (server.dbKind === 'postgres') await sql`alter table pay_order disable trigger ${rollupTrigger}`.execute(db);
const depts = await seedOrders(server, now, ORDER_COUNT);
if (server.dbKind === 'postgres') await sql`alter table pay_order enable trigger ${rollupTrigger}`.execute(db);
for (const table of [...rollupNames, PENDING_TABLE]) await sql`delete from ${sql.table(table)}`.execute(db);
await backfillSalesRollups(db);
const rollupRows = await sql<{ n: number }>`select count(*) as n from chart_sales_day`.execute(db);
console.log(`  rollup rows: ${rollupRows.rows[0]?.n} (chart_sales_day)`);
await recountRollups();
await (server.dbKind === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(db);
console.log(`Seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

/** The baseline: the series from the orders themselves — paid by Beijing day of payment, refunds on theirs, clicks on creation. */
function seriesFromOrders(granularity: ChartGranularity, filter: Record<string, unknown>) {
  const { from, to } = chartRange(salesChartsQuery.parse({ granularity }), now);
  const [start, end] = [from * 86_400_000 - 28_800_000, (to + 1) * 86_400_000 - 28_800_000];
  const day = (column: string) => sql.raw(`((${column} + 28800000) / 86400000)`);
  return captureQueries(server, (d) => {
    let q = d.selectFrom('pay_order')
      .select([
        sql<number>`case when "transType" = 1 then ${day('"createTime"')} else ${day('coalesce("payTime", "createTime")')} end`.as('day'),
        sql<number>`sum(case when "transType" = 1 and "createTime" >= ${start} then 1 else 0 end)`.as('created'),
        sql<number>`sum(case when "transType" = 1 and "payTime" is not null then 1 else 0 end)`.as('paid'),
        sql<number>`sum(case when "transType" = 1 and "payTime" is not null then "payAmount" when "orderStatus" = 13 then "payAmount" else 0 end)`.as('amount'),
      ])
      .where((eb) => eb.or([eb('payTime', '>=', start), eb('createTime', '>=', start)])).where('createTime', '<', end);
    if (filter.deptId !== undefined) q = q.where('deptId', '=', filter.deptId as number);
    if (filter.machineNo !== undefined) q = q.where('machineNo', '=', filter.machineNo as string);
    if (filter.payType !== undefined) q = q.where('payType', '=', filter.payType as number);
    return q.groupBy(sql`1`).execute();
  });
}

const filters: [string, Record<string, unknown>][] = [
  ['all companies', {}], ['one company', { deptId: depts[3] }], ['one terminal', { machineNo: machineNo(420) }], ['支付宝', { payType: PayType.alipay }],
];
// two serving processes: as shipped (a top-10 kept 30 s, CHARTS_RANK_CACHE_SECONDS) and with the top-10s
// computed on every request (0): what a first look at a chart costs
const serving = await servingProcess(server);
const uncached = await servingProcess(server, { CHARTS_RANK_CACHE_SECONDS: '0' });
const token = await loginAs(serving, 'admin', ADMIN_PASSWORD);
const uncachedToken = await loginAs(uncached, 'admin', ADMIN_PASSWORD);
const results: Figures[] = [];
const loads: string[] = [];
const rate = (f: Figures, baseline: Figures) => `${(f.requestsPerSecond / baseline.requestsPerSecond).toFixed(1)}×`;
for (const granularity of ['day', 'month', 'year'] as const) {
  for (const [name, filter] of filters) {
    const body = { granularity, ...filter };
    const probe = await fetch(`${serving.url}/api/Charts/statistics`, { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify(body) });
    const answer = (await probe.json()) as { success: boolean; msg: string; data?: { series: unknown[] } };
    if (!answer.success) throw new Error(`${granularity} ${name}: ${answer.msg}`);
    loads.push(os.loadavg()[0]!.toFixed(2));
    const label = `${granularity} ${name} (${answer.data!.series.length} periods)`;
    const cold = await measureServedHttp(`HTTP ${label}, top-10s computed each request`, { url: `${uncached.url}/api/Charts/statistics`, body, token: uncachedToken, connections: CONNECTIONS, seconds: SECONDS }, uncached.pid);
    const http = await measureServedHttp(`HTTP ${label}, top-10s kept 30 s (as shipped)`, { url: `${serving.url}/api/Charts/statistics`, body, token, connections: CONNECTIONS, seconds: SECONDS }, serving.pid);
    const baseline = await replayThroughDriver(server, await seriesFromOrders(granularity, filter), '  baseline: the series from pay_order in SQL, raw driver', { concurrency: CONNECTIONS, seconds: SECONDS });
    results.push(cold, http, baseline);
    console.log(`${label}: computed ${cold.requestsPerSecond.toFixed(0)}/s, p50 ${cold.p50Ms.toFixed(1)} ms, CPU ${cold.cpuPerRequestUs?.toFixed(0)} µs (${rate(cold, baseline)}); `
      + `kept ${http.requestsPerSecond.toFixed(0)}/s, p50 ${http.p50Ms.toFixed(1)} ms, CPU ${http.cpuPerRequestUs?.toFixed(0)} µs (${rate(http, baseline)}); `
      + `baseline ${baseline.requestsPerSecond.toFixed(1)}/s, p50 ${baseline.p50Ms.toFixed(1)} ms`);
  }
}
printTable(
  `数据可视化 at scale: ${ORDER_COUNT} orders, ${COMPANIES} companies, ${MACHINES} machines, one year; ${CONNECTIONS} connections, ${SECONDS} s a case, ${server.dbKind}; `
    + `${os.cpus().length} cores, 1-min load average during the cases ${loads.join(' / ')}`,
  results,
);
await serving.stop();
await uncached.stop();
await server.close();

/** Each rollup's totals against the orders': created, paid (count and fen) and refunded fen. */
async function recountRollups() {
  const [orders] = (await sql<Record<'created' | 'paidCount' | 'paidAmount' | 'refundAmount', number | string | null>>`select
      sum(case when "transType" = 1 then 1 else 0 end) as "created",
      sum(case when "transType" = 1 and "payTime" is not null then 1 else 0 end) as "paidCount",
      sum(case when "transType" = 1 and "payTime" is not null then "payAmount" else 0 end) as "paidAmount",
      sum(case when "transType" = 2 and "orderStatus" = 13 then -"payAmount" else 0 end) as "refundAmount"
    from pay_order`.execute(db)).rows;
  const problems: string[] = [];
  for (const table of rollupNames) {
    const [rollup] = (await sql<Record<'created' | 'paidCount' | 'paidAmount' | 'refundAmount', number | string | null>>`select
        sum("createdCount") as "created", sum("paidCount") as "paidCount", sum("paidAmount") as "paidAmount", sum("refundAmount") as "refundAmount"
      from ${sql.table(table)}`.execute(db)).rows;
    for (const key of ['created', 'paidCount', 'paidAmount', 'refundAmount'] as const) expectCount(problems, `${table} ${key}`, Number(rollup?.[key] ?? 0), Number(orders?.[key] ?? 0));
  }
  reportRecount(problems);
}
