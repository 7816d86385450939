// The terminal-flow benchmark: 1,000 simulated vending machines buying as fast as the server
// answers, each purchase the whole protocol over real HTTP against the server in a child process:
//   order/create (signed) → the customer presses 支付成功 on the 支付模拟 page (POST of its form) → the
//   simulator gateway's signed paid notification (sent by the server's simulator to its own notify
//   route) → order/status long poll until 已支付 (signed) → order/dispense success (signed).
// Baseline in the same run: the same state changes through the bare driver (insert the order, → 10,
// → 2, then → 3 with the aisle's stock − 1 in one transaction), on the same tables. Then a recount:
// every order in a legal state, each aisle's stock down by exactly its dispensed orders, every
// purchase the machines saw once in the database; exits 1 when it does not hold.
//   npm run bench -- terminal   (BENCH_DB=postgres + TEST_DATABASE_URL for PostgreSQL; BENCH_SECONDS,
//   default 20, after BENCH_WARMUP, default 10; BENCH_MACHINES, default 1000; BENCH_RATE=N: N purchases begun a second in all; BENCH_CPU_PROF=dir writes the server's --cpu-prof there;
//   BENCH_SERVER_WORKERS=N: the machines buy from `node server/src/main.ts` with SERVER_WORKERS=N on the
//   bench's database instead — PostgreSQL, with BENCH_REDIS_URL or TEST_REDIS_URL — and the server CPU
//   is that of all its processes)
// Beside purchases a second and server CPU, it prints what a purchase costs: the server's CPU, the CPU of
// the PostgreSQL backends serving the bench's database (bench/lib/pg-backends.ts), the statements and round
// trips the server sent (bench/lib/db-calls.ts, counted in each server process) — for the whole purchase in
// the window, and for each step (create, pay, notification, status, dispense) measured apart afterwards,
// every machine making the step at once (bench/lib/terminal-steps.ts; not with BENCH_SERVER_WORKERS).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { messages, OrderStatus, PayType, TransType } from '@huiyun/contract';
import { startChildServer } from './lib/child-server.ts';
import { cpuSeconds } from './lib/process-cpu.ts';
import { ADMIN_PASSWORD, databaseTransport, startBenchServer } from './lib/server.ts';
import { benchNumber, reportRecount } from './lib/smoke.ts';
import { newTerminalKey, sealTerminalKey } from '../server/src/modules/pay/machines/index.ts';
import { signTerminal } from '../server/src/modules/pay/terminal/index.ts';
import { openBare } from './lib/terminal-bare.ts';
import { paymentRuntime } from '../server/src/modules/pay/orders/index.ts';
import { simulatorOf } from '../server/src/modules/pay/gateways/index.ts';
import { readDbCalls } from './lib/db-calls.ts';
import { notificationControl } from './lib/held-notifications.ts';
import { watchBackends } from './lib/pg-backends.ts';
import { startRollupFolding } from '../server/src/modules/pay/charts/index.ts';
import { costBetween, costTable, measureSteps, type Cost, type Reading } from './lib/terminal-steps.ts';

const MACHINES = benchNumber('BENCH_MACHINES', 1_000, 10);
// BENCH_RATE: purchases begun a second, all machines together (unset: each machine buys again at once). CPU a
// purchase falls as a server gets busier (more requests read in one turn of its event loop), so two databases
// are compared at one rate, below what the slower one carries, as well as each at its own most.
const RATE = benchNumber('BENCH_RATE', 0, 0);
const SECONDS = benchNumber('BENCH_SECONDS', 20, 1);
const WARMUP = benchNumber('BENCH_WARMUP', 10, 0.5);
const AISLES = ['A1', 'A2', 'A3', 'A4', 'B1', 'B2', 'B3', 'B4'];
const CAPACITY = 1_000_000; // stock never runs out during a run: every create can sell
const PRICE = 250;
/** How many machines make a step at once when the steps are measured apart. */
const STEP_CONCURRENCY = 100;

type Machine = { machineNo: string; machineId: number; key: string };
type Child = {
  url: string; dbKind: 'sqlite' | 'postgres'; sqliteFile?: string; databaseUrl?: string; machines: Machine[]; configId: number; deptId: number; clusterPid?: number; workers?: number;
  /** bench/lib/held-notifications.ts, in the child's own server (not with BENCH_SERVER_WORKERS) */
  notifications?: string;
};

if (process.env.BENCH_CHILD === 'server') await runServerChild();

const cpuProfDir = process.env.BENCH_CPU_PROF;
const callsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-bench-calls-'));
const server = await startChildServer<Child>(import.meta.filename, cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [], { BENCH_DB_CALLS_DIR: callsDir });
const backends = server.databaseUrl ? await watchBackends(server.databaseUrl) : undefined;
/** The server's and its database's CPU and calls so far. */
const reading = async (): Promise<Reading> => ({ serverCpu: serverPids().reduce((sum, pid) => sum + cpuSeconds(pid), 0), pgCpu: await backends?.cpu(), calls: readDbCalls(callsDir) });
const origin = new URL(server.url);
// Every machine keeps one connection open, as a device would, and so does its customer's phone.
// (Node's default agent keeps only 256 idle sockets: the rest reconnected, and a request on a new
// connection to a busy server waited up to 10–14 s to be read — see docs/performance.md.)
const agents = new Map<string, http.Agent>();
const agentFor = (name: string) => {
  let agent = agents.get(name);
  if (!agent) agents.set(name, (agent = new http.Agent({ keepAlive: true, maxSockets: 1 })));
  return agent;
};
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`terminal flow on ${server.dbKind}${server.databaseUrl ? ` (${databaseTransport(server.databaseUrl)})` : ''}: ${MACHINES} machines${RATE ? `, ${RATE} purchases begun a second (BENCH_RATE)` : ''}, ${SECONDS} s; ${os.cpus().length} cores, load before ${load()}`
  + (server.clusterPid ? `; server: main.ts with SERVER_WORKERS=${server.workers} (pid ${server.clusterPid})` : ''));

// ---- the machines and the customer, over HTTP ----

function post(path: string, body: string, headers: Record<string, string>, agent: http.Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: origin.hostname, port: origin.port, path, method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function signed<T>(m: Machine, path: string, payload: unknown): Promise<T> {
  const full = `/terminal/v1${path}`;
  const raw = JSON.stringify(payload);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(12).toString('hex');
  const answer = await post(full, raw, {
    'content-type': 'application/json', 'x-machine-no': m.machineNo, 'x-timestamp': timestamp, 'x-nonce': nonce,
    'x-signature': signTerminal(m.key, 'POST', full, timestamp, nonce, raw),
  }, agentFor(m.machineNo));
  const body = JSON.parse(answer.text) as { success: boolean; msg: string; data?: T };
  if (!body.success || !body.data) throw new Error(`${path} ${answer.status}: ${body.msg}`);
  return body.data;
}

const seenOrders: string[] = [];
const latencies: number[] = [];
let errors = 0;
let lastError = '';

// time spent in each step of purchases (ms, summed), and the status calls they took
const steps = { create: 0, pay: 0, untilPaid: 0, dispense: 0, statusCalls: 0 };
const slowest = { create: 0, pay: 0, untilPaid: 0, dispense: 0 };

type Created = { orderNo: string; codeUrl: string };

// a purchase's steps, as a machine and its customer make them
async function create(m: Machine): Promise<Created> {
  const aisleNo = AISLES[Math.floor(Math.random() * AISLES.length)]!;
  const created = await signed<Created>(m, '/order/create', { aisleNo, payType: PayType.wechat });
  seenOrders.push(created.orderNo);
  return created;
}

async function pay(m: Machine, created: Created): Promise<void> {
  const page = new URL(created.codeUrl);
  const paid = await post(page.pathname, new URLSearchParams({ t: page.searchParams.get('t') ?? '', action: 'pay' }).toString(), { 'content-type': 'application/x-www-form-urlencoded' }, agentFor(`customer of ${m.machineNo}`));
  if (!paid.text.includes(messages.terminal.simPaid)) throw new Error(`支付模拟 did not pay ${created.orderNo}: ${paid.status}`);
}

/** order/status long polls until 已支付; answers how many calls it took. */
async function untilPaid(m: Machine, orderNo: string): Promise<number> {
  let status: number = OrderStatus.processing;
  let calls = 0;
  for (; calls < 5 && status !== OrderStatus.paid; calls++) {
    status = (await signed<{ orderStatus: number }>(m, '/order/status', { orderNo, knownStatus: status, waitSeconds: 10 })).orderStatus;
  }
  if (status !== OrderStatus.paid) throw new Error(`${orderNo} not paid: status ${status}`);
  return calls;
}

const dispense = (m: Machine, orderNo: string) => signed(m, '/order/dispense', { orderNo, success: true, aisleStatus: 1, message: '' });

async function purchase(m: Machine): Promise<void> {
  let t = performance.now();
  const lap = (step: 'create' | 'pay' | 'untilPaid' | 'dispense') => {
    const now = performance.now();
    steps[step] += now - t;
    slowest[step] = Math.max(slowest[step], now - t);
    t = now;
  };
  const created = await create(m);
  lap('create');
  await pay(m, created);
  lap('pay');
  const statusCalls = await untilPaid(m, created.orderNo);
  steps.statusCalls += statusCalls; // (not `+= await`: that adds to the count read before the wait)
  lap('untilPaid');
  await dispense(m, created.orderNo);
  lap('dispense');
}

let completed = 0;

let nextStart = 0;
function paced(): Promise<void> | undefined {
  if (!RATE) return undefined;
  const now = performance.now();
  const at = Math.max(now, nextStart);
  nextStart = at + 1000 / RATE;
  return at > now ? new Promise((resolve) => setTimeout(resolve, at - now)) : undefined;
}

async function runMachines(until: () => boolean): Promise<void> {
  await Promise.all(server.machines.slice(0, MACHINES).map(async (m) => {
    // machines come online over the first half of the warm-up, so their purchases do not move in
    // lockstep (a window would then count whole waves of 1,000)
    await new Promise((resolve) => setTimeout(resolve, Math.random() * WARMUP * 500));
    do {
      await paced();
      const started = performance.now();
      try {
        await purchase(m);
        completed += 1;
        latencies.push(performance.now() - started);
      } catch (error) {
        errors += 1;
        lastError = error instanceof Error ? error.message : String(error);
      }
    } while (!until());
  }));
}

/** The server's processes: the bench's child, or main.ts and its workers (read anew: a worker may be replaced). */
function serverPids(): number[] {
  if (!server.clusterPid) return [server.pid];
  const children = fs.readFileSync(`/proc/${server.clusterPid}/task/${server.clusterPid}/children`, 'utf8').trim();
  return [server.clusterPid, ...(children ? children.split(/\s+/).map(Number) : [])];
}

// Every machine and its customer connect before the run, 50 at a time: the machine with its heartbeat
// (the protocol's first call), the customer with a 支付模拟 page that shows nothing.
const connectStart = performance.now();
const fleet = server.machines.slice(0, MACHINES);
for (let i = 0; i < fleet.length; i += 50) {
  await Promise.all(fleet.slice(i, i + 50).flatMap((m) => [
    signed(m, '/heartbeat', { aisles: [] }),
    post('/gateway/simulator/pay/NONE', 't=none&action=cancel', { 'content-type': 'application/x-www-form-urlencoded' }, agentFor(`customer of ${m.machineNo}`)),
  ]));
}
console.log(`${fleet.length} machines and their customers connected in ${((performance.now() - connectStart) / 1000).toFixed(1)} s`);

const bare = await openBare({ ...server, aisles: AISLES, price: PRICE });
const stockBefore = await bare.stockByAisle();

// The machines run without a pause for WARMUP + SECONDS; the figures are of the last SECONDS (a window
// in steady state): purchases completed in it, CPU used in it. Purchases under way at its end are
// finished afterwards (and recounted) but not counted.
const loadsHttp: string[] = [];
const loadTimer = setInterval(() => loadsHttp.push(os.loadavg()[0]!.toFixed(2)), 5_000);
const start = performance.now();
const end = start + (WARMUP + SECONDS) * 1000;
type Snapshot = { at: number; completed: number; errors: number; serverCpu: number; read: Reading; ownCpu: number; steps: typeof steps; latencies: number };
const snapshot = async (): Promise<Snapshot> => {
  const own = process.cpuUsage();
  const at = performance.now();
  const counted = { completed, errors, steps: { ...steps }, latencies: latencies.length };
  const read = await reading();
  return { at, ...counted, serverCpu: read.serverCpu, read, ownCpu: (own.user + own.system) / 1e6 };
};
const after = (seconds: number) => new Promise<Snapshot>((resolve) => setTimeout(() => resolve(snapshot()), seconds * 1000));
const windowStart = after(WARMUP);
const windowEnd = after(WARMUP + SECONDS);
await runMachines(() => performance.now() >= end);
const drainSeconds = (performance.now() - end) / 1000;
clearInterval(loadTimer);
const [w0, w1] = [await windowStart, await windowEnd];
const w = {
  purchases: w1.completed - w0.completed, seconds: (w1.at - w0.at) / 1000, serverCpu: w1.serverCpu - w0.serverCpu, ownCpu: w1.ownCpu - w0.ownCpu, errors: w1.errors - w0.errors,
  steps: Object.fromEntries(Object.entries(w1.steps).map(([k, v]) => [k, v - w0.steps[k as keyof typeof steps]])) as typeof steps,
};
const purchases = w.purchases;
const windowLatencies = latencies.slice(w0.latencies, w1.latencies);
latencies.length = 0;
latencies.push(...windowLatencies);
const httpRate = purchases / w.seconds;
latencies.sort((a, b) => a - b);
const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
console.log(`HTTP: ${purchases} purchases completed in ${w.seconds.toFixed(1)} s = ${httpRate.toFixed(0)}/s, p50 ${pct(0.5).toFixed(0)} ms, p95 ${pct(0.95).toFixed(0)} ms a purchase, ${w.errors} errors in the window, ${errors} in all${errors ? ` (${lastError})` : ''}; `
  + `the ones under way at the end finished ${drainSeconds.toFixed(1)} s later`);
const serverCpuMs = (w.serverCpu * 1000) / Math.max(1, purchases);
console.log(`  CPU in the window: server ${w.serverCpu.toFixed(1)} s (${(w.serverCpu / w.seconds * 100).toFixed(0)} % of a core, ${serverCpuMs.toFixed(2)} ms a purchase: one core would carry ${(1000 / serverCpuMs).toFixed(0)}/s), `
  + `machines + customers (this process) ${w.ownCpu.toFixed(1)} s (${(w.ownCpu / w.seconds * 100).toFixed(0)} %); load ${loadsHttp.join(' / ')}`);
const per = (ms: number) => (ms / Math.max(1, purchases)).toFixed(0);
console.log(`  a purchase's steps on average: create ${per(w.steps.create)} ms, pay ${per(w.steps.pay)} ms, until paid ${per(w.steps.untilPaid)} ms (${(w.steps.statusCalls / Math.max(1, purchases)).toFixed(2)} status calls), dispense ${per(w.steps.dispense)} ms; `
  + `slowest of the whole run: ${Object.entries(slowest).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(', ')}; p99 ${pct(0.99).toFixed(0)} ms, slowest purchase ${pct(1).toFixed(0)} ms`);

// let the last notifications (and their 5 % duplicates) land before the steps and the baseline write
await new Promise((resolve) => setTimeout(resolve, 1_000));

// What a purchase costs: in the window (everything at once, as it runs), and step by step, every machine
// making one step at once, the paid notifications held back until their own step.
const costs: Cost[] = [costBetween(`whole purchase (the window, ${w.seconds.toFixed(0)} s)`, w0.read, w1.read, purchases)];
if (server.notifications) {
  const fleetNow = server.machines.slice(0, MACHINES);
  const orders = new Map<string, Created>();
  const control = (what: string) => fetch(`${server.notifications}/${what}`, { method: 'POST' }).then((r) => r.text());
  // at most STEP_CONCURRENCY machines at a time: a thousand requests at once waited for PostgreSQL's 20
  // connections past the pool's 5 s (503) on a loaded machine
  const wave = (step: (m: Machine) => Promise<unknown>) => async () => {
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(STEP_CONCURRENCY, fleetNow.length) }, async () => {
      while (next < fleetNow.length) await step(fleetNow[next++]!);
    }));
  };
  costs.push(...await measureSteps(reading, fleetNow.length, [
    { name: 'create', run: wave(async (m) => orders.set(m.machineNo, await create(m))) },
    { name: 'pay (支付模拟 page)', run: async () => {
      await control('hold');
      await wave((m) => pay(m, orders.get(m.machineNo)!))();
    } },
    { name: 'notification', run: async () => void (await control('release')) },
    { name: 'status (one call, already paid)', run: wave((m) => untilPaid(m, orders.get(m.machineNo)!.orderNo)) },
    { name: 'dispense', run: wave((m) => dispense(m, orders.get(m.machineNo)!.orderNo)) },
  ]));
  const sum = costs.slice(1).reduce((a, c) => ({ ...a, serverCpuMs: a.serverCpuMs + c.serverCpuMs, pgCpuMs: a.pgCpuMs === undefined || c.pgCpuMs === undefined ? undefined : a.pgCpuMs + c.pgCpuMs,
    statements: a.statements + c.statements, roundTrips: a.roundTrips + c.roundTrips, orderWrites: a.orderWrites + c.orderWrites }), { ...costs[1]!, name: 'the steps together', serverCpuMs: 0, pgCpuMs: 0, statements: 0, roundTrips: 0, orderWrites: 0 });
  costs.push(sum);
}
console.log(`\nWhat a purchase costs, ${server.dbKind}${server.clusterPid ? `, SERVER_WORKERS=${server.workers}` : ''} (per purchase; load ${load()}):\n${costTable(costs, server.dbKind)}`);

// the bare-driver run: the same state changes on the same machines and aisles
const aisleIds = await bare.all<{ aisleId: number; machineNo: string }>('select a."aisleId", m."machineNo" from pay_aisle a join pay_machine m on m."machineId" = a."machineId" order by a."aisleId"');
const machineByNo = new Map(server.machines.map((m) => [m.machineNo, m]));
const aislesOf = new Map<string, number[]>();
for (const a of aisleIds) aislesOf.set(a.machineNo, [...(aislesOf.get(a.machineNo) ?? []), a.aisleId]);
let rawDone = 0;
let rawErrors = 0;
let rawLastError = '';
const rawStart = performance.now();
const rawEnd = rawStart + SECONDS * 1000;
const loops = Math.min(bare.loops, MACHINES); // (a smoke run has fewer machines than the pool has connections)
await Promise.all(Array.from({ length: loops }, async (_, loop) => {
  // loop k uses machines k, k + loops, …: one sale at a time per machine, as the unique index demands
  const mine = server.machines.slice(0, MACHINES).filter((_, i) => i % loops === loop);
  for (let i = 0; performance.now() < rawEnd; i++) {
    const m = mine[i % mine.length]!;
    const aisles = aislesOf.get(m.machineNo)!;
    try {
      await bare.purchase(machineByNo.get(m.machineNo)!, aisles[Math.floor(Math.random() * aisles.length)]!, rawDone);
      rawDone += 1;
    } catch (error) {
      rawErrors += 1;
      rawLastError = error instanceof Error ? error.message : String(error);
    }
  }
}));
const rawSeconds = (performance.now() - rawStart) / 1000;
const rawRate = rawDone / rawSeconds;
console.log(`bare driver: ${rawDone} purchases in ${rawSeconds.toFixed(1)} s = ${rawRate.toFixed(0)}/s (${loops} loop${loops > 1 ? 's' : ''}), ${rawErrors} errors${rawErrors ? ` (${rawLastError})` : ''}; load ${load()}`);

// ---- the recount ----
const problems: string[] = [];
const byStatus = await bare.all<{ orderStatus: number; n: number }>('select "orderStatus", count(*) as n from pay_order group by "orderStatus" order by "orderStatus"');
const counts = new Map(byStatus.map((r) => [Number(r.orderStatus), Number(r.n)]));
const legal = new Set<number>([OrderStatus.created, OrderStatus.processing, OrderStatus.paid, OrderStatus.dispensed, OrderStatus.dispenseFailed, OrderStatus.timedOut]);
for (const [status, n] of counts) if (!legal.has(status)) problems.push(`${n} orders in status ${status}`);
const active = await bare.all<{ machineNo: string; n: number }>(`select "machineNo", count(*) as n from pay_order where "orderStatus" in (1, 2, 10) group by "machineNo" having count(*) > 1`);
if (active.length) problems.push(`${active.length} machines with more than one open sale`);
const inFlight = (counts.get(OrderStatus.created) ?? 0) + (counts.get(OrderStatus.processing) ?? 0) + (counts.get(OrderStatus.paid) ?? 0);
if (inFlight) problems.push(`${inFlight} orders still open after every machine finished`);
if (errors) problems.push(`${errors} purchases failed (the last: ${lastError})`);
const stockAfter = await bare.stockByAisle();
const dispensedByAisle = new Map((await bare.all<{ aisleId: number; n: number }>(`select "aisleId", count(*) as n from pay_order where "orderStatus" = ${OrderStatus.dispensed} group by "aisleId"`)).map((r) => [Number(r.aisleId), Number(r.n)]));
let stockTaken = 0;
let aisleMismatches = 0;
for (const [aisleId, before] of stockBefore) {
  const taken = before - stockAfter.get(aisleId)!;
  stockTaken += taken;
  if (taken !== (dispensedByAisle.get(aisleId) ?? 0)) aisleMismatches += 1;
}
const dispensed = counts.get(OrderStatus.dispensed) ?? 0;
if (aisleMismatches) problems.push(`${aisleMismatches} aisles whose stock moved by other than their dispensed orders`);
if (stockTaken !== dispensed) problems.push(`stock taken ${stockTaken} ≠ dispensed orders ${dispensed}`);
const seen = new Set(seenOrders);
if (seen.size !== seenOrders.length) problems.push(`${seenOrders.length - seen.size} order numbers given twice`);
const found = new Map<string, number>();
for (let i = 0; i < seenOrders.length; i += 5_000) {
  const slice = seenOrders.slice(i, i + 5_000);
  const rows = await bare.all<{ orderNo: string; orderStatus: number }>(`select "orderNo", "orderStatus" from pay_order where "orderNo" in (${slice.map((_, k) => (server.dbKind === 'sqlite' ? '?' : `$${k + 1}`)).join(', ')})`, slice);
  for (const r of rows) found.set(r.orderNo, Number(r.orderStatus));
}
const missing = seenOrders.filter((o) => !found.has(o)).length;
if (missing) problems.push(`${missing} orders a machine was given are not in the database`);
const serverOrders = Number((await bare.all<{ n: number }>(`select count(*) as n from pay_order where "orderNo" like 'T%' and "transId" not like 'RAW%'`))[0]!.n);
if (serverOrders !== seenOrders.length) problems.push(`the database holds ${serverOrders} server-made orders, the machines were given ${seenOrders.length}`);
const httpDispensed = [...found.values()].filter((s) => s === OrderStatus.dispensed).length;
if (httpDispensed + rawDone !== dispensed) problems.push(`dispensed orders ${dispensed} ≠ purchases completed over HTTP and bare (${httpDispensed} + ${rawDone})`);
const simPaid = Number((await bare.all<{ n: number }>(`select count(*) as n from pay_sim_payment where status = 'paid'`))[0]!.n);
if (simPaid !== seenOrders.length) problems.push(`gateway payments ${simPaid} ≠ orders created over HTTP ${seenOrders.length}`);
// the sales rollups (folded every 2 s by the server, as main.ts does) with what is still pending: every order counted once
const [rolled] = await bare.all<{ created: number; paid: number; amount: number }>('select sum("createdCount") as created, sum("paidCount") as paid, sum("paidAmount") as amount from '
  + '(select "createdCount", "paidCount", "paidAmount" from chart_dept_day union all select "createdCount", "paidCount", "paidAmount" from chart_pending) counted');
const [ordered] = await bare.all<{ created: number; paid: number; amount: number }>('select count(*) as created, count("payTime") as paid, coalesce(sum(case when "payTime" is null then 0 else "payAmount" end), 0) as amount from pay_order where "transType" = 1');
const rollupsHold = ['created', 'paid', 'amount'].every((k) => Number(rolled![k as 'paid'] ?? 0) === Number(ordered![k as 'paid']));
if (!rollupsHold) problems.push(`the sales rollups count ${JSON.stringify(rolled)}, the orders ${JSON.stringify(ordered)}`);
const refundNeeded = Number((await bare.all<{ n: number }>('select count(*) as n from pay_order where "refundNeeded" = 1'))[0]!.n);
const alarms = Number((await bare.all<{ n: number }>('select count(*) as n from pay_alarm'))[0]!.n);
if (refundNeeded || alarms) problems.push(`${refundNeeded} orders marked for refund, ${alarms} alarms (none expected: every dispense succeeds)`);
console.log(`\nrecount: orders by status ${[...counts].map(([s, n]) => `${s}: ${n}`).join(', ')}; stock taken ${stockTaken} = dispensed ${dispensed} (per aisle: ${aisleMismatches} mismatches); `
  + `${seenOrders.length} orders given to machines, ${missing} missing, ${seen.size === seenOrders.length ? 'none' : seenOrders.length - seen.size} doubled; gateway payments ${simPaid}; refundNeeded ${refundNeeded}, alarms ${alarms}; `
  + `sales rollups ${rollupsHold ? '=' : '≠'} the orders (${Number(ordered!.created)} created, ${Number(ordered!.paid)} paid)`);
reportRecount(problems);

console.log(`\nTerminal flow, ${MACHINES} machines, ${SECONDS} s a run, ${server.dbKind}; ${os.cpus().length} cores, 1-min load during the HTTP run ${loadsHttp.join(' / ')}`);
console.log('| case | purchases/s | purchases | p50 ms | p95 ms | server CPU ms a purchase | errors |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
console.log(`| HTTP: create → pay on 支付模拟 → notification → status → dispense, signed | ${httpRate.toFixed(0)} | ${purchases} | ${pct(0.5).toFixed(0)} | ${pct(0.95).toFixed(0)} | ${serverCpuMs.toFixed(2)} | ${w.errors} |`);
console.log(`| bare driver: insert, → 10, → 2, → 3 + stock − 1 (${loops} loop${loops > 1 ? 's' : ''}) | ${rawRate.toFixed(0)} | ${rawDone} | | | | ${rawErrors} |`);
console.log(`HTTP/bare ${(httpRate / rawRate).toFixed(2)}×`);

await bare.close();
await backends?.stop();
for (const a of agents.values()) a.destroy();
await server.stop();
fs.rmSync(callsDir, { recursive: true, force: true });
process.exit(problems.length ? 1 : 0);

// ---- the server child ----

async function runServerChild(): Promise<never> {
  const s = await startBenchServer();
  const db = s.ctx.db;
  const count = MACHINES;
  const now = Date.now();
  const deptId = 1;
  const { id: configId } = await db.insertInto('pay_config').values({ deptId, name: '压测-模拟网关', payType: PayType.wechat, gateway: 'simulator', partner: 'SIM-BENCH', appid: 'APP-BENCH', addTime: now, editTime: now })
    .returning('id').executeTakeFirstOrThrow();
  const machines: Machine[] = [];
  for (let i = 1; i <= count; i += 1) {
    const machineNo = `BENCH-${String(i).padStart(4, '0')}`;
    const key = newTerminalKey();
    const { machineId } = await db.insertInto('pay_machine').values({ machineNo, machineName: machineNo, deptId, status: 1, terminalKey: sealTerminalKey(s.ctx.secrets, key), lastSeenAt: null, addTime: now, editTime: now })
      .returning('machineId').executeTakeFirstOrThrow();
    await db.insertInto('pay_aisle').values(AISLES.map((aisleNo, k) => ({
      machineId, aisleNo, layer: k < 4 ? 1 : 2, aisleColumn: (k % 4) + 1, goodsName: '矿泉水', price: PRICE, capacity: CAPACITY, stock: CAPACITY, status: 1, addTime: now, editTime: now,
    }))).execute();
    await db.insertInto('pay_terminal_config').values({ deptId, machineNo, payType: PayType.wechat, configId, configName: '压测', payOpen: 'T', addTime: now, editTime: now }).execute();
    machines.push({ machineNo, machineId, key });
  }
  const workers = Number(process.env.BENCH_SERVER_WORKERS ?? 0);
  const cluster = workers > 0 ? await startMainServer(s.databaseUrl, s.ctx.config.dataDir, workers) : undefined;
  const notifications = cluster ? undefined : await notificationControl(simulatorOf(paymentRuntime(s.ctx).gateways));
  const folding = cluster ? undefined : startRollupFolding(db); // as main.ts does (the cluster's processes fold on their own)
  process.stdout.write(`${JSON.stringify({
    url: cluster?.url ?? s.url, dbKind: s.dbKind, sqliteFile: s.sqliteFile, databaseUrl: s.databaseUrl, machines, configId, deptId, clusterPid: cluster?.pid, workers: cluster ? workers : undefined, notifications: notifications?.url,
  } satisfies Child)}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  notifications?.close();
  await folding?.stop();
  await cluster?.stop();
  await s.close();
  process.exit(0);
}

/** `node server/src/main.ts` with SERVER_WORKERS on the bench's database (its data directory: the same payment key). */
async function startMainServer(databaseUrl: string | undefined, dataDir: string, workers: number): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
  if (!databaseUrl || !redisUrl) throw new Error('BENCH_SERVER_WORKERS needs BENCH_DB=postgres and BENCH_REDIS_URL (or TEST_REDIS_URL)');
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  // (every process counts its statements and round trips: bench/lib/db-calls.ts, imported first; the workers inherit the flag)
  const main = spawn(process.execPath, ['--import', path.resolve(import.meta.dirname, 'lib/db-calls.ts'), path.resolve(import.meta.dirname, '../server/src/main.ts')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, SERVER_WORKERS: String(workers), LOG_LEVEL: 'warn', ADMIN_PASSWORD },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // every worker listening: /healthz answered by as many different processes is not observable, so wait for the count
  for (let i = 0; ; i++) {
    if (main.exitCode !== null) throw new Error(`main.ts exited with ${main.exitCode}`);
    const children = fs.existsSync(`/proc/${main.pid}/task/${main.pid}/children`) ? fs.readFileSync(`/proc/${main.pid}/task/${main.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).length : 0;
    const up = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (up && (workers === 1 || children === workers)) break;
    if (i > 600) throw new Error('main.ts did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000)); // the last workers' listen after their fork
  return {
    url, pid: main.pid!,
    stop: () => new Promise<void>((resolve) => {
      main.once('exit', () => resolve());
      main.kill('SIGTERM');
    }),
  };
}
