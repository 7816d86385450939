// The backup of the embedded deployment (README "备份与恢复"): 1,000,000 orders and a task of 1,000,000
// numbers (its number file stored), backed up with `npm run backup`'s function while the server stays up,
// then restored into an empty folder. Baseline in the same run: a plain copy of the database file (what
// the backup must not be — a copy of a file being written — but the floor of any copy's time), after a
// checkpoint so it holds everything. The backup again while the server writes: the writes done meanwhile and the
// slowest, beside the same writes with no backup. Recount: the restored database holds the same rows as the backup's
// manifest says, and every stored file.
//   npm run bench -- backup   (BENCH_ORDERS, BENCH_NUMBERS; SQLite only: on PostgreSQL the recipe is pg_dump)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DatabaseSync } from 'node:sqlite';
import { UploadKind } from '@huiyun/contract';
import { storeFile } from '../server/src/infra/file-storage.ts';
import { backupDataDir, restoreDataDir } from '../server/src/infra/data-dir-backup.ts';
import { importNumbers } from '../server/src/modules/sending/tasks/index.ts';
import { createBenchTask } from './lib/child-server.ts';
import { generateNumberFile } from './lib/number-file-fixture.ts';
import { seedOrders } from './lib/order-fixture.ts';
import { startBenchServer } from './lib/server.ts';
import { benchNumber, expectCount, reportRecount } from './lib/smoke.ts';

if (process.env.BENCH_DB === 'postgres') {
  console.log('backup: the embedded (SQLite) deployment only; on PostgreSQL the recipe is pg_dump (README "备份与恢复")\nrecount: OK');
  process.exit(0);
}
const ORDERS = benchNumber('BENCH_ORDERS', 1_000_000, 5_000);
const NUMBERS = benchNumber('BENCH_NUMBERS', 1_000_000, 5_000);
const server = await startBenchServer();
const dataDir = server.ctx.config.dataDir;
const now = Date.now();
await seedOrders(server, now, ORDERS, () => {});
const file = generateNumberFile(NUMBERS, { junkRate: 0, duplicateRate: 0, seed: 5 });
await storeFile(server.ctx, { content: file, fileName: 'numbers.txt', kind: UploadKind.numbers, userId: 1, deptId: 1 });
const taskId = await createBenchTask(server.ctx.db, 'backup bench');
await importNumbers(server.ctx, { taskId, deptId: 1 }, Readable.from([file]));
const sqliteFile = server.sqliteFile!;
console.log(`backup of ${ORDERS} orders and ${NUMBERS} numbers (database ${(fs.statSync(sqliteFile).size / 1e6).toFixed(0)} MB + WAL, number file ${(file.length / 1e6).toFixed(1)} MB); ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-bench-backup-'));
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

let t = performance.now();
let c = cpu();
const manifest = await backupDataDir({ dataDir, databaseFile: sqliteFile, to: path.join(work, 'backup') });
const backupSeconds = (performance.now() - t) / 1000;
const backupCpu = cpu() - c;
const backupBytes = dirBytes(path.join(work, 'backup'));

t = performance.now();
c = cpu();
restoreDataDir({ from: path.join(work, 'backup'), dataDir: path.join(work, 'restored') });
const restoreSeconds = (performance.now() - t) / 1000;
const restoreCpu = cpu() - c;

const checkpoint = new DatabaseSync(sqliteFile);
checkpoint.exec('pragma wal_checkpoint(TRUNCATE)');
checkpoint.close();
t = performance.now();
c = cpu();
fs.copyFileSync(sqliteFile, path.join(work, 'plain-copy.db'));
const copySeconds = (performance.now() - t) / 1000;
const copyCpu = cpu() - c;

// The same backup again while the server writes through its own connection (an order's remark, one write after
// another): how many went through meanwhile and the slowest, against the same writes with no backup running.
const writeWhile = async (during: () => Promise<unknown>) => {
  let writing = true;
  let writes = 0;
  let slowest = 0;
  const writer = (async () => {
    while (writing) {
      const started = performance.now();
      await server.ctx.db.updateTable('pay_order').set({ remark: `w${writes}` }).where('orderId', '=', 1 + (writes % ORDERS)).execute();
      slowest = Math.max(slowest, performance.now() - started);
      writes++;
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  const started = performance.now();
  await during();
  const seconds = (performance.now() - started) / 1000;
  writing = false;
  await writer;
  return { writes, slowest, seconds };
};
const busy = await writeWhile(() => backupDataDir({ dataDir, databaseFile: sqliteFile, to: path.join(work, 'busy') }));
const quiet = await writeWhile(() => new Promise((resolve) => setTimeout(resolve, busy.seconds * 1000)));
const busyManifest = JSON.parse(fs.readFileSync(path.join(work, 'busy', 'manifest.json'), 'utf8')) as typeof manifest;

const problems: string[] = [];
// the seeded orders (HY…) by number: the order sweeper adds refund rows (HY…R…) of seeded failed dispenses meanwhile
const ordersIn = (backup: string, where = '') => {
  const copy = new DatabaseSync(path.join(work, backup, 'huiyun.db'), { readOnly: true });
  try {
    return Number((copy.prepare(`select count(*) as n from pay_order ${where}`).get() as { n: number }).n);
  } finally {
    copy.close();
  }
};
expectCount(problems, 'seeded orders in the backup taken while the server wrote', ordersIn('busy', `where "orderNo" like 'HY%' and "orderNo" not like '%R%'`), ORDERS);
expectCount(problems, 'seeded orders in the backup', ordersIn('backup', `where "orderNo" like 'HY%' and "orderNo" not like '%R%'`), ORDERS);
expectCount(problems, 'orders in the manifest of the backup taken while the server wrote', busyManifest.counts.pay_order!, ordersIn('busy'));
if (busy.writes === 0) problems.push('no write went through while the backup ran');
const restored = new DatabaseSync(path.join(work, 'restored', 'huiyun.db'), { readOnly: true });
for (const [table, n] of Object.entries(manifest.counts)) expectCount(problems, `restored ${table}`, Number((restored.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n), n);
expectCount(problems, 'numbers in the backup', manifest.counts.sync_task_number!, NUMBERS);
restored.close();
expectCount(problems, 'stored files restored', fs.readdirSync(path.join(work, 'restored', 'uploads'), { recursive: true }).filter((f) => String(f).endsWith('.txt')).length, manifest.files.count);

console.log('| case | seconds | CPU s | MB written |');
console.log('|---|---:|---:|---:|');
console.log(`| npm run backup (online backup + ${manifest.files.count} stored file + manifest) | ${backupSeconds.toFixed(2)} | ${backupCpu.toFixed(2)} | ${(backupBytes / 1e6).toFixed(0)} |`);
console.log(`| npm run restore (integrity check + copy) | ${restoreSeconds.toFixed(2)} | ${restoreCpu.toFixed(2)} | ${(dirBytes(path.join(work, 'restored')) / 1e6).toFixed(0)} |`);
console.log(`| baseline: copy of the checkpointed database file | ${copySeconds.toFixed(2)} | ${copyCpu.toFixed(2)} | ${(fs.statSync(path.join(work, 'plain-copy.db')).size / 1e6).toFixed(0)} |`);
console.log(`\nwhile the server writes: the backup ${busy.seconds.toFixed(2)} s, ${busy.writes} writes went through meanwhile (${(busy.writes / busy.seconds).toFixed(0)}/s), the slowest ${busy.slowest.toFixed(1)} ms; `
  + `the same writes with no backup: ${(quiet.writes / quiet.seconds).toFixed(0)}/s, the slowest ${quiet.slowest.toFixed(1)} ms`);
reportRecount(problems);
fs.rmSync(work, { recursive: true, force: true });
await server.close();

function dirBytes(dir: string): number {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).reduce((sum, f) => {
    const stat = fs.statSync(path.join(dir, f));
    return sum + (stat.isFile() ? stat.size : 0);
  }, 0);
}
