// The order-export benchmark: 交易订单 导出 (`POST /api/Order/export`, streamed .xlsx) on
// 1,000,000 orders (bench/lib/order-fixture.ts: 10 companies, 1,000 machines, one year), for filters
// of ~10,000 rows (出货失败), ~100,000 rows (one company) and none (every order), beside the database's
// own dump of the same rows in the same run: the same SELECT through the bare driver written as CSV
// (SQLite: node:sqlite iterating; PostgreSQL: `COPY (…) TO STDOUT WITH CSV` through pg).
//   npm run bench -- order-export   (BENCH_DB=postgres + TEST_DATABASE_URL for PostgreSQL;
//   BENCH_ORDERS, default 1,000,000)
// The server runs in a child process; its RSS is sampled every 20 ms during each download and its peak
// counter reset before it (bench/lib/rss.ts), so "memory flat" shows as peak ≈ before at every size.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import pg from 'pg';
import { OrderStatus } from '@huiyun/contract';
import { startChildServer } from './lib/child-server.ts';
import { ORDERS, seedOrders } from './lib/order-fixture.ts';
import { CopyOut } from './lib/pg-copy-out.ts';
import { readRss, resetPeakRss } from './lib/rss.ts';
import { ADMIN_PASSWORD, loginAs, startBenchServer, type BenchServer } from './lib/server.ts';
import { benchNumber, expectCount, reportRecount } from './lib/smoke.ts';

type Child = { url: string; dbKind: 'sqlite' | 'postgres'; sqliteFile?: string; databaseUrl?: string; depts: number[] };

if (process.env.BENCH_CHILD === 'server') await runServerChild();

const COUNT = benchNumber('BENCH_ORDERS', ORDERS, 3_000);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-bench-order-export-'));
console.log(`Seeding ${COUNT} orders…`);
const server = await startChildServer<Child>(import.meta.filename, ['--expose-gc', ...(process.env.BENCH_SERVER_HEAP_MB ? [`--max-old-space-size=${process.env.BENCH_SERVER_HEAP_MB}`] : [])]);
const token = await loginAs({ url: server.url } as BenchServer, 'admin', ADMIN_PASSWORD);
const mb = (bytes: number) => bytes / 1048576;

// The export's own statement, as the list builds it (order-list/queries.ts): the company joined, newest first.
const columns = ['orderId', 'deptId', 'orderNo', 'transId', 'payType', 'subPayType', 'transType', 'machineNo', 'goodsNo', 'goodsName', 'goodsPrice', 'payAmount',
  'aisleNo', 'orderStatus', 'openId', 'mchId', 'subMchId', 'remark', 'createTime', 'payTime'].map((c) => `o."${c}"`).join(', ');
const selectOf = (where: string, limit: number | undefined) =>
  `select ${columns}, d."deptName" from pay_order o left join sys_dept d on d."deptId" = o."deptId"${where ? ` where ${where}` : ''} order by o."createTime" desc, o."orderId" desc${limit ? ` limit ${limit}` : ''}`;

type Case = { label: string; body: Record<string, unknown>; where: string };
const cases: Case[] = [
  { label: '出货失败 (~1 %)', body: { orderStatus: OrderStatus.dispenseFailed }, where: `o."orderStatus" = ${OrderStatus.dispenseFailed}` },
  { label: 'one company (~10 %)', body: { deptId: server.depts[3] }, where: `o."deptId" = ${server.depts[3]}` },
  { label: 'no filter (all)', body: {}, where: '' },
];

type Row = { label: string; seconds: number; rows: number; bytes: number; beforeMb?: number; peakMb?: number; dumpSeconds: number; dumpRows: number };
const rows: Row[] = [];
const problems: string[] = []; // the recount: each export wrote every row its filter matches
for (const c of cases) {
  const file = path.join(work, 'export.xlsx');
  const before = readRss(server.pid, 'VmRSS');
  resetPeakRss(server.pid);
  let sampledPeak = before;
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, readRss(server.pid, 'VmRSS'))), 20);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/Order/export`, { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify({ page: 1, limit: 10, ...c.body }) });
  if (!response.ok || !response.body) throw new Error(`export failed: ${response.status} ${await response.text()}`);
  const out = fs.createWriteStream(file);
  let bytes = 0;
  for await (const chunk of Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>)) {
    bytes += chunk.length;
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const peak = Math.max(sampledPeak, readRss(server.pid, 'VmHWM'));
  const sheetRows = (await countSheetRows(file)) - 1; // less the header
  // the database's own dump of the rows the export wrote
  const dump = await dumpCsv(selectOf(c.where, sheetRows), path.join(work, 'dump.csv'));
  expectCount(problems, `rows exported, ${c.label}`, sheetRows, (await dumpCsv(selectOf(c.where, undefined), path.join(work, 'dump.csv'))).rows);
  rows.push({ label: c.label, seconds, rows: sheetRows, bytes, beforeMb: mb(before), peakMb: mb(peak), dumpSeconds: dump.seconds, dumpRows: dump.rows });
  console.log(`${c.label}: ${sheetRows} rows, ${mb(bytes).toFixed(1)} MB in ${seconds.toFixed(2)} s; server RSS ${mb(before).toFixed(0)} → peak ${mb(peak).toFixed(0)} MB; dump ${dump.rows} rows in ${dump.seconds.toFixed(2)} s; load ${os.loadavg()[0]!.toFixed(2)}`);
}
// what an export of every order would be measured against
const full = await dumpCsv(selectOf('', undefined), path.join(work, 'dump.csv'));
console.log(`dump of all ${full.rows} orders: ${full.seconds.toFixed(2)} s`);
expectCount(problems, 'orders dumped', full.rows, COUNT);
reportRecount(problems);
await server.stop();
fs.rmSync(work, { recursive: true, force: true });

console.log(`\n交易订单 export (streamed: keyset pages, every row), ${COUNT} orders, ${server.dbKind}; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('| filter | rows written | .xlsx MB | seconds | rows/s | server RSS before → peak MB | dump of the same rows s | export / dump |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.label} | ${r.rows} | ${mb(r.bytes).toFixed(1)} | ${r.seconds.toFixed(2)} | ${(r.rows / r.seconds).toFixed(0)} | ${r.beforeMb!.toFixed(0)} → ${r.peakMb!.toFixed(0)} | ${r.dumpSeconds.toFixed(2)} | ${(r.seconds / r.dumpSeconds).toFixed(1)}× |`);
}
console.log(`| *dump only: every order* | ${full.rows} | | | | | ${full.seconds.toFixed(2)} | |`);

/** Rows of the first sheet, read back with exceljs's streaming reader. */
async function countSheetRows(file: string): Promise<number> {
  let count = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore', entries: 'ignore' });
  for await (const sheet of reader) {
    for await (const _row of sheet) count += 1;
    break;
  }
  return count;
}

/** The database's own dump: the statement's rows as CSV into `file`, through the bare driver. */
async function dumpCsv(text: string, file: string): Promise<{ seconds: number; rows: number }> {
  const fd = fs.openSync(file, 'w');
  const started = performance.now();
  let rowCount = 0;
  try {
    if (server.dbKind === 'sqlite') {
      const raw = new DatabaseSync(server.sqliteFile!, { readOnly: true });
      const csv = (v: unknown) => (v === null ? '' : typeof v === 'string' && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v));
      let buffer = '';
      for (const row of raw.prepare(text).iterate() as Iterable<Record<string, unknown>>) {
        buffer += `${Object.values(row).map(csv).join(',')}\n`;
        rowCount += 1;
        if (buffer.length > 1 << 20) {
          fs.writeSync(fd, buffer);
          buffer = '';
        }
      }
      fs.writeSync(fd, buffer);
      raw.close();
    } else {
      const client = new pg.Client({ connectionString: server.databaseUrl });
      await client.connect();
      await client.query(new CopyOut(`copy (${text}) to stdout with csv`, (chunk) => {
        fs.writeSync(fd, chunk);
        for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 10) rowCount += 1;
      }) as unknown as pg.QueryConfig);
      await client.end();
    }
  } finally {
    fs.closeSync(fd);
  }
  return { seconds: (performance.now() - started) / 1000, rows: rowCount };
}

async function runServerChild(): Promise<never> {
  // No order sweep while it runs: the seeded year's newest open orders are hours past their time, and the sweeper
  // settling them (a paid one → 出货失败 and its refund row) between an export and its recount's dump moved the counts.
  const s = await startBenchServer({ PAY_SWEEP_SECONDS: '3600' });
  const count = benchNumber('BENCH_ORDERS', ORDERS, 3_000);
  const depts = await seedOrders(s, Date.now(), count, (line) => console.error(line)); // stdout carries the JSON line
  await (s.dbKind === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(s.ctx.db);
  // Drop what seeding left on the heap, so the downloads start from an idle server's memory.
  (globalThis as { gc?: () => void }).gc?.();
  process.stdout.write(`${JSON.stringify({ url: s.url, dbKind: s.dbKind, sqliteFile: s.sqliteFile, databaseUrl: s.databaseUrl, depts } satisfies Child)}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.on('end', resolve));
  await s.close();
  process.exit(0);
}
