// Which pay_order index each statement reads (the index audit of migration 0021): seeds the
// orders bench's fixture (BENCH_ORDERS rows, default 100,000) and prints the plan of every statement that
// reads pay_order by more than its key — 交易订单's list cases (the orders bench's, plus a status alone, a pay
// type alone, a company administrator's scope), the sweepers' reads and the terminal's checks — with each
// statement's own bound parameters: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN. First without
// ANALYZE (a fresh database, before the server's first pragma optimize: db/sqlite-optimize.ts), then after it. Compare two versions' output
// with diff. Nothing is timed.
//   npm run bench -- order-plans   (BENCH_DB=postgres + TEST_DATABASE_URL for PostgreSQL; BENCH_KEEP=<file>
//   keeps a copy of the seeded SQLite database)
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { OrderStatus, orderListQuery, PayType, shanghaiDay, TransType } from '@huiyun/contract';
import type { Database } from '../server/src/db/schema.ts';
import { listOrders } from '../server/src/modules/pay/order-list/index.ts';
import { claimExpired, claimStuckRefunds, failStaleDispenses } from '../server/src/modules/pay/orders/index.ts';
import { connectBeside, type CapturedQuery } from './lib/capture-sql.ts';
import { machineNo, orderNo, seedOrders, transId } from './lib/order-fixture.ts';
import { startBenchServer } from './lib/server.ts';
import { whenUnlocked } from './lib/sqlite-busy.ts';
import { benchNumber, reportRecount } from './lib/smoke.ts';

const ORDERS = benchNumber('BENCH_ORDERS', 100_000, 3_000);
const server = await startBenchServer();
const now = Date.now();
const depts = await seedOrders(server, now, ORDERS, () => {});
const probe = Math.floor(ORDERS * 0.65);
const day30 = shanghaiDay(now - 30 * 86_400_000);

async function capture(work: (db: Kysely<Database>) => Promise<unknown>): Promise<CapturedQuery[]> {
  return whenUnlocked(async () => {
    const captured: CapturedQuery[] = [];
    const db = connectBeside(server, (event) => { if (event.level === 'query') captured.push(event.query); });
    try {
      // the sweepers write: run them in a transaction that is rolled back, the statements are what counts
      await db.transaction().execute(async (trx) => {
        await work(trx);
        throw new Error('rollback');
      }).catch((e: Error) => { if (e.message !== 'rollback') throw e; });
    } finally {
      await db.destroy();
    }
    return captured;
  });
}

// EXPLAIN with the statement's own bound parameters: a partial index is read only when the query's text
// implies its condition, which a bound value does not (on SQLite; on PostgreSQL in a generic plan)
async function planOf(statement: CapturedQuery): Promise<string> {
  if (server.dbKind === 'postgres') {
    const rows = (await pool!.query(`explain ${statement.sql}`, statement.parameters as unknown[])).rows as { 'QUERY PLAN': string }[];
    return rows.map((r) => r['QUERY PLAN']).join('\n        ');
  }
  const raw = new DatabaseSync(server.sqliteFile!, { readOnly: true });
  try {
    return (raw.prepare(`explain query plan ${statement.sql}`).all(...(statement.parameters as SQLInputValue[])) as { detail: string }[]).map((r) => r.detail).join(' | ');
  } finally {
    raw.close();
  }
}
const pool = server.dbKind === 'postgres' ? new pg.Pool({ connectionString: server.databaseUrl, max: 1 }) : undefined;

const ctxWith = (db: Kysely<Database>) => ({ ...server.ctx, db });
const list = (body: Record<string, unknown>, scope: 'all' | number[] = 'all') => (db: Kysely<Database>) => listOrders(db, scope, orderListQuery.parse({ limit: 10, ...body }));
const cases: [string, (db: Kysely<Database>) => Promise<unknown>][] = [
  ['list: page 1', list({ page: 1 })],
  ['list: 出货成功 + 支付宝', list({ page: 1, orderStatus: OrderStatus.dispensed, payType: PayType.alipay })],
  ['list: 出货失败 + 微信支付', list({ page: 1, orderStatus: OrderStatus.dispenseFailed, payType: PayType.wechat })],
  ['list: 出货失败 alone', list({ page: 1, orderStatus: OrderStatus.dispenseFailed })],
  ['list: 出货成功 alone', list({ page: 1, orderStatus: OrderStatus.dispensed })],
  ['list: 已支付 alone', list({ page: 1, orderStatus: OrderStatus.paid })],
  ['list: 银联 alone', list({ page: 1, payType: PayType.unionQr })],
  ['list: machineNo M0421', list({ page: 1, machineNo: machineNo(420) })],
  ['list: exact orderNo', list({ page: 1, orderNo: orderNo(probe) })],
  ['list: exact transId', list({ page: 1, transId: transId(probe) })],
  ['list: one company', list({ page: 1, deptId: depts[3] })],
  ['list: company scope (2 companies) + 出货失败', list({ page: 1, orderStatus: OrderStatus.dispenseFailed }, [depts[3]!, depts[4]!])],
  ['list: one day', list({ page: 1, start: day30, end: day30 })],
  ['list: page 500', list({ page: 500 })],
  ['sweeper: unpaid past expireAt', (db) => claimExpired(ctxWith(db), 'plan')],
  ['sweeper: refunds stuck in 11/12', (db) => claimStuckRefunds(ctxWith(db), 'plan')],
  ['sweeper: paid, dispense never reported', (db) => failStaleDispenses(ctxWith(db))],
  ['sweeper: refundNeeded', (db) => db.selectFrom('pay_order').select('orderId').where('refundNeeded', '=', 1).orderBy('orderId').limit(100).execute()],
  ['terminal: open order of a machine', (db) => db.selectFrom('pay_order').selectAll().where('machineNo', '=', machineNo(420)).where('transType', '=', sql.lit(TransType.consume))
    .where('orderStatus', 'in', [sql.lit(OrderStatus.created), sql.lit(OrderStatus.paid), sql.lit(OrderStatus.processing)]).executeTakeFirst()],
  ['terminal: order by orderNo', (db) => db.selectFrom('pay_order').selectAll().where('orderNo', '=', orderNo(probe)).executeTakeFirst()],
];

const problems: string[] = []; // the recount: every case ran and read pay_order
async function printPlans(title: string) {
  console.log(`\n## ${title} (${server.dbKind}, ${ORDERS} orders)`);
  for (const [label, work] of cases) {
    console.log(`- ${label}`);
    const statements = await capture(work);
    if (!statements.some((s) => /pay_order/.test(s.sql))) problems.push(`${title}, ${label}: no statement read pay_order`);
    for (const statement of statements) {
      if (!/pay_order/.test(statement.sql) || /^(select|update) .*"orderId" = [$?]\d*$/i.test(statement.sql)) continue;
      console.log(`    ${statement.sql.replace(/\s+/g, ' ').slice(0, 160)}`);
      console.log(`      → ${await planOf(statement)}`);
    }
  }
}

await printPlans('no ANALYZE');
await (server.dbKind === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(server.ctx.db);
await printPlans('after ANALYZE');
await pool?.end();
if (process.env.BENCH_KEEP && server.sqliteFile) (await import('node:fs')).copyFileSync(server.sqliteFile, process.env.BENCH_KEEP);
await server.close();
reportRecount(problems);
