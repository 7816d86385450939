// What real phones cost: 100 fake SMSGate phones (tools/fake-phone, speed 0: every step of the phone on the
// next tick) connected through ONE phone bridge process (tools/phone-bridge, the code behind `npm run phone`)
// to the real server in a process of its own, sending one task of BENCH_NUMBERS numbers with no pacing delay
// (the task's interval 0 and the bridge's intervalScale 0). The fakes fail some sends and report some
// undelivered, so the run carries failed reports, retries and both delivery outcomes. Printed: the server's
// CPU per delivered number, the bridge's CPU per message, the PostgreSQL backends' CPU on PostgreSQL, and
// numbers/s; beside them, in the same run and on the same database, the dispatch bench's raw SQL baseline
// (bench/lib/dispatch-baseline.ts) on a second task of as many numbers.
// The recount: by the fakes' books, every number of the task handed to a phone's radio once (a send the radio
// refused is retried by the server, so a number may show failed attempts before its one send; never an attempt
// after it), none missing, nothing in the books the task does not hold; the server's sent, failed, delivered
// and undelivered numbers equal to the books; the task's counters equal to its number rows.
//   npm run bench -- phones            (BENCH_DB=postgres with TEST_DATABASE_URL for PostgreSQL)
// Knobs: BENCH_NUMBERS (20,000), BENCH_PHONES (100), BENCH_FAIL_RATE (0.02), BENCH_UNDELIVERED_RATE (0.05),
// BENCH_WEBHOOKS=1 (the phones post webhooks to the bridge; default: the bridge polls, its default mode),
// BENCH_CPU_PROF=dir (a CPU profile of the bridge process).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { DeliveryState, TaskNumberState, TaskStatus } from '@huiyun/contract';
import { connectDatabase } from '../server/src/db/connect.ts';
import type { Database } from '../server/src/db/schema.ts';
import { seededRandom, startFakePhones, type FakePhones, type PhoneBooks } from '../tools/fake-phone/index.ts';
import { startBridge } from '../tools/phone-bridge/bridge.ts';
import { machineCodeOf } from '../tools/phone-bridge/device-loop.ts';
import type { PhoneSeat } from '../tools/phone-bridge/phones-file.ts';
import type { PhoneStats } from '../tools/phone-bridge/status.ts';
import { fillBenchTask, startChildServer } from './lib/child-server.ts';
import { runBaseline } from './lib/dispatch-baseline.ts';
import { watchBackends } from './lib/pg-backends.ts';
import { cpuSeconds } from './lib/process-cpu.ts';
import { startBenchServer } from './lib/server.ts';
import { benchNumber, expectCount, reportRecount } from './lib/smoke.ts';

const NUMBERS = benchNumber('BENCH_NUMBERS', 20_000, 300);
const PHONES = benchNumber('BENCH_PHONES', 100, 4);
const FAIL_RATE = Number(process.env.BENCH_FAIL_RATE ?? 0.02);
const UNDELIVERED_RATE = Number(process.env.BENCH_UNDELIVERED_RATE ?? 0.05);
const WEBHOOKS = process.env.BENCH_WEBHOOKS === '1';
/** Batches of 100–200 (what an operator might set on a big task); interval 0: no pacing; caps that never bind here. */
const TASK = { batchSendNum: 100, batchSendMaxNum: 200, singleSendNumDay: 1_000_000, intervalSeconds: 0, content: '【汇云】您好，新品到店，欢迎光临。回复TD退订' };
const QUOTA = 2_000_000;
const OWNER_ID = 1;
/** The bridge's machineCodes all start so (machineCodeOf): the baseline charges its sends to those devices. */
const MACHINE_PREFIX = 'smsgate';
/** How often the end of the run is looked for. */
const WATCH_MS = 200;

type ServerInfo = { url: string; dbKind: 'sqlite' | 'postgres'; sqliteFile?: string; databaseUrl?: string; taskId: number; baselineTaskId: number; codes: string[] };
type BridgeSetup = { server: string; seats: PhoneSeat[]; stateDir: string; webhooks: boolean };

async function main(): Promise<void> {
  // The phones first: their device ids make the machineCodes the task is assigned to.
  const fleet = await startFakePhones({ phones: PHONES, speed: 0, failRate: FAIL_RATE, undeliveredRate: UNDELIVERED_RATE, random: seededRandom(43) });
  const machineCodes = fleet.phones.map((p) => machineCodeOf(p.deviceId, 1));
  console.log(`Filling two tasks with ${NUMBERS.toLocaleString('en-US')} numbers each (one for the phones, one for the baseline)…`);
  const server = await startChildServer<ServerInfo>(import.meta.filename, [], { BENCH_MACHINE_CODES: machineCodes.join(',') });
  const db = server.dbKind === 'postgres'
    ? connectDatabase({ kind: 'postgres', url: server.databaseUrl! })
    : connectDatabase({ kind: 'sqlite', file: server.sqliteFile! });
  const backends = server.databaseUrl ? await watchBackends(server.databaseUrl) : undefined;
  console.log(`${server.dbKind}; ${PHONES} fake phones (speed 0, fail ${FAIL_RATE}, undelivered ${UNDELIVERED_RATE}) through one bridge process `
    + `(${WEBHOOKS ? 'webhooks' : 'polling'}, intervalScale 0); task: batches ${TASK.batchSendNum}–${TASK.batchSendMaxNum}, intervalSeconds ${TASK.intervalSeconds}`);
  const loadBefore = os.loadavg();

  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-bench-bridge-'));
  const seats: PhoneSeat[] = fleet.phones.map((p, i) => ({ code: server.codes[i]!, url: p.url, user: p.user, password: p.password, sim: 1, name: `bench-phone-${i + 1}` }));
  const bridge = startBridgeChild({ server: server.url, seats, stateDir, webhooks: WEBHOOKS });
  // From the moment the bridge's code is loaded and its devices start (activation is part of the run).
  await bridge.ready;
  const bridgeCpuBefore = cpuSeconds(bridge.pid);
  const serverCpuBefore = cpuSeconds(server.pid);
  const databaseCpuBefore = (await backends?.cpu()) ?? 0;
  const phonesCpuBefore = process.cpuUsage();
  const started = performance.now();

  // The end: every number final (sent or failed) and every sent one's delivery outcome counted on the task.
  let finalAt = 0;
  let progressAt = started;
  for (;;) {
    if (bridge.exited) throw new Error('the bridge process ended before the task was done');
    const task = await db.selectFrom('sync_task').select(['taskStatus', 'totalSendNum', 'failNum', 'deliveredNum', 'undeliveredNum'])
      .where('taskId', '=', server.taskId).executeTakeFirstOrThrow();
    const now = performance.now();
    if (!finalAt && task.taskStatus === TaskStatus.completed) finalAt = now;
    if (finalAt && task.deliveredNum + task.undeliveredNum >= task.totalSendNum) break;
    if (now - progressAt > 5000) {
      progressAt = now;
      console.log(`  ${((now - started) / 1000).toFixed(0)} s: sent ${task.totalSendNum}, failed ${task.failNum}, delivered ${task.deliveredNum}, undelivered ${task.undeliveredNum}`);
    }
    await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
  }
  const doneAt = performance.now();
  const serverCpu = cpuSeconds(server.pid) - serverCpuBefore;
  const bridgeCpu = cpuSeconds(bridge.pid) - bridgeCpuBefore;
  const databaseCpu = ((await backends?.cpu()) ?? 0) - databaseCpuBefore;
  const phonesCpuUsage = process.cpuUsage(phonesCpuBefore);
  const phonesCpu = (phonesCpuUsage.user + phonesCpuUsage.system) / 1e6;
  const loadAfter = os.loadavg();
  const stats = await bridge.stop();
  await fleet.whenIdle();
  const check = await recount(db, server.taskId, fleet, server.codes);
  await fleet.stop();
  fs.rmSync(stateDir, { recursive: true, force: true });

  console.log('Baseline: the dispatch bench\'s state changes in raw SQL…');
  const baselineDatabaseBefore = (await backends?.cpu()) ?? 0;
  const baselineCpuBefore = process.cpuUsage();
  const baseline = await runBaseline(server, server.baselineTaskId, { ...TASK, reportEvery: 0, machinePrefix: MACHINE_PREFIX });
  const baselineCpuUsage = process.cpuUsage(baselineCpuBefore);
  const baselineCpu = (baselineCpuUsage.user + baselineCpuUsage.system) / 1e6;
  const baselineDatabaseCpu = ((await backends?.cpu()) ?? 0) - baselineDatabaseBefore;
  await backends?.stop();
  await db.destroy();
  await server.stop();

  const finalSeconds = (finalAt - started) / 1000;
  const allSeconds = (doneAt - started) / 1000;
  const ms = (seconds: number, count: number) => (count ? ((seconds * 1000) / count).toFixed(2) : '–');
  const postgres = server.dbKind === 'postgres';
  const b = check.books;
  console.log(`\nPhones through the bridge: a task of ${NUMBERS.toLocaleString('en-US')} numbers, ${PHONES} fake phones, one bridge, ${server.dbKind}`);
  console.log(`| case | numbers | seconds (all final / all delivery outcomes) | numbers/s | server CPU ms per delivered number | bridge CPU ms per message |${postgres ? ' PostgreSQL backends CPU ms per number |' : ''}`);
  console.log(`|---|---:|---:|---:|---:|---:|${postgres ? '---:|' : ''}`);
  console.log(`| phones through the bridge (${b.accepted} messages, ${b.sent} sent, ${b.delivered} delivered, ${b.undelivered} undelivered, ${b.sendFailed} refused sends; ${stats.reduce((n, s) => n + s.batches, 0)} batches) `
    + `| ${NUMBERS} | ${finalSeconds.toFixed(1)} / ${allSeconds.toFixed(1)} | ${(NUMBERS / finalSeconds).toFixed(0)} | ${ms(serverCpu, b.delivered)} | ${ms(bridgeCpu, b.accepted)} |`
    + `${postgres ? ` ${ms(databaseCpu, NUMBERS)} |` : ''}`);
  console.log(`| baseline: raw SQL loop, ${baseline.label} (${baseline.batches} batches; CPU: the loop's process) | ${baseline.numbers} | ${baseline.seconds.toFixed(1)} | `
    + `${(baseline.numbers / baseline.seconds).toFixed(0)} | ${ms(baselineCpu, baseline.numbers)} (per number sent) | |${postgres ? ` ${ms(baselineDatabaseCpu, baseline.numbers)} |` : ''}`);
  console.log(`\nCPU over the phones' run (${allSeconds.toFixed(1)} s): server ${serverCpu.toFixed(1)} s (${((serverCpu / allSeconds) * 100).toFixed(0)}% of one core; `
    + `${ms(serverCpu, NUMBERS)} ms per number of the task), bridge ${bridgeCpu.toFixed(1)} s (${((bridgeCpu / allSeconds) * 100).toFixed(0)}%)`
    + `${postgres ? `, PostgreSQL backends ${databaseCpu.toFixed(1)} s` : ''}, the fake phones (this process, with the watch for the end) ${phonesCpu.toFixed(1)} s `
    + `(${((phonesCpu / allSeconds) * 100).toFixed(0)}%, ${ms(phonesCpu, NUMBERS)} ms per number): numbers/s is bounded by whichever of them the machine starves, not by the server.`);
  console.log(`machine load (1/5/15 min) before ${loadBefore.map((l) => l.toFixed(2)).join(', ')}, after the phones' run ${loadAfter.map((l) => l.toFixed(2)).join(', ')} on ${os.cpus().length} CPUs`);
  console.log(`\nrecount: ${check.text}`);
  reportRecount(check.problems);
}

/**
 * By the fakes' books and the task's rows: each number handed to a radio once at most after any refused
 * attempts, none missing; the server's outcomes and the task's counters equal to them.
 */
async function recount(kdb: Kysely<Database>, taskId: number, fleet: FakePhones, codes: string[]) {
  const problems: string[] = [];
  const books = fleet.summary();
  const entries = fleet.phones.flatMap((p: { books: PhoneBooks }) => p.books.sends).sort((x, y) => x.at - y.at);
  // the radio took it: sent, delivered, or reported undelivered by the carrier after it was sent
  const tookIt = (e: (typeof entries)[number]) => e.state === 'Sent' || e.state === 'Delivered' || (e.state === 'Failed' && (e.error ?? '').startsWith('Delivery result'));
  const perNumber = new Map<string, { refused: number; sent: number; afterSent: number }>();
  for (const e of entries) {
    let n = perNumber.get(e.recipient);
    if (!n) perNumber.set(e.recipient, (n = { refused: 0, sent: 0, afterSent: 0 }));
    if (n.sent > 0) n.afterSent += 1;
    if (tookIt(e)) n.sent += 1;
    else if (e.state === 'Failed') n.refused += 1;
  }
  const rows = await kdb.selectFrom('sync_task_number').select(['phone', 'state', 'deliveryState', 'attempts']).where('taskId', '=', taskId).execute();
  const count = (test: (r: (typeof rows)[number]) => boolean) => rows.filter(test).length;
  const taskPhones = new Set(rows.map((r) => String(r.phone)));
  const twice = [...perNumber].filter(([, n]) => n.sent > 1 || n.afterSent > 0).map(([phone]) => phone);
  const missing = [...taskPhones].filter((phone) => !perNumber.has(phone));
  const stray = [...perNumber.keys()].filter((phone) => !taskPhones.has(phone));
  const sentOnce = [...perNumber.values()].filter((n) => n.sent === 1).length;
  const neverSent = [...perNumber.values()].filter((n) => n.sent === 0).length;
  if (twice.length) problems.push(`numbers sent twice by the books: ${twice.length} (${twice.slice(0, 5).join(', ')})`);
  if (missing.length) problems.push(`numbers never handed to a phone: ${missing.length} (${missing.slice(0, 5).join(', ')})`);
  if (stray.length) problems.push(`numbers in the books the task does not hold: ${stray.length}`);
  expectCount(problems, 'messages still in a phone', books.pending, 0);
  expectCount(problems, 'numbers left pending or leased', count((r) => r.state === TaskNumberState.pending || r.state === TaskNumberState.leased), 0);
  expectCount(problems, 'rows sent (numbers the books sent once)', count((r) => r.state === TaskNumberState.sent), sentOnce);
  expectCount(problems, 'rows failed (numbers every phone refused)', count((r) => r.state === TaskNumberState.failed), neverSent);
  expectCount(problems, 'rows delivered (the books\' Delivered)', count((r) => r.deliveryState === DeliveryState.delivered), books.delivered);
  expectCount(problems, 'rows undelivered (the books\' undelivered)', count((r) => r.deliveryState === DeliveryState.undelivered), books.undelivered);
  expectCount(problems, 'rows sent (the books\' sent)', count((r) => r.state === TaskNumberState.sent), books.sent);
  const task = await kdb.selectFrom('sync_task').select(['taskStatus', 'totalSendNum', 'failNum', 'deliveredNum', 'undeliveredNum']).where('taskId', '=', taskId).executeTakeFirstOrThrow();
  expectCount(problems, 'task status', task.taskStatus, TaskStatus.completed);
  expectCount(problems, 'task totalSendNum', task.totalSendNum, count((r) => r.state === TaskNumberState.sent));
  expectCount(problems, 'task failNum', task.failNum, count((r) => r.state === TaskNumberState.failed));
  expectCount(problems, 'task deliveredNum', task.deliveredNum, count((r) => r.deliveryState === DeliveryState.delivered));
  expectCount(problems, 'task undeliveredNum', task.undeliveredNum, count((r) => r.deliveryState === DeliveryState.undelivered));
  const quota = await kdb.selectFrom('sync_auth_code').select((eb) => eb.fn.sum<number | string>('dueNum').as('left')).where('authCode', 'in', codes).executeTakeFirstOrThrow();
  expectCount(problems, 'quota used', codes.length * QUOTA - Number(quota.left), count((r) => r.state === TaskNumberState.sent));
  const text = `books: ${books.accepted} messages, ${books.numbers} numbers, sent ${books.sent} (delivered ${books.delivered}, undelivered ${books.undelivered}), `
    + `refused sends ${books.sendFailed}, 409s ${books.conflicts}, twice ${twice.length}, missing ${missing.length}; rows: sent ${count((r) => r.state === TaskNumberState.sent)}, `
    + `failed ${count((r) => r.state === TaskNumberState.failed)}, delivered ${count((r) => r.deliveryState === DeliveryState.delivered)}, `
    + `undelivered ${count((r) => r.deliveryState === DeliveryState.undelivered)}; task: status ${task.taskStatus}, sent ${task.totalSendNum}, failed ${task.failNum}, `
    + `delivered ${task.deliveredNum}, undelivered ${task.undeliveredNum}`;
  return { problems, text, books };
}

/** The bridge in a process of its own (this file with BENCH_CHILD=bridge), so its CPU is its own. */
function startBridgeChild(setup: BridgeSetup) {
  // BENCH_CPU_PROF=dir: the bridge's --cpu-prof, written there when it exits
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, import.meta.filename], {
    env: { ...process.env, BENCH_CHILD: 'bridge', BENCH_BRIDGE: JSON.stringify(setup) }, stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith('ready\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the bridge exited (${code}) before it started`)));
  });
  const handle = {
    pid: child.pid!,
    ready,
    exited: false,
    /** Stops it cleanly and answers its devices' stats. */
    stop: () => new Promise<PhoneStats[]>((resolve, reject) => {
      child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as PhoneStats[]) : reject(new Error(`the bridge exited ${code}`))));
      child.stdin.end();
    }),
  };
  child.once('exit', () => (handle.exited = true));
  return handle;
}

async function runBridgeChild(): Promise<void> {
  const setup = JSON.parse(process.env.BENCH_BRIDGE!) as BridgeSetup;
  const bridge = await startBridge({
    server: setup.server, phones: setup.seats, stateDir: setup.stateDir,
    ...(setup.webhooks ? { webhook: { url: 'http://127.0.0.1:0/hooks', host: '127.0.0.1', port: 0 } } : {}),
    // No pacing: the task's interval is 0 and not scaled up; a wait answer is looked at again after 1 s.
    timing: { intervalScale: 0, waitFloorMs: 1000 },
    log: (line) => console.error(`bridge: ${line}`),
  });
  process.stdout.write('ready\n');
  process.stdin.resume();
  process.stdin.once('end', () => bridge.stop());
  const stats = await bridge.done;
  process.stdout.write(`${JSON.stringify(stats)}\n`);
  process.exit(0);
}

/**
 * The bench server in a child process (this file run with BENCH_CHILD=server): two tasks filled through the
 * upload path's own import, one code per phone, the first task assigned to the phones' machineCodes
 * (BENCH_MACHINE_CODES, from the parent's fakes).
 */
async function runServerChild(): Promise<void> {
  const bench = await startBenchServer();
  const kdb = bench.ctx.db;
  const fill = (name: string, seed: number) => fillBenchTask(bench.ctx, name, TASK, NUMBERS, seed);
  const taskId = await fill('bench-phones', 5);
  const baselineTaskId = await fill('bench-phones-baseline', 6);
  const machineCodes = process.env.BENCH_MACHINE_CODES!.split(',');
  const now = Date.now();
  const codes = machineCodes.map((_, i) => `PHONE-${String(i + 1).padStart(4, '0')}`);
  await kdb.insertInto('sync_auth_code').values(codes.map((authCode) => ({
    authCode, authUserId: OWNER_ID, dueNum: QUOTA, dueDateNum: 30, dueDate: now + 30 * 86_400_000, addUserId: OWNER_ID, deptId: 1, addTime: now, editTime: now,
  }))).execute();
  await kdb.insertInto('sync_task_device').values(machineCodes.map((machineCode) => ({ taskId, machineCode }))).execute();
  process.stdout.write(`${JSON.stringify({ url: bench.url, dbKind: bench.dbKind, sqliteFile: bench.sqliteFile, databaseUrl: bench.databaseUrl, taskId, baselineTaskId, codes } satisfies ServerInfo)}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  await bench.close();
  process.exit(0);
}

if (process.env.BENCH_CHILD === 'server') await runServerChild();
else if (process.env.BENCH_CHILD === 'bridge') await runBridgeChild();
else await main();
