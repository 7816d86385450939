// The number-upload benchmark: a generated 1,000,000-line file (2% junk, 3% duplicates) through the
// real path — HTTP multipart upload to /upload/files, then /sync/uploadTaskData into a new task — on a
// bench server, beside loading the same numbers with the database's own bulk loader in the same run:
// `sqlite3 .import` into a bare one-column table (SQLite), `\copy` through psql (PostgreSQL).
//   npm run bench -- upload            (BENCH_DB=postgres for PostgreSQL; BENCH_LINES to change the size)
// The server runs in a child process; its peak RSS (VmHWM) is read after the kernel's peak counter was
// reset just before the measured calls (/proc/<pid>/clear_refs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateNumberFileWithCounts } from './lib/number-file-fixture.ts';
import { ADMIN_PASSWORD, loginAs, startBenchServer, type BenchServer } from './lib/server.ts';
import { createBenchTask, startChildServer } from './lib/child-server.ts';
import { cpuSeconds } from './lib/process-cpu.ts';
import { searchTableOf } from '../server/src/db/search-index.ts';
import { readRss, resetPeakRss } from './lib/rss.ts';
import { benchNumber, expectCount, reportRecount } from './lib/smoke.ts';

if (process.env.BENCH_CHILD === 'server') {
  await runServerChild();
}

const LINES = benchNumber('BENCH_LINES', 1_000_000, 3_000);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-bench-upload-'));
const numberFile = path.join(work, 'numbers.txt');
const bareNumbers = path.join(work, 'bare-numbers.txt');

const { file, counts } = generateNumberFileWithCounts(LINES, { junkRate: 0.02, duplicateRate: 0.03, seed: 1 });
fs.writeFileSync(numberFile, file);
// The baseline loads "the same numbers": every number line of the file (repeats included), no junk.
const numberLines = file.toString('latin1').split('\n').filter((l) => /^1[3-9]\d{9}$/.test(l));
fs.writeFileSync(bareNumbers, numberLines.join('\n') + '\n');
console.log(`File: ${LINES} lines, ${(file.length / 1e6).toFixed(1)} MB; ${counts.valid} distinct valid, ${counts.duplicates} repeats, ${counts.invalid} junk`);

const server = await startServerProcess();
const token = await loginAs({ url: server.url } as BenchServer, 'admin', ADMIN_PASSWORD);
const taskId = server.taskId;

const rssBefore = readRss(server.pid, 'VmRSS');
resetPeakRss(server.pid);
const started = performance.now();
const form = new FormData();
form.append('kind', 'numbers');
form.append('file', await fs.openAsBlob(numberFile), 'bench-numbers.txt');
const uploaded = (await (await fetch(`${server.url}/upload/files`, { method: 'POST', headers: { token }, body: form })).json()) as {
  success: boolean; msg: string; data?: { fileNo: string; fileName: string; filePath: string }[];
};
if (!uploaded.success || !uploaded.data) throw new Error(`upload failed: ${uploaded.msg}`);
const afterUpload = performance.now();
const imported = (await (await fetch(`${server.url}/sync/uploadTaskData`, {
  method: 'POST',
  headers: { token, 'content-type': 'application/json' },
  body: JSON.stringify({ taskId, fileNo: uploaded.data[0].fileNo, fileName: uploaded.data[0].fileName, fileUrl: uploaded.data[0].filePath }),
})).json()) as { success: boolean; msg: string; data?: { valid: number; duplicates: number; invalid: number; blocked: number; byCarrier: object } };
const finished = performance.now();
const answeredRss = readRss(server.pid, 'VmHWM');
if (!imported.success || !imported.data) throw new Error(`uploadTaskData failed: ${imported.msg}`);
// Work the server still does after answering (SQLite: the WAL checkpoint, deferred to a worker
// thread) is waited for before the peak RSS is read and before the baseline runs, so it neither
// escapes the RSS figure nor slows the baseline down.
const settled = await waitUntilIdle(server.pid);
const peakRss = readRss(server.pid, 'VmHWM');
const { invalidSamples: _samples, ...shown } = imported.data as typeof imported.data & { invalidSamples?: unknown };
console.log(`Answer: ${JSON.stringify(shown)}`);

const totalSeconds = (finished - started) / 1000;
const baseline = server.dbKind === 'sqlite' ? sqliteImport() : postgresCopy(server.databaseUrl!);
const sameTable = server.dbKind === 'sqlite' ? sqliteSameTable(server.sqliteFile!) : postgresSameTable(server.databaseUrl!);
const sameOrder = server.dbKind === 'sqlite' ? sqliteSameTable(server.sqliteFile!, 'file order') : null;
const taskRows = server.dbKind === 'sqlite'
  ? Number(spawnSync('/usr/bin/sqlite3', [server.sqliteFile!, `select count(*) from sync_task_number where "taskId" = ${taskId}`], { encoding: 'utf8' }).stdout.trim())
  : Number(spawnSync('psql', [server.databaseUrl!, '-qtA', '-c', `select count(*) from sync_task_number where "taskId" = ${taskId}`], { encoding: 'utf8' }).stdout.trim());
await server.stop();
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

console.log(`\nNumber upload, ${LINES} lines, ${server.dbKind}`);
console.log('| case | seconds | numbers/s | peak RSS MB |');
console.log('|---|---:|---:|---:|');
console.log(`| POST /upload/files (multipart to disk) | ${((afterUpload - started) / 1000).toFixed(2)} | | |`);
console.log(`| POST /sync/uploadTaskData (parse + insert ${imported.data.valid} + counters) | ${((finished - afterUpload) / 1000).toFixed(2)} | | |`);
console.log(`| real path, both calls | ${totalSeconds.toFixed(2)} | ${(LINES / totalSeconds).toFixed(0)} lines/s, ${(imported.data.valid / totalSeconds).toFixed(0)} inserted/s | ${mb(peakRss)} (${mb(rssBefore)} before, ${mb(answeredRss)} at the answer) |`);
console.log(`| after the answer: server busy until idle (deferred work) | ${settled.seconds.toFixed(2)} | ${settled.cpuSeconds.toFixed(2)} s CPU | |`);
console.log(`| baseline: ${baseline.label} | ${baseline.seconds.toFixed(2)} | ${(baseline.rows / baseline.seconds).toFixed(0)} rows/s | |`);
for (const reference of [sameTable, sameOrder]) {
  if (reference) console.log(`| reference: ${reference.label} | ${reference.seconds.toFixed(2)} | ${(reference.rows / reference.seconds).toFixed(0)} rows/s | |`);
}
console.log(`\nratio real path / baseline: ${(totalSeconds / baseline.seconds).toFixed(2)}×; machine load (uptime): ${os.loadavg().map((l) => l.toFixed(2)).join(', ')} on ${os.cpus().length} CPUs`);

fs.rmSync(work, { recursive: true, force: true });

// the recount: the answer's counts are the file's, the task holds each valid number once, the references loaded as much
const problems: string[] = [];
expectCount(problems, 'answered valid', imported.data.valid, counts.valid);
expectCount(problems, 'answered repeats', imported.data.duplicates, counts.duplicates);
expectCount(problems, 'answered junk', imported.data.invalid, counts.invalid);
expectCount(problems, 'rows of the task', taskRows, counts.valid);
expectCount(problems, 'baseline rows', baseline.rows, numberLines.length);
for (const reference of [sameTable, sameOrder]) if (reference) expectCount(problems, `rows of "${reference.label}"`, reference.rows, counts.valid);
reportRecount(problems);

function sqliteImport(): { label: string; seconds: number; rows: number } {
  const db = path.join(work, 'baseline.db');
  const start = performance.now();
  const run = spawnSync('/usr/bin/sqlite3', [db, 'create table n(phone integer)', `.import ${bareNumbers} n`], { encoding: 'utf8' });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`sqlite3 failed: ${run.stderr}`);
  const rows = Number(spawnSync('/usr/bin/sqlite3', [db, 'select count(*) from n'], { encoding: 'utf8' }).stdout.trim());
  return { label: 'sqlite3 .import of the number lines into a bare table', seconds, rows };
}

/**
 * What the database itself needs to put the distinct numbers into a table shaped like
 * sync_task_number (its indexes and foreign key): bulk-load into a bare table, then one INSERT …
 * SELECT. In phone order (the cheapest order for the unique index, SQLite's default page cache), or
 * in file order — the ids the upload path gives, first appearance first — with the page cache the
 * upload path uses for a million numbers (16 MB). The floor any upload path on this schema has.
 */
function sqliteSameTable(serverDb: string, order: 'phone order' | 'file order' = 'phone order'): { label: string; seconds: number; rows: number } {
  // the search index first: sync_task's triggers write to it (db/search-index.ts)
  const schema = spawnSync('/usr/bin/sqlite3', [serverDb, `.schema ${searchTableOf('sync_task')}`, '.schema sync_task', '.schema sync_task_number'], { encoding: 'utf8' }).stdout;
  const db = path.join(work, order === 'phone order' ? 'same-table.db' : 'same-order.db');
  const insert = order === 'phone order'
    ? 'insert into sync_task_number ("taskId", "phone", "carrier") select distinct 1, phone, 1 from n order by phone;'
    : 'pragma cache_size = -16384;\ninsert into sync_task_number ("taskId", "phone", "carrier") select 1, phone, 1 from n group by phone order by min(rowid);';
  const sqlText = `${schema}
pragma journal_mode = wal; pragma synchronous = normal; pragma foreign_keys = on;
insert into sync_task ("taskId", "taskName", "showType", "userId", "deptId", "addTime", "editTime") values (1, 'baseline', 1, 1, 1, 0, 0);
create table n(phone integer);
.import ${bareNumbers} n
${insert}
`;
  spawnSync('/usr/bin/sqlite3', [db, 'pragma foreign_keys = off; create table sys_user("userId" integer primary key); create table sys_dept("deptId" integer primary key); insert into sys_user values (1); insert into sys_dept values (1);'], { encoding: 'utf8' });
  const start = performance.now();
  const run = spawnSync('/usr/bin/sqlite3', [db], { input: sqlText, encoding: 'utf8' });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0 || run.stderr) throw new Error(`sqlite3 failed: ${run.stderr}`);
  const rows = Number(spawnSync('/usr/bin/sqlite3', [db, 'select count(*) from sync_task_number'], { encoding: 'utf8' }).stdout.trim());
  const label = order === 'phone order'
    ? 'sqlite3: .import to a scratch table + INSERT … SELECT DISTINCT … ORDER BY phone into sync_task_number (same schema)'
    : 'sqlite3, 16 MB page cache: .import to a scratch table + INSERT … SELECT … GROUP BY phone ORDER BY min(rowid) (file order, as the upload) into sync_task_number (same schema)';
  return { label, seconds, rows };
}

function postgresSameTable(url: string): { label: string; seconds: number; rows: number } {
  const script = `
create temp table n(phone bigint);
\\copy n from '${bareNumbers}'
with task as (insert into sync_task ("taskName", "userId", "deptId", "addTime", "editTime") values ('baseline', 1, 1, 0, 0) returning "taskId")
insert into sync_task_number ("taskId", "phone", "carrier") select task."taskId", phone, 1 from task, (select distinct phone from n) d order by phone;
`;
  const start = performance.now();
  const run = spawnSync('psql', [url, '-q', '-v', 'ON_ERROR_STOP=1', '-f', '-'], { input: script, encoding: 'utf8' });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`psql failed: ${run.stderr}`);
  const count = `select count(*) from sync_task_number where "taskId" = (select max("taskId") from sync_task)`;
  const rows = Number(spawnSync('psql', [url, '-qtA', '-c', count], { encoding: 'utf8' }).stdout.trim());
  return { label: 'psql: \\copy to a temp table + INSERT … SELECT DISTINCT … ORDER BY phone into sync_task_number (the same table)', seconds, rows };
}

function postgresCopy(url: string): { label: string; seconds: number; rows: number } {
  spawnSync('psql', [url, '-q', '-c', 'create table bench_copy(phone bigint)'], { encoding: 'utf8' });
  const start = performance.now();
  const run = spawnSync('psql', [url, '-q', '-c', `\\copy bench_copy from '${bareNumbers}'`], { encoding: 'utf8' });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`psql failed: ${run.stderr}`);
  const rows = Number(spawnSync('psql', [url, '-qtA', '-c', 'select count(*) from bench_copy'], { encoding: 'utf8' }).stdout.trim());
  spawnSync('psql', [url, '-q', '-c', 'drop table bench_copy'], { encoding: 'utf8' });
  return { label: 'psql \\copy of the number lines into a bare table', seconds, rows };
}

type ServerProcess = { url: string; pid: number; dbKind: 'sqlite' | 'postgres'; databaseUrl?: string; sqliteFile?: string; taskId: number; stop: () => Promise<void> };

/**
 * The bench server in a child process of its own (this file run with BENCH_CHILD=server), so its peak
 * RSS is the server's alone, not the generated file's or the client's. It makes the task to upload into.
 */
function startServerProcess(): Promise<ServerProcess> {
  return startChildServer<Omit<ServerProcess, 'pid' | 'stop'>>(import.meta.filename);
}

async function runServerChild(): Promise<void> {
  const server = await startBenchServer();
  const taskId = await createBenchTask(server.ctx.db, 'bench-upload');
  process.stdout.write(`${JSON.stringify({ url: server.url, dbKind: server.dbKind, databaseUrl: server.databaseUrl, sqliteFile: server.sqliteFile, taskId })}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  await server.close();
  process.exit(0);
}

/**
 * Waits until process `pid` uses no more CPU (its utime + stime still for 300 ms, at most 20 s);
 * answers how long that took and the CPU seconds it used meanwhile.
 */
async function waitUntilIdle(pid: number): Promise<{ seconds: number; cpuSeconds: number }> {
  const start = performance.now();
  const first = cpuSeconds(pid);
  let last = first;
  let still = 0;
  while (still < 3 && performance.now() - start < 20_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuSeconds(pid);
    still = now === last ? still + 1 : 0;
    last = now;
  }
  // the 300 ms of quiet at the end are not work
  return { seconds: Math.max(0, (performance.now() - start) / 1000 - 0.3), cpuSeconds: last - first };
}
