// The floor: the fixed CPU cost of a request, in one run — a Fastify route answering a constant,
// an authenticated constant route (GET /sync/currentUser: session lookup, access check, envelope) and the
// cheapest list request (交易订单 by an order number no order has: one index probe, nothing found), each as
// the serving process's CPU a request (/proc), with the request log at the shipped LOG_LEVEL=info written
// to a file. The constant route is the baseline: the target is an authenticated request ≤ 4× it.
//   npm run bench -- floor   (BENCH_DB=postgres + TEST_DATABASE_URL for PostgreSQL; BENCH_SECONDS per case,
//   default 5; BENCH_CONNECTIONS, default 10; LOG_LEVEL, default info; BENCH_CPU_PROF=dir: --cpu-prof of the product's process;
//   BENCH_CASE=<text>: only the cases whose label holds the text, for a profile of one)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChildServer } from './lib/child-server.ts';
import { listPageProblems, measureServedHttp, printTable, reportLoadRecount, requestOk, type Figures, type ListAnswer } from './lib/measure.ts';
import { ADMIN_PASSWORD, loginAs, servingProcess, startBenchServer } from './lib/server.ts';
import { benchNumber } from './lib/smoke.ts';

const SECONDS = benchNumber('BENCH_SECONDS', 5, 0.05);
const CONNECTIONS = benchNumber('BENCH_CONNECTIONS', 10, 2);
process.env.LOG_LEVEL ??= 'info';
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-bench-floor-'));

const server = await startBenchServer();
process.env.BENCH_SERVE_LOG_FILE = path.join(logDir, 'server.log');
const serving = await servingProcess(server);
const constant = await startChildServer<{ url: string }>(path.join(import.meta.dirname, 'lib/constant-child.ts'), [], { BENCH_SERVE_LOG_FILE: path.join(logDir, 'constant.log') });
const token = await loginAs(serving, 'admin', ADMIN_PASSWORD);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`floor on ${server.dbKind}, LOG_LEVEL=${process.env.LOG_LEVEL}; ${os.cpus().length} cores, load before ${load()}`);

const caseNamed = process.env.BENCH_CASE; // only the cases whose label holds this text (a profile of one case)
const cases = [
  { label: 'constant route (Fastify, the request log at the same level)', pid: constant.pid, options: { url: `${constant.url}/constant`, method: 'GET' as const, body: undefined, token: '' } },
  { label: 'authenticated constant route: GET /sync/currentUser', pid: serving.pid, options: { url: `${serving.url}/sync/currentUser`, method: 'GET' as const, body: undefined, token } },
  { label: 'cheapest list: 交易订单 by an order number no order has', pid: serving.pid, options: { url: `${serving.url}/api/Order/list`, body: { page: 1, limit: 10, orderNo: 'NO-SUCH-ORDER' }, token } },
].filter((c) => !caseNamed || c.label.includes(caseNamed));
const results: Figures[] = [];
const content: string[] = [];
/** What each case must answer: the constant, the admin's own account, an empty first page. */
const contentProblems = (label: string, text: string): string[] => {
  const answer = JSON.parse(text) as ListAnswer & { data?: { userName?: string } };
  if (label.startsWith('constant')) return answer.success && (answer.data as unknown) === 1 ? [] : [`${label}: not the constant: ${text.slice(0, 200)}`];
  if (label.startsWith('authenticated')) return answer.success && (answer.data as { userName?: string } | undefined)?.userName === 'admin' ? [] : [`${label}: not the admin's account: ${text.slice(0, 200)}`];
  return listPageProblems(label, answer, 1, 10, 0);
};
for (const c of cases) {
  const expectBody = await requestOk(c.options);
  content.push(...contentProblems(c.label, expectBody));
  // a first pass warms the route (its statements prepared, its code compiled), then the measured one
  await measureServedHttp(c.label, { ...c.options, connections: CONNECTIONS, seconds: Math.min(SECONDS, 1) }, c.pid);
  results.push(await measureServedHttp(c.label, { ...c.options, connections: CONNECTIONS, seconds: SECONDS, expectBody }, c.pid));
  console.log(`  ${c.label}: ${results.at(-1)!.cpuPerRequestUs?.toFixed(0)} µs a request; load ${load()}`);
}
const logged = fs.readFileSync(path.join(logDir, 'server.log'), 'utf8').split('\n').filter(Boolean).length;
await serving.stop();
await constant.stop();
await server.close();
fs.rmSync(logDir, { recursive: true, force: true });

reportLoadRecount(results, content);
printTable(`Fixed cost of a request, ${server.dbKind}, ${CONNECTIONS} connections, ${SECONDS} s a case, LOG_LEVEL=${process.env.LOG_LEVEL}; load after ${load()}`, results);
// the ratios need every case
if (!caseNamed) {
  const [base, auth, list] = results.map((r) => r.cpuPerRequestUs ?? NaN) as [number, number, number];
  console.log(`\nauthenticated / constant: ${(auth / base).toFixed(1)}× (target ≤ 4×); cheapest list / constant: ${(list / base).toFixed(1)}×; ${logged} request log lines written by the product`);
}
