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
//   is that of all its processes; BENCH_LOAD_PROCESSES=N: the machines and customers run in N processes of
//   their own, bench/lib/terminal-load-child.ts, so that the load generator is not the cap on a larger machine;
//   BENCH_SETUP_SQL='…; …': statements run on the bench's database before the run, for an experiment)
// Beside purchases a second and server CPU, it prints what a purchase costs: the server's CPU, the CPU of
// the PostgreSQL backends serving the bench's database (bench/lib/pg-backends.ts), the statements and round
// trips the server sent (bench/lib/db-calls.ts, counted in each server process) — for the whole purchase in
// the window, and for each step (create, pay, notification, status, dispense) measured apart afterwards,
// every machine making the step at once (bench/lib/terminal-steps.ts; not with BENCH_SERVER_WORKERS).
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import os from 'node:os';
import { sql } from 'kysely';
import { OrderStatus, PayType } from '@huiyun/contract';
import { startChildServer } from './lib/child-server.ts';
import { cpuSeconds } from './lib/process-cpu.ts';
import { ADMIN_PASSWORD, databaseTransport, startBenchServer } from './lib/server.ts';
import { benchNumber, reportRecount } from './lib/smoke.ts';
import { newTerminalKey, sealTerminalKey } from '../server/src/modules/pay/machines/index.ts';
import { openBare } from './lib/terminal-bare.ts';
import { readDbCalls } from './lib/db-calls.ts';
import { notificationControl } from './lib/held-notifications.ts';
import { watchBackends } from './lib/pg-backends.ts';
import { costBetween, costTable, measureSteps, type Cost, type Reading } from './lib/terminal-steps.ts';
import { machineFleet, type Created, type FleetOptions, type FleetResult, type Machine, type StepName } from './lib/terminal-machines.ts';
import type { LoadGo, LoadStart } from './lib/terminal-load-child.ts';

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
/** Processes the machines and customers run in (1: this one); a larger machine needs more than one to load it. */
const LOAD_PROCESSES = benchNumber('BENCH_LOAD_PROCESSES', 1, 1);

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
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`terminal flow on ${server.dbKind}${server.databaseUrl ? ` (${databaseTransport(server.databaseUrl)})` : ''}: ${MACHINES} machines${RATE ? `, ${RATE} purchases begun a second (BENCH_RATE)` : ''}, ${SECONDS} s; ${os.cpus().length} cores, load before ${load()}`
  + (server.clusterPid ? `; server: main.ts with SERVER_WORKERS=${server.workers} (pid ${server.clusterPid})` : ''));

// ---- the machines and their customers, over HTTP: in this process, or in BENCH_LOAD_PROCESSES load processes ----

const fleetOptions: FleetOptions = { url: server.url, aisles: AISLES, rate: RATE / LOAD_PROCESSES, warmupSeconds: WARMUP };
const machines = machineFleet({ ...fleetOptions, rate: RATE }); // this process's: the run when it is the only one, then the steps
const fleet = server.machines.slice(0, MACHINES);
const connectStart = performance.now();
const loaders = LOAD_PROCESSES > 1 ? await startLoadProcesses(fleet) : [];
if (!loaders.length) await machines.connect(fleet);
console.log(`${fleet.length} machines and their customers connected in ${((performance.now() - connectStart) / 1000).toFixed(1)} s${loaders.length ? ` by ${loaders.length} load processes (BENCH_LOAD_PROCESSES)` : ''}`);

const bare = await openBare({ ...server, aisles: AISLES, price: PRICE });
const stockBefore = await bare.stockByAisle();

// The machines run without a pause for WARMUP + SECONDS; the figures are of the last SECONDS (a window
// in steady state): purchases completed in it, CPU used in it. Purchases under way at its end are
// finished afterwards (and recounted) but not counted.
const loadsHttp: string[] = [];
const loadTimer = setInterval(() => loadsHttp.push(os.loadavg()[0]!.toFixed(2)), 5_000);
const end = Date.now() + (WARMUP + SECONDS) * 1000;
/** CPU of the machines and customers: this process and the load processes. */
const loadCpu = () => {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6 + loaders.reduce((sum, l) => sum + cpuSeconds(l.pid), 0);
};
type Snapshot = { at: number; read: Reading; serverCpu: number; loadCpu: number };
const snapshot = async (): Promise<Snapshot> => {
  const at = Date.now();
  const read = await reading();
  return { at, read, serverCpu: read.serverCpu, loadCpu: loadCpu() };
};
const after = (seconds: number) => new Promise<Snapshot>((resolve) => setTimeout(() => resolve(snapshot()), seconds * 1000));
const windowStart = after(WARMUP);
const windowEnd = after(WARMUP + SECONDS);
const runs = loaders.length ? await Promise.all(loaders.map((l) => l.run(end))) : [await machines.run(fleet, end)];
const drainSeconds = (Date.now() - end) / 1000;
clearInterval(loadTimer);
const [w0, w1] = [await windowStart, await windowEnd];
const records = runs.flatMap((r) => r.purchases);
const failures = runs.flatMap((r) => r.errors);
const errors = failures.length;
const lastError = failures.at(-1)?.message ?? '';
const inWindow = records.filter((r) => r.end >= w0.at && r.end < w1.at);
const w = {
  purchases: inWindow.length, seconds: (w1.at - w0.at) / 1000, serverCpu: w1.serverCpu - w0.serverCpu, loadCpu: w1.loadCpu - w0.loadCpu,
  errors: failures.filter((e) => e.end >= w0.at && e.end < w1.at).length,
  steps: (['create', 'pay', 'untilPaid', 'dispense'] as const).reduce((sum, k) => ({ ...sum, [k]: inWindow.reduce((a, r) => a + r.steps[k], 0) }), { statusCalls: inWindow.reduce((a, r) => a + r.statusCalls, 0) } as Record<StepName | 'statusCalls', number>),
};
const slowest = Object.fromEntries((['create', 'pay', 'untilPaid', 'dispense'] as const).map((k) => [k, Math.max(0, ...records.map((r) => r.steps[k]))]));
const purchases = w.purchases;
const latencies = inWindow.map((r) => r.latency).sort((a, b) => a - b);
const httpRate = purchases / w.seconds;
const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
console.log(`HTTP: ${purchases} purchases completed in ${w.seconds.toFixed(1)} s = ${httpRate.toFixed(0)}/s, p50 ${pct(0.5).toFixed(0)} ms, p95 ${pct(0.95).toFixed(0)} ms a purchase, ${w.errors} errors in the window, ${errors} in all${errors ? ` (${lastError})` : ''}; `
  + `the ones under way at the end finished ${drainSeconds.toFixed(1)} s later`);
const serverCpuMs = (w.serverCpu * 1000) / Math.max(1, purchases);
console.log(`  CPU in the window: server ${w.serverCpu.toFixed(1)} s (${(w.serverCpu / w.seconds * 100).toFixed(0)} % of a core, ${serverCpuMs.toFixed(2)} ms a purchase: one core would carry ${(1000 / serverCpuMs).toFixed(0)}/s), `
  + `machines + customers (${loaders.length ? `${loaders.length} load processes and this one` : 'this process'}) ${w.loadCpu.toFixed(1)} s (${(w.loadCpu / w.seconds * 100).toFixed(0)} %); load ${loadsHttp.join(' / ')}`);
const per = (ms: number) => (ms / Math.max(1, purchases)).toFixed(0);
console.log(`  a purchase's steps on average: create ${per(w.steps.create)} ms, pay ${per(w.steps.pay)} ms, until paid ${per(w.steps.untilPaid)} ms (${(w.steps.statusCalls / Math.max(1, purchases)).toFixed(2)} status calls), dispense ${per(w.steps.dispense)} ms; `
  + `slowest of the whole run: ${Object.entries(slowest).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(', ')}; p99 ${pct(0.99).toFixed(0)} ms, slowest purchase ${pct(1).toFixed(0)} ms`);

/** The server's processes: the bench's child, or main.ts and its workers (read anew: a worker may be replaced). */
function serverPids(): number[] {
  if (!server.clusterPid) return [server.pid];
  const children = fs.readFileSync(`/proc/${server.clusterPid}/task/${server.clusterPid}/children`, 'utf8').trim();
  return [server.clusterPid, ...(children ? children.split(/\s+/).map(Number) : [])];
}

/** BENCH_LOAD_PROCESSES load processes, each with its share of the machines, connected and waiting for the start. */
async function startLoadProcesses(all: Machine[]): Promise<{ pid: number; run: (endAt: number) => Promise<FleetResult> }[]> {
  const slices = Array.from({ length: LOAD_PROCESSES }, (_, k) => all.filter((_, i) => i % LOAD_PROCESSES === k)).filter((slice) => slice.length > 0);
  return Promise.all(slices.map(async (slice) => {
    const child = fork(path.join(import.meta.dirname, 'lib/terminal-load-child.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const next = () => new Promise<{ type: string; result?: FleetResult }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as { type: string; result?: FleetResult }));
      child.once('exit', (code) => reject(new Error(`a load process ended (${code})`)));
    });
    const connected = next();
    child.send({ ...fleetOptions, machines: slice } satisfies LoadStart);
    await connected;
    return {
      pid: child.pid!,
      run: async (endAt: number) => {
        const done = next();
        child.send({ endAt } satisfies LoadGo);
        return (await done).result!;
      },
    };
  }));
}

// let the last notifications (and their 5 % duplicates) land before the steps and the baseline write
await new Promise((resolve) => setTimeout(resolve, 1_000));

// What a purchase costs: in the window (everything at once, as it runs), and step by step, every machine
// making one step at once, the paid notifications held back until their own step.
const costs: Cost[] = [costBetween(`whole purchase (the window, ${w.seconds.toFixed(0)} s)`, w0.read, w1.read, purchases)];
if (server.notifications) {
  const fleetNow = server.machines.slice(0, MACHINES);
  if (loaders.length) await machines.connect(fleetNow);
  const { create, pay, untilPaid, dispense } = machines;
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
// every order a machine was given: in the run (this process's or the load processes') and in the steps (this process's)
const seenOrders = [...(loaders.length ? runs.flatMap((r) => r.seenOrders) : []), ...machines.result.seenOrders];
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
machines.close();
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
  // BENCH_SETUP_SQL: statements (separated by ';') run on the bench's database before the run, for an
  // experiment (e.g. without the rollup triggers, or without an index) measured by the same command
  for (const statement of (process.env.BENCH_SETUP_SQL ?? '').split(';').map((x) => x.trim()).filter(Boolean)) await sql.raw(statement).execute(db);
  const workers = Number(process.env.BENCH_SERVER_WORKERS ?? 0);
  const cluster = workers > 0 ? await startMainServer(s.databaseUrl, s.ctx.config.dataDir, workers) : undefined;
  const notifications = cluster ? undefined : await notificationControl(s.payments.simulated);
  // (the sales rollups are folded by the listening server's own payments service, as in production)
  process.stdout.write(`${JSON.stringify({
    url: cluster?.url ?? s.url, dbKind: s.dbKind, sqliteFile: s.sqliteFile, databaseUrl: s.databaseUrl, machines, configId, deptId, clusterPid: cluster?.pid, workers: cluster ? workers : undefined, notifications: notifications?.url,
  } satisfies Child)}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  notifications?.close();
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
