// The sending engine's benchmark: 500 simulated devices (tools/device-simulator, the code behind
// `npm run device`) send a task of 1,000,000 numbers to the end over loopback HTTP, at unlimited speed
// (no interval between messages), against the real server in a child process, so client and server
// do not share an event loop. Beside it, in the same run and on the same database, the baseline
// (bench/lib/dispatch-baseline.ts): a raw SQL loop making the same state changes without HTTP — claim a
// batch as the server's fresh claim does, mark the numbers sent, bump the same counters — in transactions
// of the same sizes.
//   npm run bench -- dispatch          (BENCH_DB=postgres with TEST_DATABASE_URL for PostgreSQL)
// Knobs: BENCH_NUMBERS (1,000,000), BENCH_DEVICES (500), BENCH_REPORT_EVERY (results per report, 0 = one
// report per batch), BENCH_FAIL_RATE (0), BENCH_PROFILE=1 (CPU profile of the server during the run).
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { TaskNumberState } from '@huiyun/contract';
import { connectDatabase } from '../server/src/db/connect.ts';
import type { Database } from '../server/src/db/schema.ts';
import { formatProgress, RateMeter } from '../tools/device-simulator/progress.ts';
import { startDevices } from '../tools/device-simulator/run-devices.ts';
import { percentile, type FleetStats } from '../tools/device-simulator/stats.ts';
import { fillBenchTask, startChildServer } from './lib/child-server.ts';
import { runBaseline } from './lib/dispatch-baseline.ts';
import { cpuSeconds, postgresCpuSeconds } from './lib/process-cpu.ts';
import { readRss, resetPeakRss } from './lib/rss.ts';
import { startBenchServer } from './lib/server.ts';
import { benchNumber, reportRecount } from './lib/smoke.ts';

const NUMBERS = benchNumber('BENCH_NUMBERS', 1_000_000, 2_000);
const DEVICES = benchNumber('BENCH_DEVICES', 500, 5);
const REPORT_EVERY = Number(process.env.BENCH_REPORT_EVERY ?? 0);
const FAIL_RATE = Number(process.env.BENCH_FAIL_RATE ?? 0);
const DUPLICATE_RATE = 0.01;
/** What an operator might set on a big task: batches of 100–200, caps that never bind here. */
const TASK = { batchSendNum: 100, batchSendMaxNum: 200, singleSendNumDay: 1_000_000, intervalSeconds: 3 };
const QUOTA = 2_000_000;
const MACHINE_PREFIX = 'bench';
const OWNER_ID = 1;

type ServerInfo = { url: string; dbKind: 'sqlite' | 'postgres'; sqliteFile?: string; databaseUrl?: string; taskId: number; baselineTaskId: number; codes: string[] };

async function main(): Promise<void> {
  console.log(`Filling two tasks with ${NUMBERS.toLocaleString('en-US')} numbers each (one for the devices, one for the baseline)…`);
  const server = await startChildServer<ServerInfo>(import.meta.filename, ['--expose-gc']);
  const db = server.dbKind === 'postgres'
    ? connectDatabase({ kind: 'postgres', url: server.databaseUrl! })
    : connectDatabase({ kind: 'sqlite', file: server.sqliteFile! });
  const reportEveryText = REPORT_EVERY > 0 ? `every ${REPORT_EVERY} results` : 'once per batch';
  console.log(`${server.dbKind}; ${DEVICES} devices, speed max, report ${reportEveryText}, fail rate ${FAIL_RATE}, duplicate reports ${DUPLICATE_RATE}, no late reports`);
  console.log(`task: batchSendNum ${TASK.batchSendNum}, batchSendMaxNum ${TASK.batchSendMaxNum}, singleSendNumDay ${TASK.singleSendNumDay}, intervalSeconds ${TASK.intervalSeconds} (not waited), code quota ${QUOTA}`);
  const loadBefore = os.loadavg();

  const rssBefore = readRss(server.pid, 'VmRSS');
  resetPeakRss(server.pid);
  if (process.env.BENCH_PROFILE === '1') process.kill(server.pid, 'SIGUSR2');
  const serverCpuBefore = cpuSeconds(server.pid);
  const databaseCpuBefore = postgresCpuSeconds();
  const clientCpuBefore = process.cpuUsage();
  const started = performance.now();
  const fleet = startDevices({
    server: server.url, codes: server.codes, machinePrefix: MACHINE_PREFIX, speed: Infinity, failRate: FAIL_RATE, duplicateRate: DUPLICATE_RATE,
    lateRate: 0, reportEvery: REPORT_EVERY, untilIdle: true, idleMs: 1000, waitFloorMs: 1000,
  });
  // The end is when the last number became final, not when the devices noticed there was no more work.
  let lastApplied = { count: 0, at: started };
  const watch = setInterval(() => {
    const count = fleet.stats.sent + fleet.stats.failed;
    if (count !== lastApplied.count) lastApplied = { count, at: performance.now() };
  }, 10);
  const meter = new RateMeter(fleet.stats);
  const progress = setInterval(() => console.log(`  ${formatProgress(fleet.stats, meter.sample(fleet.stats))}`), 5000);
  const stats = await fleet.done;
  clearInterval(watch);
  clearInterval(progress);
  const seconds = (lastApplied.at - started) / 1000;
  const runSeconds = (performance.now() - started) / 1000;
  const serverCpu = cpuSeconds(server.pid) - serverCpuBefore;
  const databaseCpu = postgresCpuSeconds() - databaseCpuBefore;
  const clientCpuUsage = process.cpuUsage(clientCpuBefore);
  const clientCpu = (clientCpuUsage.user + clientCpuUsage.system) / 1e6;
  const peakRss = readRss(server.pid, 'VmHWM');
  const loadDuring = os.loadavg();
  const check = await recount(db, server.taskId, stats);

  console.log('Baseline: the same state changes in raw SQL…');
  const baselineDatabaseCpuBefore = postgresCpuSeconds();
  const baseline = await runBaseline(server, server.baselineTaskId, { ...TASK, reportEvery: REPORT_EVERY, machinePrefix: MACHINE_PREFIX });
  const baselineDatabaseCpu = postgresCpuSeconds() - baselineDatabaseCpuBefore;
  await db.destroy();
  await server.stop();

  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const ms = (values: number[]) => `${percentile(values, 0.5).toFixed(1)} / ${percentile(values, 0.95).toFixed(1)}`;
  console.log(`\nDispatch, a task of ${NUMBERS.toLocaleString('en-US')} numbers, ${DEVICES} devices, ${server.dbKind}`);
  console.log('| case | seconds | numbers/s | pull p50 / p95 ms | report p50 / p95 ms | duplicates | lost | server peak RSS MB (before) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  console.log(`| devices over HTTP (${stats.batches} batches, ${stats.reports} reports) | ${seconds.toFixed(1)} | ${(check.final / seconds).toFixed(0)} | ${ms(stats.pullMs)} | ${ms(stats.reportMs)} | ${check.duplicates} | ${check.lost} | ${mb(peakRss)} (${mb(rssBefore)}) |`);
  console.log(`| baseline: raw SQL loop, ${baseline.label} (${baseline.batches} batches, ${baseline.reports} report transactions) | ${baseline.seconds.toFixed(1)} | ${(baseline.numbers / baseline.seconds).toFixed(0)} | | | | | |`);
  console.log(`\nrecount: ${check.text}`);
  reportRecount([...(check.duplicates ? [`${check.duplicates} numbers counted twice`] : []), ...(check.lost ? [`${check.lost} numbers lost`] : []),
    ...(check.final === NUMBERS ? [] : [`${check.final} numbers final of ${NUMBERS}`])]);
  console.log(`client: sent ${stats.sent}, failed ${stats.failed}, retried ${stats.retrying}, ignored ${stats.ignored}, repeats applied twice ${stats.duplicatesApplied}, `
    + `retried calls ${stats.retries}, refusals ${stats.errors}${stats.lastError ? ` (${stats.lastError})` : ''}`);
  console.log(`CPU during the device run (${runSeconds.toFixed(1)} s, idle end included): server ${serverCpu.toFixed(1)} s (${((serverCpu / runSeconds) * 100).toFixed(0)}% of one core), `
    + `devices ${clientCpu.toFixed(1)} s (${((clientCpu / runSeconds) * 100).toFixed(0)}%)`
    + (server.dbKind === 'postgres'
      ? `, PostgreSQL processes ${databaseCpu.toFixed(1)} s (${((databaseCpu / runSeconds) * 100).toFixed(0)}%); baseline: PostgreSQL processes ${baselineDatabaseCpu.toFixed(1)} s`
      : ''));
  console.log(`ratio HTTP / baseline: ${(seconds / baseline.seconds).toFixed(2)}×; machine load (1/5/15 min) before ${loadBefore.map((l) => l.toFixed(2)).join(', ')}, `
    + `after the HTTP run ${loadDuring.map((l) => l.toFixed(2)).join(', ')} on ${os.cpus().length} CPUs`);
}

/**
 * Every number final once: no row left pending or leased, and every counter of what was sent — the
 * task's, the owner's, the per-day rows, the devices' quota and daily counts, the report answers —
 * equal to a recount of the rows. Above the recount is a number counted twice; below it, one lost.
 */
async function recount(kdb: Kysely<Database>, taskId: number, client: FleetStats) {
  const byState = await kdb.selectFrom('sync_task_number').select(['state', (eb) => eb.fn.countAll<number | string>().as('n')]).where('taskId', '=', taskId).groupBy('state').execute();
  const rows = (state: number) => Number(byState.find((r) => r.state === state)?.n ?? 0);
  const sent = rows(TaskNumberState.sent);
  const failed = rows(TaskNumberState.failed);
  const open = rows(TaskNumberState.pending) + rows(TaskNumberState.leased);
  const task = await kdb.selectFrom('sync_task').select(['totalSendNum', 'failNum', 'taskStatus']).where('taskId', '=', taskId).executeTakeFirstOrThrow();
  const owner = await kdb.selectFrom('sys_user').select(['totalSendNum', 'hisTotalSendNum']).where('userId', '=', OWNER_ID).executeTakeFirstOrThrow();
  const ownerDaily = await kdb.selectFrom('sync_send_daily').select((eb) => eb.fn.sum<number | string>('sendCount').as('n')).where('userId', '=', OWNER_ID).executeTakeFirst();
  const devices = `${MACHINE_PREFIX}-%`;
  const deviceDaily = await kdb.selectFrom('sync_device_daily').select((eb) => eb.fn.sum<number | string>('sendCount').as('n')).where('machineCode', 'like', devices).executeTakeFirst();
  const quota = await kdb.selectFrom('sync_auth_code').select([(eb) => eb.fn.sum<number | string>('dueNum').as('left'), (eb) => eb.fn.countAll<number | string>().as('codes')])
    .where('machineCode', 'like', devices).executeTakeFirstOrThrow();
  const counted: Record<string, number> = {
    'task sent': task.totalSendNum, 'owner total': owner.totalSendNum, 'owner history': owner.hisTotalSendNum, 'owner per day': Number(ownerDaily?.n ?? 0),
    'devices per day': Number(deviceDaily?.n ?? 0), 'quota used': Number(quota.codes) * QUOTA - Number(quota.left), 'report answers': client.sent,
  };
  const values = Object.values(counted);
  const duplicates = Math.max(0, ...values.map((v) => v - sent)) + Math.max(0, task.failNum - failed, client.failed - failed) + client.duplicatesApplied;
  const lost = open + Math.max(0, ...values.map((v) => sent - v)) + Math.max(0, failed - task.failNum);
  const text = `rows sent ${sent}, failed ${failed}, still open ${open}; task status ${task.taskStatus}, failNum ${task.failNum}; `
    + Object.entries(counted).map(([k, v]) => `${k} ${v}`).join(', ');
  return { final: sent + failed, duplicates, lost, text };
}

/**
 * The bench server in a child process (this file run with BENCH_CHILD=server): two tasks filled
 * through the upload path's own import, DEVICES codes of the owner, the first task assigned to the
 * devices `bench-1` … `bench-N` the simulator will activate. SIGUSR2 starts a CPU profile, written
 * when the parent closes stdin.
 */
async function runServerChild(): Promise<void> {
  const bench = await startBenchServer();
  const kdb = bench.ctx.db;
  const fill = (name: string, seed: number) => fillBenchTask(bench.ctx, name, TASK, NUMBERS, seed);
  const taskId = await fill('bench-dispatch', 3);
  const baselineTaskId = await fill('bench-dispatch-baseline', 4);
  const now = Date.now();
  const codes = Array.from({ length: DEVICES }, (_, i) => `BENCH-${String(i + 1).padStart(4, '0')}`);
  for (let i = 0; i < codes.length; i += 100) {
    await kdb.insertInto('sync_auth_code').values(codes.slice(i, i + 100).map((authCode) => ({
      authCode, authUserId: OWNER_ID, dueNum: QUOTA, dueDateNum: 30, dueDate: now + 30 * 86_400_000, addUserId: OWNER_ID, deptId: 1, addTime: now, editTime: now,
    }))).execute();
  }
  const machineCodes = codes.map((_, i) => `${MACHINE_PREFIX}-${i + 1}`);
  for (let i = 0; i < machineCodes.length; i += 100) {
    await kdb.insertInto('sync_task_device').values(machineCodes.slice(i, i + 100).map((machineCode) => ({ taskId, machineCode }))).execute();
  }
  (globalThis as { gc?: () => void }).gc?.();

  let profiler: inspector.Session | undefined;
  process.on('SIGUSR2', () => {
    profiler = new inspector.Session();
    profiler.connect();
    void profiler.post('Profiler.enable').then(() => profiler!.post('Profiler.start'));
  });
  process.stdout.write(`${JSON.stringify({ url: bench.url, dbKind: bench.dbKind, sqliteFile: bench.sqliteFile, databaseUrl: bench.databaseUrl, taskId, baselineTaskId, codes } satisfies ServerInfo)}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  try {
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      const dir = process.env.BENCH_PROFILE_DIR ?? os.tmpdir();
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `dispatch-${bench.dbKind}-${Date.now()}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      console.error(`CPU profile of the server during the device run and the baseline: ${file}`);
    }
  } finally {
    await bench.close();
  }
  process.exit(0);
}

if (process.env.BENCH_CHILD === 'server') await runServerChild();
else await main();
