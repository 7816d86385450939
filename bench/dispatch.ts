// The sending engine's benchmark: 500 simulated devices (tools/device-simulator, the code behind
// `npm run device`) send a task of 1,000,000 numbers to the end over loopback HTTP, at unlimited speed
// (no interval between messages), against the real server in a child process, so client and server
// do not share an event loop. Beside it, in the same run and on the same database, the baseline: a raw
// SQL loop making the same state changes without HTTP — claim a batch as the server's fresh claim does
// (the task's next pending numbers above its cursor; the cursor moved, a sync_batch row written), mark
// the numbers sent, bump the same counters — in transactions of the same sizes.
//   npm run bench -- dispatch          (BENCH_DB=postgres with TEST_DATABASE_URL for PostgreSQL)
// Knobs: BENCH_NUMBERS (1,000,000), BENCH_DEVICES (500), BENCH_REPORT_EVERY (results per report, 0 = one
// report per batch), BENCH_FAIL_RATE (0), BENCH_PROFILE=1 (CPU profile of the server during the run).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { carrierKeys, shanghaiDay, TaskNumberState, type Carrier } from '@huiyun/contract';
import { connectDatabase } from '../server/src/db/connect.ts';
import type { Database } from '../server/src/db/schema.ts';
import { importNumbers } from '../server/src/modules/task/upload-numbers.ts';
import { formatProgress, RateMeter } from '../tools/device-simulator/progress.ts';
import { startDevices } from '../tools/device-simulator/run-devices.ts';
import { percentile, type FleetStats } from '../tools/device-simulator/stats.ts';
import { createBenchTask, startChildServer } from './lib/child-server.ts';
import { generateNumberFile } from './lib/number-file-fixture.ts';
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
  const baseline = server.dbKind === 'sqlite'
    ? sqliteBaseline(server.sqliteFile!, server.baselineTaskId)
    : await postgresBaseline(server.databaseUrl!, server.baselineTaskId);
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

type Baseline = { label: string; seconds: number; numbers: number; batches: number; reports: number };

/** Batch sizes like the server's: uniform in the task's [batchSendNum, batchSendMaxNum]. */
const batchSize = () => TASK.batchSendNum + Math.floor(Math.random() * (TASK.batchSendMaxNum - TASK.batchSendNum + 1));
const chunksOf = <T>(items: T[]) => {
  const size = REPORT_EVERY > 0 ? REPORT_EVERY : items.length;
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
};
function carrierSplit(carriers: number[]) {
  const split = { mobile: 0, unicom: 0, telecom: 0, other: 0 };
  for (const c of carriers) split[carrierKeys[c as Carrier] ?? 'other'] += 1;
  return split;
}
const SET_SENT = 'update "sync_task_number" set "state" = {p}, "batchId" = {p}, "machineCode" = {p}, "doneAt" = {p}, "leaseUntil" = null, "failReason" = null where "id" in ({ids}) and "taskId" = {p} and "id" >= {p} and "id" <= {p} and "state" = 0 and "batchId" is null returning "carrier"';
const BATCH_DONE = 'update "sync_batch" set "doneNum" = "doneNum" + {p}, "state" = case when "doneNum" + {p} >= "size" then 1 else "state" end where "batchId" = {p}';
const TASK_COUNTERS = 'update "sync_task" set "totalSendNum" = "totalSendNum" + {p}, "smcount" = "smcount" + {p}, "sucount" = "sucount" + {p}, "stcount" = "stcount" + {p}, "socount" = "socount" + {p}, "failNum" = "failNum" + {p}, "doneNum" = "doneNum" + {p} where "taskId" = {p} returning "userId", "taskStatus"';
const OWNER_COUNTERS = 'update "sys_user" set "totalSendNum" = "totalSendNum" + {p}, "smcount" = "smcount" + {p}, "sucount" = "sucount" + {p}, "stcount" = "stcount" + {p}, "socount" = "socount" + {p}, "sendNum" = "sendNum" + {p}, "hisTotalSendNum" = "hisTotalSendNum" + {p} where "userId" = {p}';
const OWNER_DAILY = 'insert into "sync_send_daily" ("userId", "day", "sendCount") values ({p}, {p}, {p}) on conflict ("userId", "day") do update set "sendCount" = "sync_send_daily"."sendCount" + "excluded"."sendCount"';
const CODE_QUOTA = 'update "sync_auth_code" set "dueNum" = "dueNum" - {p} where "id" = {p}';
const DEVICE_DAILY = 'insert into "sync_device_daily" ("machineCode", "day", "sendCount") values ({p}, {p}, {p}) on conflict ("machineCode", "day") do update set "sendCount" = "sync_device_daily"."sendCount" + "excluded"."sendCount"';
const ENSURE_CURSOR = 'insert into "sync_task_cursor" ("taskId", "claimedTo") values ({p}, 0) on conflict ("taskId") do nothing';
const INSERT_BATCH = 'insert into "sync_batch" ("batchId", "taskId", "machineCode", "fromId", "toId", "size", "leaseUntil", "state", "addTime") values ({p}, {p}, {p}, {p}, {p}, {p}, {p}, 0, {p})';
/** SQLite: the fresh claim's steps as the server's (one writer, plain statements). */
const CURSOR = 'select "claimedTo" from "sync_task_cursor" where "taskId" = {p}';
const FRESH = 'select "id", "carrier" from "sync_task_number" where "taskId" = {p} and "state" = 0 and "id" > {p} order by "id" limit {p}';
const MOVE_CURSOR = 'update "sync_task_cursor" set "claimedTo" = {p} where "taskId" = {p}';
/** PostgreSQL: the server's fresh claim as one statement (task, size, batch, device, lease, now). */
const CLAIM = `with "cursor" as (select "claimedTo" from "sync_task_cursor" where "taskId" = {p} for update),
  "fresh" as (select "id", "carrier" from "sync_task_number" where "taskId" = {p} and "state" = 0 and "id" > (select "claimedTo" from "cursor") order by "id" limit {p}),
  "span" as (select min("id") as "fromId", max("id") as "toId", count(*)::int as "size" from "fresh"),
  "moved" as (update "sync_task_cursor" set "claimedTo" = "span"."toId" from "span" where "sync_task_cursor"."taskId" = {p} and "span"."toId" is not null returning 1),
  "recorded" as (insert into "sync_batch" ("batchId", "taskId", "machineCode", "fromId", "toId", "size", "leaseUntil", "state", "addTime")
    select {p}, {p}, {p}, "fromId", "toId", "size", {p}, 0, {p} from "span" where "toId" is not null returning 1)
  select "id", "carrier" from "fresh"`;

/** The server's statements (as Kysely writes them) with the placeholders of one driver. */
function statement(template: string, placeholder: (i: number) => string, ids = 0): string {
  let i = 0;
  return template
    .replace('{ids}', () => Array.from({ length: ids }, () => '{p}').join(', '))
    .replace(/\{p\}/g, () => placeholder(++i));
}

/** The bench devices' codes: the baseline charges its sends to them in turn, as the devices did. */
async function benchDevices(kdb: Kysely<Database>) {
  const rows = await kdb.selectFrom('sync_auth_code').select(['id', 'machineCode']).where('machineCode', 'like', `${MACHINE_PREFIX}-%`).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, machineCode: r.machineCode! }));
}

/** SQLite: one connection, one loop (the server has one connection too), node:sqlite prepared statements. */
function sqliteBaseline(file: string, taskId: number): Baseline {
  const raw = new DatabaseSync(file, { timeout: 5000 });
  raw.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON');
  const q = () => '?';
  const devices = raw.prepare(`select "id", "machineCode" from "sync_auth_code" where "machineCode" like ? order by "id"`).all(`${MACHINE_PREFIX}-%`) as { id: number; machineCode: string }[];
  raw.prepare(statement(ENSURE_CURSOR, q)).run(taskId);
  const cursor = raw.prepare(statement(CURSOR, q));
  const fresh = raw.prepare(statement(FRESH, q));
  const moveCursor = raw.prepare(statement(MOVE_CURSOR, q));
  const insertBatch = raw.prepare(statement(INSERT_BATCH, q));
  const setSent = new Map<number, StatementSync>();
  const batchDone = raw.prepare(statement(BATCH_DONE, q));
  const taskCounters = raw.prepare(statement(TASK_COUNTERS, q));
  const ownerCounters = raw.prepare(statement(OWNER_COUNTERS, q));
  const ownerDaily = raw.prepare(statement(OWNER_DAILY, q));
  const codeQuota = raw.prepare(statement(CODE_QUOTA, q));
  const deviceDaily = raw.prepare(statement(DEVICE_DAILY, q));
  let numbers = 0;
  let batches = 0;
  let reports = 0;
  const start = performance.now();
  for (let d = 0; ; d += 1) {
    const device = devices[d % devices.length];
    const batchId = `b_${randomUUID().replace(/-/g, '')}`;
    const now = Date.now();
    raw.exec('begin');
    const { claimedTo } = cursor.get(taskId) as { claimedTo: number };
    const claimed = fresh.all(taskId, claimedTo, batchSize()) as { id: number; carrier: number }[];
    if (claimed.length > 0) {
      moveCursor.run(claimed.at(-1)!.id, taskId);
      insertBatch.run(batchId, taskId, device.machineCode, claimed[0].id, claimed.at(-1)!.id, claimed.length, now + 300_000, now);
    }
    raw.exec('commit');
    if (claimed.length === 0) break;
    batches += 1;
    const range = [claimed[0].id, claimed.at(-1)!.id];
    for (const chunk of chunksOf(claimed)) {
      const at = Date.now();
      const day = shanghaiDay(at);
      let setChunk = setSent.get(chunk.length);
      if (!setChunk) setSent.set(chunk.length, (setChunk = raw.prepare(statement(SET_SENT, q, chunk.length))));
      raw.exec('begin');
      const sent = setChunk.all(TaskNumberState.sent, batchId, device.machineCode, at, ...chunk.map((n) => n.id), taskId, ...range) as { carrier: number }[];
      const s = carrierSplit(sent.map((r) => r.carrier));
      batchDone.run(sent.length, sent.length, batchId);
      const task = taskCounters.get(sent.length, s.mobile, s.unicom, s.telecom, s.other, 0, sent.length, taskId) as { userId: number };
      ownerCounters.run(sent.length, s.mobile, s.unicom, s.telecom, s.other, sent.length, sent.length, task.userId);
      ownerDaily.run(task.userId, day, sent.length);
      codeQuota.run(sent.length, device.id);
      deviceDaily.run(device.machineCode, day, sent.length);
      raw.exec('commit');
      numbers += sent.length;
      reports += 1;
    }
  }
  const seconds = (performance.now() - start) / 1000;
  raw.close();
  return { label: 'node:sqlite, one connection', seconds, numbers, batches, reports };
}

/** PostgreSQL: as many connections as the server's pool (20), each a loop; the claim one statement on its own, as the server's. */
async function postgresBaseline(url: string, taskId: number): Promise<Baseline> {
  const workers = 20;
  const pool = new pg.Pool({ connectionString: url, max: workers });
  const kdb = connectDatabase({ kind: 'postgres', url });
  const devices = await benchDevices(kdb);
  await kdb.destroy();
  const q = (i: number) => `$${i}`;
  await pool.query(statement(ENSURE_CURSOR, q), [taskId]);
  const claimSql = statement(CLAIM, q);
  let numbers = 0;
  let batches = 0;
  let reports = 0;
  let next = 0;
  const worker = async () => {
    const client = await pool.connect();
    try {
      for (;;) {
        const device = devices[next++ % devices.length];
        const batchId = `b_${randomUUID().replace(/-/g, '')}`;
        const now = Date.now();
        const { rows } = await client.query<{ id: number; carrier: number }>({
          name: 'claim', text: claimSql, values: [taskId, taskId, batchSize(), taskId, batchId, taskId, device.machineCode, now + 300_000, now],
        });
        if (rows.length === 0) return;
        const claimed = rows.map((r) => ({ id: Number(r.id), carrier: r.carrier })).sort((a, b) => a.id - b.id);
        const range = [claimed[0].id, claimed.at(-1)!.id];
        batches += 1;
        for (const chunk of chunksOf(claimed)) {
          const at = Date.now();
          const day = shanghaiDay(at);
          await client.query('begin');
          const { rows: sent } = await client.query<{ carrier: number }>({
            name: `sent${chunk.length}`, text: statement(SET_SENT, q, chunk.length),
            values: [TaskNumberState.sent, batchId, device.machineCode, at, ...chunk.map((n) => n.id), taskId, ...range],
          });
          const s = carrierSplit(sent.map((r) => r.carrier));
          await client.query({ name: 'batchDone', text: statement(BATCH_DONE, q), values: [sent.length, sent.length, batchId] });
          const { rows: [task] } = await client.query<{ userId: number }>({ name: 'task', text: statement(TASK_COUNTERS, q), values: [sent.length, s.mobile, s.unicom, s.telecom, s.other, 0, sent.length, taskId] });
          await client.query({ name: 'owner', text: statement(OWNER_COUNTERS, q), values: [sent.length, s.mobile, s.unicom, s.telecom, s.other, sent.length, sent.length, task.userId] });
          await client.query({ name: 'ownerDaily', text: statement(OWNER_DAILY, q), values: [task.userId, day, sent.length] });
          await client.query({ name: 'quota', text: statement(CODE_QUOTA, q), values: [sent.length, device.id] });
          await client.query({ name: 'deviceDaily', text: statement(DEVICE_DAILY, q), values: [device.machineCode, day, sent.length] });
          await client.query('commit');
          numbers += sent.length;
          reports += 1;
        }
      }
    } finally {
      client.release();
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: workers }, worker));
  const seconds = (performance.now() - start) / 1000;
  await pool.end();
  return { label: `pg, ${workers} connections`, seconds, numbers, batches, reports };
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
  const fill = async (name: string, seed: number) => {
    const taskId = await createBenchTask(kdb, name);
    await kdb.updateTable('sync_task').set(TASK).where('taskId', '=', taskId).execute();
    const result = await importNumbers(bench.ctx, { taskId, deptId: 1 }, Readable.from([generateNumberFile(NUMBERS, { junkRate: 0, duplicateRate: 0, seed })]));
    if (result.valid !== NUMBERS) throw new Error(`filled ${result.valid} of ${NUMBERS}`);
    return taskId;
  };
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
