// Issue 16 §7's order-list benchmark: 1,000,000 orders of 10 companies and 1,000 machines over one year;
// 交易订单 page 1 unfiltered, by status + pay type (a common and a rare pair), by terminal number, by exact
// order number and transaction number, by one company, by one day, and page 500 — at 50 connections,
// each beside the same statements run bare through the driver in the same run.
//   npm run bench -- orders   (BENCH_DB=postgres for PostgreSQL; BENCH_SECONDS per case, default 3;
//   BENCH_CONNECTIONS, default 50)
import os from 'node:os';
import { sql } from 'kysely';
import { OrderStatus, orderListQuery, PayType, shanghaiDay, TransType } from '@huiyun/contract';
import { listPage } from '../server/src/db/list-query.ts';
import { listOrders } from '../server/src/modules/order-list/queries.ts';
import { bulkInsert } from './lib/bulk-insert.ts';
import { captureQueries, replayThroughDriver } from './lib/capture-sql.ts';
import { measureHttp, printTable, type Figures } from './lib/measure.ts';
import { ADMIN_PASSWORD, loginAs, startBenchServer, type BenchServer } from './lib/server.ts';

const COMPANIES = 10;
const MACHINES = 1_000;
const ORDERS = 1_000_000;
const YEAR_MS = 365 * 86_400_000;
const SPACING_MS = Math.floor(YEAR_MS / ORDERS); // ~31.5 s between orders: a million over one year
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

const GOODS = ['矿泉水', '可乐', '雪碧', '橙汁', '绿茶', '红茶', '咖啡', '酸奶', '薯片', '饼干'];
const machineNo = (k: number) => `M${String(k + 1).padStart(4, '0')}`;
const orderNo = (i: number) => `HY${String(i).padStart(9, '0')}`;
const transId = (i: number) => `42000${String(i).padStart(9, '0')}`;

/** Pay types as a vending fleet sees them: WeChat most, Alipay next, then cash and UnionPay QR. */
function payTypeOf(i: number): number {
  const r = (Math.floor(i / 100) * 37 + i * 3) % 100; // independent of the status (i % 100)
  return r < 55 ? PayType.wechat : r < 90 ? PayType.alipay : r < 95 ? PayType.cash : PayType.unionQr;
}

/** Statuses of a year of sales: mostly dispensed; timed out, failed, paid, in flight; 5 % refund rows. */
function statusOf(i: number): { status: number; refund: boolean } {
  const r = i % 100;
  if (r < 85) return { status: OrderStatus.dispensed, refund: false };
  if (r < 91) return { status: OrderStatus.timedOut, refund: false };
  if (r < 92) return { status: OrderStatus.dispenseFailed, refund: false };
  if (r < 93) return { status: OrderStatus.paid, refund: false };
  if (r < 94) return { status: OrderStatus.processing, refund: false };
  if (r < 95) return { status: OrderStatus.created, refund: false };
  return { status: r < 99 ? OrderStatus.refunded : OrderStatus.refundFailed, refund: true };
}

const server = await startBenchServer();
const { db } = server.ctx;
const now = Date.now();
console.log(`Seeding on ${server.dbKind}…`);
const seedStart = performance.now();
const depts = await seed(server);
await (server.dbKind === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(db);
console.log(`Seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

const day30 = shanghaiDay(now - 30 * 86_400_000);
const probeOrder = 654_321;
type Case = { label: string; body: Record<string, unknown>; empty?: boolean };
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
  // The floor: one index probe that finds nothing — what a request costs the server besides its SQL.
  { label: 'floor: an orderNo no order has', body: { page: 1, orderNo: 'NO-SUCH-ORDER' }, empty: true },
].map((c) => ({ ...c, body: { limit: 10, ...c.body } }));

const token = await loginAs(server, 'admin', ADMIN_PASSWORD);
const results: Figures[] = [];
const loads: string[] = [];
for (const c of cases) {
  const probe = await fetch(`${server.url}/api/Order/list`, { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify(c.body) });
  const answer = (await probe.json()) as { success: boolean; total?: number; totalBounded?: boolean; data?: unknown[] };
  if (!answer.success || (c.empty ? answer.data?.length !== 0 : !answer.data?.length)) throw new Error(`unexpected answer for ${c.label}: ${JSON.stringify(answer).slice(0, 300)}`);
  const total = `${answer.total}${answer.totalBounded ? ' (bounded)' : ''}`;
  loads.push(os.loadavg()[0]!.toFixed(2));
  console.log(`${c.label}: total ${total}, ${answer.data?.length} rows, load ${loads.at(-1)}`);
  results.push(await measureHttp(`HTTP ${c.label} — total ${total}`, { url: `${server.url}/api/Order/list`, body: c.body, token, connections: CONNECTIONS, seconds: SECONDS }));
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
printTable(
  `交易订单 at scale: ${ORDERS} orders, ${COMPANIES} companies, ${MACHINES} machines, one year; ${CONNECTIONS} connections, ${SECONDS} s a case, ${server.dbKind}; `
    + `${os.cpus().length} cores, 1-min load average during the cases ${loads.join(' / ')}`,
  results,
);
await server.close();

async function seed(server: BenchServer): Promise<number[]> {
  const text = { pgType: 'text' } as const;
  const int = { pgType: 'int' } as const;
  const big = { pgType: 'bigint' } as const;
  await bulkInsert(server, 'sys_dept', [
    { name: 'deptName', ...text }, { name: 'deptNo', ...text }, { name: 'parentId', ...int }, { name: 'addTime', ...big }, { name: 'editTime', ...big },
  ], COMPANIES, (i) => [`售货公司${i + 1}`, `VEND${i + 1}`, 0, now, now]);
  const depts = (await db.selectFrom('sys_dept').select('deptId').where('deptNo', 'like', 'VEND%').orderBy('deptId').execute()).map((d) => d.deptId);
  const start = now - YEAR_MS;
  await bulkInsert(server, 'pay_order', [
    { name: 'deptId', ...int }, { name: 'orderNo', ...text }, { name: 'transId', ...text }, { name: 'payType', ...int }, { name: 'subPayType', ...int },
    { name: 'transType', ...int }, { name: 'machineNo', ...text }, { name: 'goodsNo', ...text }, { name: 'goodsName', ...text },
    { name: 'goodsPrice', ...int }, { name: 'payAmount', ...int }, { name: 'aisleNo', ...text }, { name: 'orderStatus', ...int },
    { name: 'openId', ...text }, { name: 'mchId', ...text }, { name: 'subMchId', ...text }, { name: 'remark', ...text },
    { name: 'createTime', ...big }, { name: 'payTime', ...big },
  ], ORDERS, (i) => {
    const k = (i * 7_919) % MACHINES; // machine k belongs to company k % 10
    const goods = i % GOODS.length;
    const price = 200 + goods * 50;
    const { status, refund } = statusOf(i);
    const created = start + i * SPACING_MS;
    const paid = status !== OrderStatus.created && status !== OrderStatus.processing && status !== OrderStatus.timedOut;
    return [
      depts[k % COMPANIES]!, orderNo(i), paid ? transId(i) : '', payTypeOf(i), 0, refund ? TransType.refund : TransType.consume, machineNo(k),
      `G${goods}`, GOODS[goods]!, price, refund ? -price : price, `A${1 + (i % 30)}`, status, `o${String(i % 50_000).padStart(8, '0')}`,
      '1900000001', '', '', created, paid ? created + 3_000 : (null as unknown as number), // unpaid: no pay time
    ];
  });
  console.log(`  orders seeded at ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  return depts;
}
