// 支付告警's list at scale (every list stays fast at a million rows): 1,000,000 alarms of 10
// companies and 1,000 terminals over one year (1 % of unknown orders, deptId 0); page 1 unfiltered, by
// a common and a rare kind, by exact order number, by terminal, by one company, by one day, page 500 —
// at 50 connections, each beside the same statements run bare through the driver in the same run.
//   npm run bench -- pay-alarms   (BENCH_DB=postgres for PostgreSQL; BENCH_SECONDS per case, default 3;
//   BENCH_CONNECTIONS, default 50)
import os from 'node:os';
import { sql } from 'kysely';
import { PayAlarmKind, payAlarmListQuery, shanghaiDay } from '@huiyun/contract';
import { listPayAlarms } from '../server/src/modules/pay/alarms/index.ts';
import { bulkInsert } from './lib/bulk-insert.ts';
import { big, COMPANIES, int, MACHINES, machineNo, orderNo, seedCompanies, text, YEAR_MS } from './lib/order-fixture.ts';
import { captureQueries, replayThroughDriver } from './lib/capture-sql.ts';
import { listPageProblems, measureHttp, printTable, reportLoadRecount, type Figures, type ListAnswer } from './lib/measure.ts';
import { benchNumber } from './lib/smoke.ts';
import { ADMIN_PASSWORD, loginAs, startBenchServer } from './lib/server.ts';

const SECONDS = benchNumber('BENCH_SECONDS', 3, 0.05);
const CONNECTIONS = benchNumber('BENCH_CONNECTIONS', 50, 2);
const ALARMS = benchNumber('BENCH_ALARMS', 1_000_000, 8_000);

const server = await startBenchServer();
const { db } = server.ctx;
const now = Date.now();
console.log(`Seeding on ${server.dbKind}…`);
const seedStart = performance.now();
const depts = await seedCompanies(server, now);
/** Kinds as a fleet would see them: mismatching notifications most, refused automatic refunds rare. */
const kindOf = (i: number) => {
  const r = (Math.floor(i / 100) * 37 + i * 13) % 100; // independent of the company (i * 9 % 10)
  return r < 45 ? PayAlarmKind.notifyMismatch : r < 75 ? PayAlarmKind.latePayment : r < 90 ? PayAlarmKind.amountMismatch : r < 99 ? PayAlarmKind.configMismatch : PayAlarmKind.autoRefundFailed;
};
const spacing = Math.floor(YEAR_MS / ALARMS);
await bulkInsert(server, 'pay_alarm', [
  { name: 'kind', ...text }, { name: 'orderNo', ...text }, { name: 'deptId', ...int }, { name: 'machineNo', ...text }, { name: 'detail', ...text }, { name: 'createTime', ...big },
], ALARMS, (i) => {
  const k = (i * 7_919) % MACHINES;
  const unknown = i % 100 === 42;
  return [kindOf(i), orderNo(i), unknown ? 0 : depts[k % COMPANIES]!, unknown ? '' : machineNo(k), `amount: notification ${i % 500} order 250`, now - YEAR_MS + i * spacing];
});
await (server.dbKind === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(db);
console.log(`Seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

const day30 = shanghaiDay(now - 30 * 86_400_000);
type Case = { label: string; body: Record<string, unknown> };
const cases: Case[] = [
  { label: 'page 1', body: { page: 1 } },
  { label: 'kind 通知与订单不符 (45 %)', body: { page: 1, kind: PayAlarmKind.notifyMismatch } },
  { label: 'kind 自动退款失败 (1 %)', body: { page: 1, kind: PayAlarmKind.autoRefundFailed } },
  { label: 'exact orderNo', body: { page: 1, orderNo: orderNo(Math.floor(ALARMS * 0.65)) } },
  { label: 'machineNo M0421', body: { page: 1, machineNo: machineNo(420) } },
  { label: 'one company', body: { page: 1, deptId: depts[3] } },
  { label: 'one company + kind 自动退款失败', body: { page: 1, deptId: depts[3], kind: PayAlarmKind.autoRefundFailed } },
  { label: 'one day', body: { page: 1, start: day30, end: day30 } },
  { label: 'page 500', body: { page: 500 } },
].map((c) => ({ ...c, body: { limit: 10, ...c.body } }));

/** A case's total counted in the database apart from the list's code (its equality filters; a day range is not counted). */
const EQUALITIES = ['kind', 'orderNo', 'machineNo', 'deptId'] as const;
async function countedTotal(body: Record<string, unknown>): Promise<number | undefined> {
  if (body.start !== undefined) return undefined;
  let q = db.selectFrom('pay_alarm').select((eb) => eb.fn.countAll().as('n'));
  for (const column of EQUALITIES) if (body[column] !== undefined) q = q.where(column, '=', body[column] as never);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

const token = await loginAs(server, 'admin', ADMIN_PASSWORD);
const results: Figures[] = [];
const loads: string[] = [];
const content: string[] = [];
for (const c of cases) {
  const probe = await fetch(`${server.url}/api/PayAlarm/list`, { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify(c.body) });
  const expectBody = await probe.text();
  const answer = JSON.parse(expectBody) as ListAnswer;
  if (!answer.success || !answer.data?.length) throw new Error(`unexpected answer for ${c.label}: ${JSON.stringify(answer).slice(0, 300)}`);
  content.push(...listPageProblems(c.label, answer, Number(c.body.page), Number(c.body.limit), answer.totalBounded ? undefined : await countedTotal(c.body)));
  const total = `${answer.total}${answer.totalBounded ? ' (bounded)' : ''}`;
  loads.push(os.loadavg()[0]!.toFixed(2));
  console.log(`${c.label}: total ${total}, ${answer.data.length} rows, load ${loads.at(-1)}`);
  results.push(await measureHttp(`HTTP ${c.label} — total ${total}`, { url: `${server.url}/api/PayAlarm/list`, body: c.body, token, connections: CONNECTIONS, seconds: SECONDS, expectBody }));
  const statements = await captureQueries(server, (d) => listPayAlarms(d, 'all', payAlarmListQuery.parse(c.body)));
  results.push(await replayThroughDriver(server, statements, `  raw driver, same ${statements.length} statement${statements.length > 1 ? 's' : ''}`, { concurrency: CONNECTIONS, seconds: SECONDS }));
  for (const r of results.slice(-2)) console.log(`  ${r.label}: ${r.requestsPerSecond.toFixed(0)}/s, p50 ${r.p50Ms.toFixed(1)} ms, p95 ${r.p95Ms.toFixed(1)} ms, ${r.errors} errors`);
}
// A company administrator's every query carries its scope (deptId in (…)): the rare kind in one company's scope, bare.
const scoped = await captureQueries(server, (d) => listPayAlarms(d, [depts[3]!], payAlarmListQuery.parse({ page: 1, limit: 10, kind: PayAlarmKind.autoRefundFailed })));
results.push(await replayThroughDriver(server, scoped, `raw only: a company administrator's scope + kind 自动退款失败, ${scoped.length} statements`, { concurrency: CONNECTIONS, seconds: SECONDS }));
console.log(`  ${results.at(-1)!.label}: ${results.at(-1)!.requestsPerSecond.toFixed(0)}/s, p95 ${results.at(-1)!.p95Ms.toFixed(1)} ms`);
reportLoadRecount(results, content);
printTable(
  `支付告警 at scale: ${ALARMS} alarms, ${COMPANIES} companies, ${MACHINES} terminals, one year; ${CONNECTIONS} connections, ${SECONDS} s a case, ${server.dbKind}; `
    + `${os.cpus().length} cores, 1-min load average during the cases ${loads.join(' / ')}`,
  results,
);
await server.close();
