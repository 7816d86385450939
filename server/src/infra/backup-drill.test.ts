import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { OrderStatus, TransType } from '@huiyun/contract';
import { connectDatabase } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { ADMIN_PASSWORD } from '../test/harness.ts';
import { TASK_DEFAULTS } from '../test/rows.ts';
import { serverOnTestDatabase, serverProcess, type ServerOnTestDatabase } from '../test/server-process.ts';
import { createTestDatabase, testDbKind } from '../test/test-database.ts';
import { prepareMachines } from '../../../tools/terminal-simulator/setup.ts';
import { runTerminals } from '../../../tools/terminal-simulator/run-terminals.ts';
import { TerminalClient } from '../../../tools/terminal-simulator/terminal-client.ts';
import { startDevices } from '../../../tools/device-simulator/run-devices.ts';
import { expectCountersMatchRows } from '../test/devices.ts';
import { loginOverHttp as login, postOverHttp, sendingTaskOverHttp, uploadOverHttp } from '../test/sending-over-http.ts';
import { keptRollups, recountFromOrders } from '../modules/pay/charts/rollup-recount.ts';
import { rollupNames } from '../modules/pay/charts/rollup-tables.ts';
import { backupDataDir, restoreDataDir } from './data-dir-backup.ts';
import { sealedColumns, sealPurpose } from './sealed-columns.ts';
import { loadSecretBox } from './secret-key.ts';

// The restore drill: machines sell and a number file is imported into a task while the backup is taken;
// the backup is restored into an empty place, a server starts on it, and the recount holds at the backup's
// moment — every order in a legal state, each aisle's stock down by exactly its dispensed orders, no
// refund reserved without its refund rows, the sales rollups equal to the orders, the task's counters equal
// to its number rows, every stored file present, and the machines' sealed keys open (a signed call passes).
// Devices send a task (its image and number file stored) all along: its counters equal its number rows,
// each rollup equals the orders counted again key by key, and every sealed secret opens with the restored key.
// SQLite: `npm run backup` / `npm run restore`'s functions; PostgreSQL: pg_dump -Fc and pg_restore.

const postgres = testDbKind() === 'postgres';
const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `huiyun-${name}-`));
  dirs.push(dir);
  return dir;
};
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Uploads a number file and imports it into a new task, over HTTP: a stored file and number rows. */
async function importNumbers(live: ServerOnTestDatabase, token: string, lines: number): Promise<number> {
  const now = Date.now();
  const { taskId } = await live.db.insertInto('sync_task').values({ ...TASK_DEFAULTS, taskName: `备份演练 ${lines}`, userId: 1, deptId: 1, taskStatus: 0, addTime: now, editTime: now })
    .returning('taskId').executeTakeFirstOrThrow();
  const numbers = Array.from({ length: lines }, (_, i) => `1${['38', '86', '33', '99'][i % 4]}${String(10_000_000 + i).slice(-8)}`).join('\n');
  const uploaded = await uploadOverHttp(live.server.url, token, 'numbers', 'numbers.txt', Buffer.from(numbers));
  const imported = await postOverHttp(live.server.url, token, '/sync/uploadTaskData', { taskId, fileNo: uploaded.fileNo, fileName: 'numbers.txt', fileUrl: '' });
  expect(imported.success, imported.msg).toBe(true);
  return taskId;
}

/** Every sealed secret (the machines' terminal keys, the 支付配置's secrets) opens with the key in `dataDir`; answers how many. */
async function openSealed(db: Kysely<Database>, dataDir: string): Promise<number> {
  const box = loadSecretBox({ dataDir, paySecretPreviousKeys: [] }, () => {});
  let opened = 0;
  for (const { table, columns } of sealedColumns) {
    const rows = await db.selectFrom(table as 'pay_machine').selectAll().execute() as unknown as Record<string, string | null>[];
    for (const row of rows) {
      for (const column of columns) {
        if (!row[column]) continue;
        box.open(sealPurpose(table, column), row[column]!);
        opened++;
      }
    }
  }
  return opened;
}

/** What must hold in any restored copy, whatever moment it was taken at. */
async function recount(db: Kysely<Database>, uploadsDir: string | undefined): Promise<string[]> {
  const problems: string[] = [];
  const legal = new Set<number>(Object.values(OrderStatus));
  const statuses = await db.selectFrom('pay_order').select(['orderStatus']).groupBy('orderStatus').execute();
  for (const { orderStatus } of statuses) if (!legal.has(orderStatus)) problems.push(`orders in status ${orderStatus}`);
  // (the drill's machines, filled to capacity before they sold; the demo machines start part-full)
  const aisles = await db.selectFrom('pay_aisle').innerJoin('pay_machine', 'pay_machine.machineId', 'pay_aisle.machineId')
    .select(['pay_aisle.aisleId', 'pay_aisle.capacity', 'pay_aisle.stock']).where('pay_machine.machineNo', 'like', 'BKP-%').execute();
  const dispensed = new Map((await db.selectFrom('pay_order').select(['aisleId', (eb) => eb.fn.countAll<number>().as('n')])
    .where('orderStatus', '=', OrderStatus.dispensed).where('transType', '=', TransType.consume).groupBy('aisleId').execute()).map((r) => [r.aisleId, Number(r.n)]));
  const moved = aisles.filter((a) => a.capacity - a.stock !== (dispensed.get(a.aisleId) ?? 0));
  if (moved.length) problems.push(`${moved.length} aisles whose stock moved by other than their dispensed orders`);
  const reserved = await db.selectFrom('pay_order as o').select(['o.orderNo', 'o.reservedAmount', 'o.refundedAmount'])
    .select((eb) => [
      eb.selectFrom('pay_order as r').select(sql<number>`coalesce(sum(-r."payAmount"), 0)`.as('s')).whereRef('r.parentId', '=', 'o.orderId').where('r.orderStatus', 'in', [OrderStatus.refundCreated, OrderStatus.refunding]).as('open'),
      eb.selectFrom('pay_order as r').select(sql<number>`coalesce(sum(-r."payAmount"), 0)`.as('s')).whereRef('r.parentId', '=', 'o.orderId').where('r.orderStatus', '=', OrderStatus.refunded).as('done'),
    ]).where('o.transType', '=', TransType.consume).execute();
  const unbacked = reserved.filter((o) => Number(o.reservedAmount) !== Number(o.open ?? 0) || Number(o.refundedAmount) !== Number(o.done ?? 0));
  if (unbacked.length) problems.push(`${unbacked.length} orders whose reserved or refunded amount is not their refund rows' (${unbacked[0]!.orderNo})`);
  const rolled = await sql<{ created: number; paid: number; amount: number }>`select sum("createdCount") as created, sum("paidCount") as paid, sum("paidAmount") as amount from
    (select "createdCount", "paidCount", "paidAmount" from chart_dept_day union all select "createdCount", "paidCount", "paidAmount" from chart_pending) counted`.execute(db);
  const ordered = await sql<{ created: number; paid: number; amount: number }>`select count(*) as created, count("payTime") as paid,
    coalesce(sum(case when "payTime" is null then 0 else "payAmount" end), 0) as amount from pay_order where "transType" = 1`.execute(db);
  for (const k of ['created', 'paid', 'amount'] as const) {
    if (Number(rolled.rows[0]![k] ?? 0) !== Number(ordered.rows[0]![k])) problems.push(`rollups ${k} ${rolled.rows[0]![k]} ≠ orders ${ordered.rows[0]![k]}`);
  }
  const tasks = await db.selectFrom('sync_task').select(['taskId', 'totalNum']).execute();
  for (const task of tasks) {
    const rows = Number((await db.selectFrom('sync_task_number').select((eb) => eb.fn.countAll().as('n')).where('taskId', '=', task.taskId).executeTakeFirstOrThrow()).n);
    if (rows !== Number(task.totalNum)) problems.push(`task ${task.taskId}: totalNum ${task.totalNum} ≠ ${rows} number rows`);
  }
  if (uploadsDir) {
    const files = await db.selectFrom('sys_upload').select('filePath').execute();
    const missing = files.filter((f) => !fs.existsSync(path.join(uploadsDir, ...f.filePath.split('/'))));
    if (missing.length) problems.push(`${missing.length} stored files missing (${missing[0]!.filePath})`);
  }
  return problems;
}

describe('the restore drill', () => {
  it('backs up while machines sell, restores into an empty place, and the recount holds at the backup\'s moment', { timeout: 120_000 }, async () => {
    const live = await serverOnTestDatabase();
    closers.push(live.close);
    const token = await login(live.server.url);
    const machines = await prepareMachines({ server: live.server.url, admin: 'admin', password: ADMIN_PASSWORD, count: 4, prefix: 'BKP' });
    const firstTask = await importNumbers(live, token, 2_000);
    const sending = await sendingTaskOverHttp({ url: live.server.url, db: live.db, token, machineCodes: ['bkp-1', 'bkp-2', 'bkp-3'], numbers: 3_000, codePrefix: 'BKPDEV' });
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const selling = runTerminals({ server: live.server.url, machines, rate: Infinity, dispenseFail: 0.2, abandon: 0.1, durationMs: 4_000, random });
    const fleet = startDevices({ server: live.server.url, codes: sending.codes, machinePrefix: 'bkp', speed: Infinity, failRate: 0.1, reportEvery: 5, retry: { firstDelayMs: 50, maxDelayMs: 500 }, random });
    closers.push(async () => { fleet.kill(); await fleet.done.catch(() => {}); });
    const importing = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      return importNumbers(live, token, 20_000);
    })();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    while (fleet.stats.sent < 100) await new Promise((resolve) => setTimeout(resolve, 20)); // the devices are sending

    const backupDir = path.join(tempDir('backup'), 'copy');
    let restoredDb: Kysely<Database>;
    let restoredDir: string;
    if (!postgres) {
      const manifest = await backupDataDir({ dataDir: live.dataDir, to: backupDir, withKey: true });
      expect(manifest.counts.pay_order).toBeGreaterThan(0);
      expect(manifest.key).toBe('included');
      expect(fs.existsSync(path.join(backupDir, 'pay-secret.key'))).toBe(true);
    } else {
      fs.mkdirSync(backupDir);
      execFileSync('pg_dump', ['-Fc', '-f', path.join(backupDir, 'huiyun.dump'), live.databaseUrl!]);
      fs.cpSync(path.join(live.dataDir, 'uploads'), path.join(backupDir, 'uploads'), { recursive: true });
      fs.copyFileSync(path.join(live.dataDir, 'pay-secret.key'), path.join(backupDir, 'pay-secret.key'));
    }
    const stats = await selling;
    expect(stats.errors, stats.lastError).toBe(0);
    await importing;
    fleet.stop();
    expect((await fleet.done).errors).toBe(0);

    restoredDir = path.join(tempDir('restored'), 'data');
    let databaseUrl: string | undefined;
    if (!postgres) {
      restoreDataDir({ from: backupDir, dataDir: restoredDir });
      expect(() => restoreDataDir({ from: backupDir, dataDir: restoredDir })).toThrow(/not empty/);
      restoredDb = connectDatabase({ kind: 'sqlite', file: path.join(restoredDir, 'huiyun.db') });
    } else {
      const target = await createTestDatabase();
      closers.push(target.drop);
      execFileSync('pg_restore', ['--no-owner', '-d', target.url!, path.join(backupDir, 'huiyun.dump')]);
      fs.mkdirSync(restoredDir, { recursive: true });
      fs.cpSync(path.join(backupDir, 'uploads'), path.join(restoredDir, 'uploads'), { recursive: true });
      fs.copyFileSync(path.join(backupDir, 'pay-secret.key'), path.join(restoredDir, 'pay-secret.key'));
      restoredDb = target.db;
      databaseUrl = target.url;
    }
    const restored = await serverProcess({ dataDir: restoredDir, databaseUrl });
    await restored.start();
    closers.push(restored.kill);

    expect(await recount(restoredDb, path.join(restoredDir, 'uploads'))).toEqual([]);
    await expectCountersMatchRows(restoredDb, sending.taskId);
    const sent = Number((await restoredDb.selectFrom('sync_task').select('totalSendNum').where('taskId', '=', sending.taskId).executeTakeFirstOrThrow()).totalSendNum);
    expect(sent).toBeGreaterThan(0);
    for (const table of rollupNames) expect(await keptRollups(restoredDb, table), table).toEqual(await recountFromOrders(restoredDb, table));
    expect(await openSealed(restoredDb, restoredDir)).toBeGreaterThanOrEqual(machines.length);
    const sold = Number((await restoredDb.selectFrom('pay_order').select((eb) => eb.fn.countAll().as('n')).where('machineNo', 'like', 'BKP-%').executeTakeFirstOrThrow()).n);
    expect(sold).toBeGreaterThan(0);
    expect(Number((await restoredDb.selectFrom('sync_task').select('totalNum').where('taskId', '=', firstTask).executeTakeFirstOrThrow()).totalNum)).toBe(2_000);
    // the machines' terminal keys, sealed in the database, open with the restored key: a signed call passes
    const beat = await new TerminalClient(restored.url, machines[0]!.machineNo, machines[0]!.key).call('/heartbeat', { aisles: [] });
    expect(beat.body.success, beat.body.msg).toBe(true);
    // the live server went on: the copy is the backup's moment, not the end of the run
    const liveSold = Number((await live.db.selectFrom('pay_order').select((eb) => eb.fn.countAll().as('n')).where('machineNo', 'like', 'BKP-%').executeTakeFirstOrThrow()).n);
    expect(liveSold).toBeGreaterThan(sold);
    if (!postgres) await restoredDb.destroy();
  });
});
