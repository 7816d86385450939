import { sql, type Transaction } from 'kysely';
import {
  Carrier, carrierKeys, messages, TaskStatus, type CarrierKey, type UploadTaskDataRequest, type UploadTaskDataResult,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { dialectOf } from '../../../db/dialect.ts';
import type { Database } from '../../../db/schema.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, notFound } from '../../../http/errors.ts';
import { checkpointInBackground, deferAutoCheckpoint, sqliteFileOf } from '../../../db/sqlite-checkpoint.ts';
import { ownNumberFileInput, type NumberSlice, sliceInThread, sliceInWorker, type NumberInput } from '../number-files/index.ts';
import { loadVisibleTask } from './task-access.ts';

// /sync/uploadTaskData (PRODUCT §4): the numbers of an uploaded .txt file into a task.
//
// One transaction per upload: the numbers and every counter of the task (totalNum, the carrier split,
// duplicateNum, invalidNum, blockedNum) are written together or not at all — a read error half-way, a
// task deleted meanwhile (its foreign key / the counter update finds no row) roll everything back.
//
// Order: a task's numbers get their ids in the order they first appear in the file (the sending
// engine claims pending numbers in id order), after the numbers of earlier uploads.
//
// How (docs/performance.md has the measurements):
//   - Everything is decided before the database sees a row: number-files/upload-slices.ts parses the file, drops
//     repeats, numbers on the company's do-not-contact list and numbers the task already holds (read
//     first, one string), and cuts the rest into slices, each the one parameter of one short constant
//     statement: `insert … select <task>, v >> 3, v & 7 from json_each(cast(? as text))` (SQLite) /
//     `… from unnest($::bigint[])` (PostgreSQL). No `on conflict`: a conflict (which the task lock and
//     SQLite's single writer rule out) fails the upload instead of miscounting it.
//   - Files of WORKER_MIN_BYTES and more are parsed on a worker thread that reads the stored file
//     itself (number-files/upload-slicing.ts) while this thread inserts: node:sqlite runs statements synchronously
//     here, so that is the only overlap to be had.
//   - SQLite: in file order the rows go to the end of the table and of the (taskId, state, id) index.
//     (A unique (taskId, phone) index, where they landed at random places, cost half the upload; the
//     distinctness decided here under the task's lock replaced it: migration 0005.) cache_size is raised
//     for the transaction so big tasks' index pages stay in memory. Slices are large (up to 200,000
//     numbers): each statement first copies every page it touches that existed before it into
//     SQLite's statement journal (the foreign key makes every multi-row insert need one).
//     The commit's automatic WAL checkpoint (≈ 0.3 s for a million numbers) is deferred to a worker
//     thread after the commit (db/sqlite-checkpoint.ts), off the request.
// Memory: the worker (≈ 35 MB: a V8 isolate and Node's TypeScript stripper), its distinct-number sets
// (≈ 8 MB a million numbers, file and task), two slices on each side, the page cache while the upload
// runs (≈ 16 bytes a number of the task).

/** Most numbers per insert statement. */
const SLICE: Record<'sqlite' | 'postgres', number> = { sqlite: 200_000, postgres: 50_000 };
/** Files at least this large are parsed on a worker thread (starting one costs ≈ 0.1 s, more on a
 * loaded machine: a V8 isolate, and Node's TypeScript stripper set up again). */
const WORKER_MIN_BYTES = 1 << 20;
/** SQLite page cache while an upload runs: about this many bytes per number of the task (sized when
 * the unique phone index still existed: 16 MB as fast as 64 MB on 1M numbers), within the bounds below. */
const CACHE_BYTES_PER_NUMBER = 16;
const CACHE_MIN_KIB = 8 << 10;
const CACHE_MAX_KIB = 256 << 10;
/** SQLite uploads inserting at least this many numbers checkpoint the WAL after the answer. */
const DEFER_CHECKPOINT_NUMBERS = 50_000;
/** Bytes per line of a typical number file ('13800138000\r\n'), to guess a file's numbers by its size. */
const BYTES_PER_LINE = 12;

const CARRIERS = [Carrier.mobile, Carrier.unicom, Carrier.telecom, Carrier.other] as const;

export type ImportResult = UploadTaskDataResult & { encoding: string };

/** The request of /sync/uploadTaskData: checks, then imports the caller's stored number file. */
export async function uploadTaskData(ctx: AppContext, caller: Access, input: UploadTaskDataRequest): Promise<ImportResult> {
  const task = await loadVisibleTask(ctx, caller, input.taskId);
  if (task.taskStatus === TaskStatus.completed) throw new AppError(messages.upload.taskCompleted);
  const { input: file, size } = await ownNumberFileInput(ctx, caller, input.fileNo);
  return importNumbers(ctx, { taskId: task.taskId, deptId: task.deptId }, file, {
    worker: size >= WORKER_MIN_BYTES,
    sizeHint: size,
  });
}

export type ImportOptions = {
  /** Parse on a worker thread (default: in this thread). */
  worker?: boolean;
  /** The file's size in bytes, when known: sizes SQLite's page cache for the upload. */
  sizeHint?: number;
  /** Numbers per insert statement (tests). */
  sliceSize?: number;
};

/**
 * Reads `input` (a number file: a stored file's path, or its bytes as a stream) into task `taskId`,
 * skipping numbers on the do-not-contact list of company `deptId`, in one transaction that also
 * moves the task's counters.
 */
export async function importNumbers(
  ctx: AppContext,
  target: { taskId: number; deptId: number | null },
  input: NumberInput,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const after: AfterCommit = { checkpointFile: null };
  try {
    return await ctx.db.transaction().execute((trx) => importInTransaction(trx, ctx, target, input, options, after));
  } finally {
    // Also after a failed commit: the connection gets its automatic checkpoint back either way.
    if (after.checkpointFile) void checkpointInBackground(ctx.db, after.checkpointFile);
  }
}

/** What is left to do once the transaction has ended. */
type AfterCommit = { checkpointFile: string | null };

async function importInTransaction(
  trx: Transaction<Database>,
  ctx: AppContext,
  target: { taskId: number; deptId: number | null },
  input: NumberInput,
  options: ImportOptions,
  after: AfterCommit,
): Promise<ImportResult> {
  const dialect = dialectOf(ctx.db);
  // The task, locked on PostgreSQL so it cannot be deleted or completed under the upload.
  let check = trx.selectFrom('sync_task').select('taskStatus').where('taskId', '=', target.taskId);
  if (dialect === 'postgres') check = check.forUpdate();
  const task = await check.executeTakeFirst();
  if (!task) throw notFound(messages.common.notFoundRecord);
  if (task.taskStatus === TaskStatus.completed) throw new AppError(messages.upload.taskCompleted);
  const blocked = await loadBlacklist(trx, target.deptId);
  const existing = await loadTaskNumbers(trx, dialect, target.taskId);

  const cache = dialect === 'sqlite' ? await raiseSqliteCache(trx, existing, options.sizeHint) : null;
  try {
    const inserted = [0, 0, 0, 0, 0];
    const insert = async (slice: NumberSlice) => {
      const rows = await insertSlice(trx, dialect, target.taskId, slice.list);
      // Cannot differ (no `on conflict`: a conflict throws); checked so counters never lie.
      if (rows !== slice.count) throw new Error(`number upload: ${rows} rows inserted of ${slice.count}`);
      for (const carrier of CARRIERS) inserted[carrier] += slice.byCarrier[carrier];
    };
    const slicerOptions = { dialect, sliceSize: options.sliceSize ?? SLICE[dialect], blocked, existing };
    const summary = await (options.worker ? sliceInWorker : sliceInThread)(input, slicerOptions, insert);

    const valid = inserted[Carrier.mobile] + inserted[Carrier.unicom] + inserted[Carrier.telecom] + inserted[Carrier.other];
    const duplicates = summary.duplicatesInFile + summary.alreadyInTask;
    const updated = await trx
      .updateTable('sync_task')
      .set((eb) => ({
        totalNum: eb('totalNum', '+', valid),
        mcount: eb('mcount', '+', inserted[Carrier.mobile]),
        ucount: eb('ucount', '+', inserted[Carrier.unicom]),
        tcount: eb('tcount', '+', inserted[Carrier.telecom]),
        ocount: eb('ocount', '+', inserted[Carrier.other]),
        duplicateNum: eb('duplicateNum', '+', duplicates),
        invalidNum: eb('invalidNum', '+', summary.invalid),
        blockedNum: eb('blockedNum', '+', summary.blocked),
        editTime: ctx.now(),
      }))
      .where('taskId', '=', target.taskId)
      .where('taskStatus', '!=', TaskStatus.completed)
      .executeTakeFirst();
    // Cannot happen after the check above (SQLite runs one transaction at a time, PostgreSQL holds the
    // row lock); kept so that counters and numbers never disagree.
    if (Number(updated.numUpdatedRows) !== 1) throw notFound(messages.common.notFoundRecord);

    if (cache && valid >= DEFER_CHECKPOINT_NUMBERS) {
      after.checkpointFile = await sqliteFileOf(trx);
      if (after.checkpointFile) await deferAutoCheckpoint(trx);
    }
    const byCarrier = {} as Record<CarrierKey, number>;
    for (const carrier of CARRIERS) byCarrier[carrierKeys[carrier]] = inserted[carrier];
    return {
      valid,
      duplicates,
      invalid: summary.invalid,
      blocked: summary.blocked,
      byCarrier,
      invalidSamples: summary.invalidSamples,
      encoding: summary.encoding,
    };
  } finally {
    // Set back before the commit: pages above the old size are let go once written.
    if (cache) await sql`pragma cache_size = ${sql.raw(String(cache.previous))}`.execute(trx);
  }
}

/** The company's do-not-contact numbers, or null when it has none (the usual case: no lookups at all). */
async function loadBlacklist(trx: Transaction<Database>, deptId: number | null): Promise<number[] | null> {
  if (deptId === null) return null;
  const rows = await trx.selectFrom('sync_blacklist').select('phone').where('deptId', '=', deptId).execute();
  return rows.length ? rows.map((r) => Number(r.phone)) : null;
}

/** The numbers the task already holds, comma-separated in one string (no row objects), or null. */
async function loadTaskNumbers(trx: Transaction<Database>, dialect: 'sqlite' | 'postgres', taskId: number): Promise<string | null> {
  const held = await trx.selectFrom('sync_task_number').select('id').where('taskId', '=', taskId).limit(1).executeTakeFirst();
  if (!held) return null;
  const list = dialect === 'postgres'
    ? sql<{ list: string | null }>`select string_agg("phone"::text, ',') as list from sync_task_number where "taskId" = ${taskId}`
    : sql<{ list: string | null }>`select group_concat("phone") as list from sync_task_number where "taskId" = ${taskId}`;
  const { rows } = await list.execute(trx);
  return rows[0]?.list ?? null;
}

/** Raises this connection's page cache for the upload; answers the size to set back. */
async function raiseSqliteCache(trx: Transaction<Database>, existing: string | null, sizeHint: number | undefined): Promise<{ previous: number }> {
  const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(trx);
  const previous = Number(rows[0].cache_size);
  const numbers = (existing ? existing.length / BYTES_PER_LINE : 0) + (sizeHint ?? 0) / BYTES_PER_LINE;
  const kib = Math.min(CACHE_MAX_KIB, Math.max(CACHE_MIN_KIB, Math.ceil((numbers * CACHE_BYTES_PER_NUMBER) / 1024)));
  await sql`pragma cache_size = ${sql.raw(String(-kib))}`.execute(trx);
  return { previous };
}

/** One slice in one statement, rows in the list's order (so ids in file order); answers the rows inserted. */
async function insertSlice(trx: Transaction<Database>, dialect: 'sqlite' | 'postgres', taskId: number, list: Uint8Array): Promise<number> {
  // SQLite takes the bytes as they are (a blob, read as text); node-postgres would send a Uint8Array
  // as bytea, so PostgreSQL gets the string.
  const result = dialect === 'postgres'
    ? await sql`
        insert into sync_task_number ("taskId", "phone", "carrier")
        select ${taskId}, v >> 3, v & 7 from unnest(${Buffer.from(list.buffer, list.byteOffset, list.length).toString('latin1')}::bigint[]) as v`.execute(trx)
    : await sql`
        insert into sync_task_number ("taskId", "phone", "carrier")
        select ${taskId}, value >> 3, value & 7 from json_each(cast(${list} as text))`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}
