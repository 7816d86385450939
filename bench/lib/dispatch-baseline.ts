// The dispatch bench's baseline (bench/dispatch.ts), shared with the benches that print it beside their own
// figures in the same run (bench/phones.ts): a raw SQL loop making the state changes the server makes for a
// sent number, without HTTP — claim a batch as the server's fresh claim does (the task's next pending numbers
// above its cursor; the cursor moved, a sync_batch row written), mark the numbers sent, bump the same
// counters — in transactions of the same sizes. It charges the sends to the devices whose codes' machineCode
// starts with `machinePrefix-`, in turn, as the devices did.
import { randomUUID } from 'node:crypto';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { carrierKeys, shanghaiDay, TaskNumberState, type Carrier } from '@huiyun/contract';
import { connectDatabase } from '../../server/src/db/connect.ts';
import type { Database } from '../../server/src/db/schema.ts';

/** The task's batch sizes, results per report (0: one report per batch) and the devices' machineCode prefix. */
export type BaselineShape = { batchSendNum: number; batchSendMaxNum: number; reportEvery: number; machinePrefix: string };

/** The baseline on the bench server's database: SQLite file or PostgreSQL URL. */
export function runBaseline(server: { dbKind: 'sqlite' | 'postgres'; sqliteFile?: string; databaseUrl?: string }, taskId: number, shape: BaselineShape): Promise<Baseline> {
  return server.dbKind === 'sqlite' ? Promise.resolve(sqliteBaseline(server.sqliteFile!, taskId, shape)) : postgresBaseline(server.databaseUrl!, taskId, shape);
}

export type Baseline = { label: string; seconds: number; numbers: number; batches: number; reports: number };

/** Batch sizes like the server's: uniform in the task's [batchSendNum, batchSendMaxNum]. */
const batchSize = (shape: BaselineShape) => shape.batchSendNum + Math.floor(Math.random() * (shape.batchSendMaxNum - shape.batchSendNum + 1));
const chunksOf = <T>(items: T[], shape: BaselineShape) => {
  const size = shape.reportEvery > 0 ? shape.reportEvery : items.length;
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
async function benchDevices(kdb: Kysely<Database>, machinePrefix: string) {
  const rows = await kdb.selectFrom('sync_auth_code').select(['id', 'machineCode']).where('machineCode', 'like', `${machinePrefix}-%`).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, machineCode: r.machineCode! }));
}

/** SQLite: one connection, one loop (the server has one connection too), node:sqlite prepared statements. */
export function sqliteBaseline(file: string, taskId: number, shape: BaselineShape): Baseline {
  const raw = new DatabaseSync(file, { timeout: 5000 });
  raw.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON');
  const q = () => '?';
  const devices = raw.prepare(`select "id", "machineCode" from "sync_auth_code" where "machineCode" like ? order by "id"`).all(`${shape.machinePrefix}-%`) as { id: number; machineCode: string }[];
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
    const claimed = fresh.all(taskId, claimedTo, batchSize(shape)) as { id: number; carrier: number }[];
    if (claimed.length > 0) {
      moveCursor.run(claimed.at(-1)!.id, taskId);
      insertBatch.run(batchId, taskId, device.machineCode, claimed[0].id, claimed.at(-1)!.id, claimed.length, now + 300_000, now);
    }
    raw.exec('commit');
    if (claimed.length === 0) break;
    batches += 1;
    const range = [claimed[0].id, claimed.at(-1)!.id];
    for (const chunk of chunksOf(claimed, shape)) {
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
export async function postgresBaseline(url: string, taskId: number, shape: BaselineShape): Promise<Baseline> {
  const workers = 20;
  const pool = new pg.Pool({ connectionString: url, max: workers });
  const kdb = connectDatabase({ kind: 'postgres', url });
  const devices = await benchDevices(kdb, shape.machinePrefix);
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
          name: 'claim', text: claimSql, values: [taskId, taskId, batchSize(shape), taskId, batchId, taskId, device.machineCode, now + 300_000, now],
        });
        if (rows.length === 0) return;
        const claimed = rows.map((r) => ({ id: Number(r.id), carrier: r.carrier })).sort((a, b) => a.id - b.id);
        const range = [claimed[0].id, claimed.at(-1)!.id];
        batches += 1;
        for (const chunk of chunksOf(claimed, shape)) {
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
