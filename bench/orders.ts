// The order-list benchmark: 1,000,000 orders of 10 companies and 1,000 machines over one year;
// 交易订单 page 1 unfiltered, by status + pay type (a common and a rare pair), by terminal number, by exact
// order number and transaction number, by one company, by one day, and page 500 — at 50 connections,
// each beside the same statements run bare through the driver in the same run.
//   npm run bench -- orders   (BENCH_DB=postgres for PostgreSQL; BENCH_SECONDS per case, default 3;
//   BENCH_CONNECTIONS, default 50; BENCH_CASE=<text>: only the cases whose label holds the text)
import os from 'node:os';
import { sql } from 'kysely';
import { OrderStatus, orderListQuery, PayType, shanghaiDay } from '@huiyun/contract';
import { listPage } from '../server/src/db/list/paging.ts';
import { listOrders } from '../server/src/modules/pay/order-list/index.ts';
import { COMPANIES, MACHINES, machineNo, ORDERS, orderNo, seedOrders, transId } from './lib/order-fixture.ts';
import { captureQueries, replayThroughDriver } from './lib/capture-sql.ts';
import { listPageProblems, measureServedHttp, printTable, reportLoadRecount, type Figures, type ListAnswer } from './lib/measure.ts';
import { benchNumber } from './lib/smoke.ts';
import { ADMIN_PASSWORD, loginAs, servingProcess, startBenchServer, withCursorOfPageBefore, type BenchServer } from './lib/server.ts';

const SECONDS = benchNumber('BENCH_SECONDS', 3, 0.05);
const CONNECTIONS = benchNumber('BENCH_CONNECTIONS', 50, 2);

const server = await startBenchServer();
const { db } = server.ctx;
const now = Date.now();
console.log(`Seeding on ${server.dbKind}…`);
const seedStart = performance.now();
const COUNT = benchNumber('BENCH_ORDERS', ORDERS, 8_000);
const depts = await seedOrders(server, now, COUNT);
await (server.dbKind === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(db);
console.log(`Seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

const day30 = shanghaiDay(now - 30 * 86_400_000);
const probeOrder = Math.floor(COUNT * 0.65);
type Case = { label: string; body: Record<string, unknown>; empty?: boolean; keyset?: boolean };
const cases: Case[] = [
  { label: 'page 1', body: { page: 1 } },
  { label: 'status 出货成功 + 支付宝', body: { page: 1, orderStatus: OrderStatus.dispensed, payType: PayType.alipay } },
  { label: 'status 出货失败 + 微信支付', body: { page: 1, orderStatus: OrderStatus.dispenseFailed, payType: PayType.wechat } },
  { label: 'machineNo M0421', body: { page: 1, machineNo: machineNo(420) } },
  { label: 'exact orderNo', body: { page: 1, orderNo: orderNo(probeOrder) } },
  { label: 'exact transId', body: { page: 1, transId: transId(probeOrder) } },
  { label: 'one company', body: { page: 1, deptId: depts[3] } },
  { label: 'one day', body: { page: 1, start: day30, end: day30 } },
  { label: 'page 500', body: { page: 500 } },
  // what the pager sends stepping from page 499 to 500: page 499's cursor, read from the sort index (keyset)
  { label: 'page 500 after page 499 (its cursor)', body: { page: 500 }, keyset: true },
  // The floor: one index probe that finds nothing — what a request costs the server besides its SQL.
  { label: 'floor: an orderNo no order has', body: { page: 1, orderNo: 'NO-SUCH-ORDER' }, empty: true },
].map((c) => ({ ...c, body: { limit: 10, ...c.body } })).filter((c) => !process.env.BENCH_CASE || c.label.includes(process.env.BENCH_CASE));

/** A case's total counted in the database apart from the list's code (its equality filters; a day range is not counted). */
const EQUALITIES = ['orderStatus', 'payType', 'machineNo', 'orderNo', 'transId', 'deptId'] as const;
async function countedTotal(body: Record<string, unknown>): Promise<number | undefined> {
  if (body.start !== undefined) return undefined;
  let q = db.selectFrom('pay_order').select((eb) => eb.fn.countAll().as('n'));
  for (const column of EQUALITIES) if (body[column] !== undefined) q = q.where(column, '=', body[column] as never);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

const serving = await servingProcess(server);
const token = await loginAs(serving, 'admin', ADMIN_PASSWORD);
const results: Figures[] = [];
const loads: string[] = [];
const content: string[] = [];
for (const c of cases) {
  if (c.keyset) c.body = await withCursorOfPageBefore(`${serving.url}/api/Order/list`, token, c.body);
  const probe = await fetch(`${serving.url}/api/Order/list`, { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify(c.body) });
  const expectBody = await probe.text();
  const answer = JSON.parse(expectBody) as ListAnswer;
  if (!answer.success || (c.empty ? answer.data?.length !== 0 : !answer.data?.length)) throw new Error(`unexpected answer for ${c.label}: ${JSON.stringify(answer).slice(0, 300)}`);
  content.push(...listPageProblems(c.label, answer, Number(c.body.page), Number(c.body.limit), answer.totalBounded ? undefined : await countedTotal(c.body)));
  const total = `${answer.total}${answer.totalBounded ? ' (bounded)' : ''}`;
  loads.push(os.loadavg()[0]!.toFixed(2));
  console.log(`${c.label}: total ${total}, ${answer.data?.length} rows, load ${loads.at(-1)}`);
  results.push(await measureServedHttp(`HTTP ${c.label} — total ${total}`, { url: `${serving.url}/api/Order/list`, body: c.body, token, connections: CONNECTIONS, seconds: SECONDS, expectBody }, serving.pid));
  const statements = await captureQueries(server, (d) => listOrders(d, 'all', orderListQuery.parse(c.body)));
  results.push(await replayThroughDriver(server, statements, `  raw driver, same ${statements.length} statement${statements.length > 1 ? 's' : ''}`, { concurrency: CONNECTIONS, seconds: SECONDS }));
  for (const r of results.slice(-2)) console.log(`  ${r.label}: ${r.requestsPerSecond.toFixed(0)}/s, p50 ${r.p50Ms.toFixed(1)} ms, p95 ${r.p95Ms.toFixed(1)} ms, ${r.errors} errors`);
  const [http, raw] = results.slice(-2) as [Figures, Figures];
  console.log(`  HTTP/raw throughput ${(http.requestsPerSecond / raw.requestsPerSecond).toFixed(2)}×`);
}
// The terminal-number filter is an equality (queries.ts). What a prefix match (`M042`: 10 machines)
// would cost, bare through the driver, beside the equality of one machine: the decision's measure.
const prefix = (d: typeof db) => listPage(d, d.selectFrom('pay_order as o').where('o.machineNo', '>=', 'M042').where('o.machineNo', '<', 'M043'),
  (qb) => qb.selectAll(), { page: 1, limit: 10, sortField: '', sortOrder: '' }, { sortColumns: {}, defaultSort: ['o.createTime', 'desc'], tieBreaker: 'o.orderId' });
const prefixStatements = await captureQueries(server, prefix);
results.push(await replayThroughDriver(server, prefixStatements, `raw only: machineNo prefix M042 (10 machines, not offered), ${prefixStatements.length} statements`, { concurrency: CONNECTIONS, seconds: SECONDS }));
console.log(`  ${results.at(-1)!.label}: ${results.at(-1)!.requestsPerSecond.toFixed(0)}/s, p95 ${results.at(-1)!.p95Ms.toFixed(1)} ms`);
reportLoadRecount(results, content);
printTable(
  `交易订单 at scale: ${COUNT} orders, ${COMPANIES} companies, ${MACHINES} machines, one year; ${CONNECTIONS} connections, ${SECONDS} s a case, ${server.dbKind}; `
    + `${os.cpus().length} cores, 1-min load average during the cases ${loads.join(' / ')}`,
  results,
);
await serving.stop();
await server.close();
