import fs from 'node:fs';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  Carrier, carrierKeys, messages, TaskStatus, UploadKind, type CarrierKey, type UploadTaskDataRequest, type UploadTaskDataResult,
} from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { dialectOf } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../http/errors.ts';
import type { Access } from '../auth/access.ts';
import { absolutePathOf } from '../files/storage.ts';
import { parseNumberFile } from './number-file.ts';
import { loadVisibleTask } from './task-access.ts';

// /sync/uploadTaskData (PRODUCT §4): the numbers of an uploaded .txt file into a task.
//
// One transaction per upload: the numbers and every counter of the task (totalNum, the carrier split,
// duplicateNum, invalidNum, blockedNum) are written together or not at all — a read error half-way, a
// task deleted meanwhile (its foreign key / the counter update finds no row) roll everything back.
//
// Speed. The file is streamed through parseNumberFile (distinct valid numbers, carrier, counts). The
// numbers are gathered in a typed array of up to CHUNK numbers, sorted, then inserted in slices with
// ONE short statement per slice whose only big parameter is the slice itself: `insert … select <task>,
// value >> 3, value & 7 from json_each(?)` on SQLite (a JSON array: the SQL text is short and constant,
// so no statement with thousands of placeholders is prepared per slice through Kysely — node:sqlite's
// raw handle is not needed) and `… from unnest($::bigint[])` on PostgreSQL.
//   - A task without numbers gets plain inserts in one phone-ordered pass.
//   - A task holding numbers gets `on conflict do nothing` against the unique index (taskId, phone),
//     carrier by carrier, so each statement's row count is that carrier's inserted count.
// Sorting is what makes it fast: 950k numbers inserted in file (random) order cost random B-tree page
// visits in the unique index (27 s measured with SQLite's default 2 MB page cache on the loaded bench
// machine); in phone order they are appended (1.2 s). The price: a task's numbers get their ids (so
// sending and export order) in phone order per chunk, not in file order.
// Memory: the parser's distinct-number set plus one chunk (8 bytes a number), whatever the file length.

/** Numbers gathered (all carriers together) before they are sorted and written. */
const CHUNK = 1 << 20;
/** Numbers per insert statement. */
const SLICE: Record<'sqlite' | 'postgres', number> = { sqlite: 20_000, postgres: 50_000 };

const CARRIERS = [Carrier.mobile, Carrier.unicom, Carrier.telecom, Carrier.other] as const;

export type ImportResult = UploadTaskDataResult & { encoding: string };

/** The request of /sync/uploadTaskData: checks, then imports the caller's stored number file. */
export async function uploadTaskData(ctx: AppContext, caller: Access, input: UploadTaskDataRequest): Promise<ImportResult> {
  const task = await loadVisibleTask(ctx, caller, input.taskId);
  if (task.taskStatus === TaskStatus.completed) throw new AppError(messages.upload.taskCompleted);
  const upload = await ctx.db.selectFrom('sys_upload').selectAll().where('fileNo', '=', input.fileNo).executeTakeFirst();
  if (!upload) throw notFound(messages.upload.fileNotFound);
  if (upload.userId !== caller.userId) throw forbidden();
  if (upload.kind !== UploadKind.numbers) throw new AppError(messages.upload.notNumberFile);
  const file = absolutePathOf(ctx, upload.filePath);
  if (!file || !fs.existsSync(file)) throw notFound(messages.upload.fileNotFound);
  return importNumbers(ctx, { taskId: task.taskId, deptId: task.deptId }, fs.createReadStream(file, { highWaterMark: 1 << 18 }));
}

/**
 * Streams `input` (a number file's bytes) into task `taskId`, skipping numbers on the do-not-contact
 * list of company `deptId`, in one transaction that also moves the task's counters.
 */
export async function importNumbers(
  ctx: AppContext,
  target: { taskId: number; deptId: number | null },
  input: AsyncIterable<Uint8Array>,
  options: { chunkSize?: number } = {},
): Promise<ImportResult> {
  const dialect = dialectOf(ctx.db);
  return ctx.db.transaction().execute(async (trx) => {
    // The task, locked on PostgreSQL so it cannot be deleted or completed under the upload.
    let check = trx.selectFrom('sync_task').select('taskStatus').where('taskId', '=', target.taskId);
    if (dialect === 'postgres') check = check.forUpdate();
    const task = await check.executeTakeFirst();
    if (!task) throw notFound(messages.common.notFoundRecord);
    if (task.taskStatus === TaskStatus.completed) throw new AppError(messages.upload.taskCompleted);
    const blocked = await loadBlacklist(trx, target.deptId);
    // A task without numbers cannot conflict with them (the parser already dropped repeats within the
    // file, and the lock / SQLite's single writer keeps other uploads out): plain inserts, cheaper than
    // `on conflict` (PostgreSQL's speculative insertion costs ~30% more per row).
    const held = await trx.selectFrom('sync_task_number').select('id').where('taskId', '=', target.taskId).limit(1).executeTakeFirst();
    // (the unique index still stands guard: a conflict there would fail the upload, never miscount it)
    const writer = new SortedWriter(trx, dialect, target.taskId, options.chunkSize ?? CHUNK, held !== undefined);
    let blockedCount = 0;
    const summary = await parseNumberFile(input, async ({ numbers, carriers }) => {
      blockedCount += writer.addBatch(numbers, carriers, blocked);
      if (writer.full) await writer.flush();
    });
    await writer.flush();

    const inserted = writer.inserted;
    const valid = inserted[Carrier.mobile] + inserted[Carrier.unicom] + inserted[Carrier.telecom] + inserted[Carrier.other];
    const alreadyInTask = writer.offered - valid;
    const duplicates = summary.duplicatesInFile + alreadyInTask;
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
        blockedNum: eb('blockedNum', '+', blockedCount),
        editTime: ctx.now(),
      }))
      .where('taskId', '=', target.taskId)
      .where('taskStatus', '!=', TaskStatus.completed)
      .executeTakeFirst();
    // Cannot happen after the check above (SQLite runs one transaction at a time, PostgreSQL holds the
    // row lock); kept so that counters and numbers never disagree.
    if (Number(updated.numUpdatedRows) !== 1) throw notFound(messages.common.notFoundRecord);

    const byCarrier = {} as Record<CarrierKey, number>;
    for (const carrier of CARRIERS) byCarrier[carrierKeys[carrier]] = inserted[carrier];
    return {
      valid,
      duplicates,
      invalid: summary.invalid,
      blocked: blockedCount,
      byCarrier,
      invalidSamples: summary.invalidSamples,
      encoding: summary.encoding,
    };
  });
}

/** The company's do-not-contact numbers, or null when it has none (the usual case: no lookups at all). */
async function loadBlacklist(trx: Transaction<Database>, deptId: number | null): Promise<Set<number> | null> {
  if (deptId === null) return null;
  const rows = await trx.selectFrom('sync_blacklist').select('phone').where('deptId', '=', deptId).execute();
  return rows.length ? new Set(rows.map((r) => Number(r.phone))) : null;
}

/**
 * Gathers the numbers of a chunk, then writes them in phone order. A number is held as phone × 8 +
 * carrier (< 2^53), so one sort orders by phone and the carrier rides along; the insert splits it
 * again in SQL (value >> 3, value & 7).
 */
class SortedWriter {
  private buffer = new Float64Array(1 << 16);
  private held = 0;
  /** Numbers handed to the database (distinct, not blocked); inserted ones counted per carrier. */
  offered = 0;
  readonly inserted: number[] = [0, 0, 0, 0, 0];
  private readonly db: Kysely<Database>;
  private readonly dialect: 'sqlite' | 'postgres';
  private readonly taskId: number;
  private readonly chunkSize: number;
  private readonly mayConflict: boolean;

  constructor(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', taskId: number, chunkSize: number, mayConflict: boolean) {
    this.db = db;
    this.dialect = dialect;
    this.taskId = taskId;
    this.chunkSize = chunkSize;
    this.mayConflict = mayConflict;
  }

  get full(): boolean {
    return this.held >= this.chunkSize;
  }

  /** Takes a parser batch, leaving out numbers on the do-not-contact list; answers how many were left out. */
  addBatch(numbers: number[], carriers: Uint8Array, blocked: Set<number> | null): number {
    if (this.held + numbers.length > this.buffer.length) {
      const grown = new Float64Array(Math.max(this.buffer.length * 2, this.held + numbers.length));
      grown.set(this.buffer.subarray(0, this.held));
      this.buffer = grown;
    }
    const buffer = this.buffer;
    let at = this.held;
    for (let i = 0; i < numbers.length; i += 1) {
      const phone = numbers[i];
      if (blocked !== null && blocked.has(phone)) continue;
      buffer[at] = phone * 8 + carriers[i];
      at += 1;
    }
    const skipped = numbers.length - (at - this.held);
    this.held = at;
    return skipped;
  }

  async flush(): Promise<void> {
    if (this.held === 0) return;
    const values = this.buffer.subarray(0, this.held).sort();
    this.held = 0;
    this.offered += values.length;
    if (!this.mayConflict) {
      // One pass in phone order, every row appended at the end of the task's part of the index. No
      // conflict is possible, so what was offered per carrier is what went in (a violation would throw).
      for (const encoded of values) this.inserted[encoded % 8] += 1;
      await this.insertSlices(values);
      return;
    }
    // The task held numbers: each carrier's numbers apart (still in phone order), so each statement's
    // row count is the inserted count of one carrier.
    for (const carrier of CARRIERS) {
      const own = values.filter((encoded) => encoded % 8 === carrier);
      this.inserted[carrier] += await this.insertSlices(own);
    }
  }

  /** Inserts sorted encoded numbers in slices; answers how many were new to the task. */
  private async insertSlices(values: Float64Array): Promise<number> {
    const slice = SLICE[this.dialect];
    let inserted = 0;
    for (let start = 0; start < values.length; start += slice) inserted += await this.insert(values.subarray(start, start + slice));
    return inserted;
  }

  private async insert(values: Float64Array): Promise<number> {
    const onConflict = this.mayConflict ? sql`on conflict do nothing` : sql``;
    if (this.dialect === 'postgres') {
      const result = await sql`
        insert into sync_task_number ("taskId", "phone", "carrier")
        select ${this.taskId}, v >> 3, v & 7 from unnest(${listOf(values, 123, 125)}::bigint[]) as v
        ${onConflict}`.execute(this.db);
      return Number(result.numAffectedRows ?? 0);
    }
    // `where true` keeps SQLite from reading `on conflict` as a join constraint of the select.
    const result = await sql`
      insert into sync_task_number ("taskId", "phone", "carrier")
      select ${this.taskId}, value >> 3, value & 7 from json_each(${listOf(values, 91, 93)}) where true
      ${onConflict}`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }
}

/**
 * '[v,v,…]' (JSON, SQLite) or '{v,v,…}' (an array literal, PostgreSQL) of encoded numbers, digits
 * written straight into one buffer: Float64Array.join would make a garbage string per number (a third
 * of the insert time and ~30 MB of heap churn per million). Values are below 1.6e11 (phone < 2e10, × 8),
 * so their top part (value / 1e6) fits int32 arithmetic.
 */
function listOf(values: Float64Array, open: number, close: number): string {
  const out = Buffer.allocUnsafe(values.length * 13 + 2);
  let at = 0;
  out[at++] = open;
  for (let i = 0; i < values.length; i += 1) {
    if (i > 0) out[at++] = 44; // ,
    const value = values[i];
    let high = Math.floor(value / 1e6);
    let low = value - high * 1e6;
    const width = high >= 100_000 ? 6 : high >= 10_000 ? 5 : high >= 1_000 ? 4 : high >= 100 ? 3 : high >= 10 ? 2 : 1;
    for (let k = width - 1; k >= 0; k -= 1) {
      out[at + k] = 48 + (high % 10);
      high = (high / 10) | 0;
    }
    at += width;
    for (let k = 5; k >= 0; k -= 1) {
      out[at + k] = 48 + (low % 10);
      low = (low / 10) | 0;
    }
    at += 6;
  }
  out[at++] = close;
  return out.toString('latin1', 0, at);
}
