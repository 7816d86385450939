// The number-export benchmark: a task of 1,000,000 numbers (a third of them sent) downloaded through
// GET /sync/exportTask (streamed .txt, token in the query as a browser navigation sends it) on a bench
// server, beside the database's own dump of the same column in the same run: `sqlite3 -csv "select
// phone …" > file` (SQLite), `psql \copy (select phone …) to file` (PostgreSQL).
//   npm run bench -- export            (BENCH_DB=postgres for PostgreSQL; BENCH_NUMBERS to change the size)
// The server runs in a child process; its peak RSS (VmHWM) is read after the kernel's peak counter was
// reset just before each download (/proc/<pid>/clear_refs), so "memory flat" shows as peak ≈ before.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { generateNumberFile } from './lib/number-file-fixture.ts';
import { ADMIN_PASSWORD, loginAs, startBenchServer, type BenchServer } from './lib/server.ts';
import { importNumbers } from '../server/src/modules/sending/tasks/index.ts';
import { createBenchTask, startChildServer } from './lib/child-server.ts';
import { readRss, resetPeakRss } from './lib/rss.ts';
import { benchNumber, expectCount, reportRecount } from './lib/smoke.ts';

if (process.env.BENCH_CHILD === 'server') {
  await runServerChild();
}

const NUMBERS = benchNumber('BENCH_NUMBERS', 1_000_000, 3_000);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-bench-export-'));

console.log(`Filling a task with ${NUMBERS} numbers…`);
const server = await startServerProcess();
const token = await loginAs({ url: server.url } as BenchServer, 'admin', ADMIN_PASSWORD);

type Row = { label: string; seconds: number; lines: number; bytes: number; peakMb?: number; beforeMb?: number };
const rows: Row[] = [];
for (const [exportType, label] of [[1, 'all'], [2, 'unsent'], [3, 'sent']] as const) {
  const before = readRss(server.pid, 'VmRSS');
  resetPeakRss(server.pid);
  const started = performance.now();
  const response = await fetch(`${server.url}/sync/exportTask?userId=1&token=${token}&taskId=${server.taskId}&exportType=${exportType}`);
  if (!response.ok || !response.body) throw new Error(`export failed: ${response.status} ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>)) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 10) lines += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  rows.push({ label: `GET /sync/exportTask exportType=${exportType} (${label})`, seconds, lines, bytes, peakMb: readRss(server.pid, 'VmHWM') / 1048576, beforeMb: before / 1048576 });
}
rows.push(server.dbKind === 'sqlite' ? sqliteDump(server.sqliteFile!, server.taskId) : postgresDump(server.databaseUrl!, server.taskId));
await server.stop();
fs.rmSync(work, { recursive: true, force: true });

console.log(`\nNumber export, a task of ${NUMBERS} numbers (1/3 sent), ${server.dbKind}`);
console.log('| case | seconds | lines | lines/s | server peak RSS MB (before) |');
console.log('|---|---:|---:|---:|---:|');
for (const r of rows) {
  const rss = r.peakMb === undefined ? '' : `${r.peakMb.toFixed(0)} (${r.beforeMb!.toFixed(0)})`;
  console.log(`| ${r.label} | ${r.seconds.toFixed(2)} | ${r.lines} | ${(r.lines / r.seconds).toFixed(0)} | ${rss} |`);
}
const all = rows[0];
const baseline = rows[rows.length - 1];
// the recount: every number once in 'all' and in the dump, and unsent + sent = all
const problems: string[] = [];
expectCount(problems, 'lines exported (all)', all.lines, NUMBERS);
expectCount(problems, 'lines exported unsent + sent', rows[1]!.lines + rows[2]!.lines, NUMBERS);
expectCount(problems, 'lines of the baseline dump', baseline.lines, NUMBERS);
reportRecount(problems);
console.log(`\nratio export all / baseline: ${(all.seconds / baseline.seconds).toFixed(2)}×; machine load (uptime): ${os.loadavg().map((l) => l.toFixed(2)).join(', ')} on ${os.cpus().length} CPUs`);

function sqliteDump(file: string, taskId: number): Row {
  const out = path.join(work, 'dump.csv');
  const fd = fs.openSync(out, 'w');
  const start = performance.now();
  const run = spawnSync('/usr/bin/sqlite3', ['-csv', file, `select phone from sync_task_number where "taskId" = ${taskId} order by id`], { stdio: ['ignore', fd, 'pipe'] });
  const seconds = (performance.now() - start) / 1000;
  fs.closeSync(fd);
  if (run.status !== 0) throw new Error(`sqlite3 failed: ${run.stderr}`);
  return { label: 'baseline: sqlite3 -csv "select phone … order by id" > file (all)', seconds, ...countLines(out) };
}

function postgresDump(url: string, taskId: number): Row {
  const out = path.join(work, 'dump.txt');
  const start = performance.now();
  const run = spawnSync('psql', [url, '-q', '-c', `\\copy (select phone from sync_task_number where "taskId" = ${taskId} order by id) to '${out}'`], { encoding: 'utf8' });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`psql failed: ${run.stderr}`);
  return { label: 'baseline: psql \\copy (select phone … order by id) to file (all)', seconds, ...countLines(out) };
}

function countLines(file: string): { lines: number; bytes: number } {
  const content = fs.readFileSync(file);
  let lines = 0;
  for (let i = 0; i < content.length; i += 1) if (content[i] === 10) lines += 1;
  return { lines, bytes: content.length };
}

type ServerProcess = { url: string; pid: number; dbKind: 'sqlite' | 'postgres'; sqliteFile?: string; databaseUrl?: string; taskId: number; stop: () => Promise<void> };

/** The bench server in a child process of its own (this file run with BENCH_CHILD=server), with the task filled. */
function startServerProcess(): Promise<ServerProcess> {
  return startChildServer<Omit<ServerProcess, 'pid' | 'stop'>>(import.meta.filename, ['--expose-gc']);
}

async function runServerChild(): Promise<void> {
  const server = await startBenchServer();
  const taskId = await createBenchTask(server.ctx.db, 'bench-export');
  const count = benchNumber('BENCH_NUMBERS', 1_000_000, 3_000);
  // The numbers go in through the upload path's own import (a file without junk or repeats).
  const file = generateNumberFile(count, { junkRate: 0, duplicateRate: 0, seed: 2 });
  const result = await importNumbers(server.ctx, { taskId, deptId: 1 }, Readable.from([file]), { sizeHint: file.length });
  if (result.valid !== count) throw new Error(`filled ${result.valid} of ${count}`);
  await server.ctx.db.updateTable('sync_task_number').set({ state: 2 }).where('taskId', '=', taskId).where((eb) => eb(eb('id', '%', 3), '=', 0)).execute();
  // Drop what filling left on the heap, so the downloads start from an idle server's memory.
  (globalThis as { gc?: () => void }).gc?.();
  process.stdout.write(`${JSON.stringify({ url: server.url, dbKind: server.dbKind, sqliteFile: server.sqliteFile, databaseUrl: server.databaseUrl, taskId })}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  await server.close();
  process.exit(0);
}
