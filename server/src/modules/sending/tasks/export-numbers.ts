import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { exportTypeLabel, TaskExportType, TaskNumberState, type ExportTaskQuery } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Access } from '../../../http/caller.ts';
import { sanitizeFileName } from '../../../infra/file-storage.ts';
import { loadVisibleTask } from './task-access.ts';

// /sync/exportTask (PRODUCT §4): a task's numbers as a streamed .txt, one number a line, CRLF (so
// Windows Notepad shows lines). Memory stays flat: rows are read in id order a window of PAGE ids at a
// time (keyset on id: at most PAGE rows a query), each window turned into one chunk of text and handed
// to the response stream, which asks for the next one only when the client has taken the previous.
// The listing is not a snapshot: a number that changes state while the export runs may or may not be
// in it; no number is ever listed twice.
//
// The window query walks the primary key (id); `"taskId" + 0` keeps the planners from picking an index
// on taskId instead. The window is bounded on both ends (not `id > last … limit N`): PostgreSQL without
// statistics scanned and top-N-sorted the task's whole remaining range for every page (13.5 s for 1M
// numbers). A window without rows jumps to the task's next id by an index seek, so other tasks' ids
// between two uploads cost one query, not one per PAGE ids.

const PAGE = 10_000;

export type NumberExport = { fileName: string; body: Readable };

export async function exportTaskNumbers(ctx: AppContext, caller: Access, query: ExportTaskQuery): Promise<NumberExport> {
  const task = await loadVisibleTask(ctx, caller, query.taskId);
  // a '/' in a task name is part of the name, not a folder
  const fileName = sanitizeFileName(`${task.taskName.replace(/[\\/]/g, '_')}-${exportTypeLabel(query.exportType)}.txt`);
  return { fileName, body: Readable.from(pages(ctx, task.taskId, query.exportType), { objectMode: false }) };
}

const ALL_STATES = Object.values(TaskNumberState) as number[];

// 未发送: not sent yet or finally failed (worth another channel); blocked numbers are on the
// do-not-contact list and left out of it.
const statesOf = (type: ExportTaskQuery['exportType']): number[] =>
  type === TaskExportType.all ? ALL_STATES
  : type === TaskExportType.sent ? [TaskNumberState.sent]
  : [TaskNumberState.pending, TaskNumberState.leased, TaskNumberState.failed];

async function* pages(ctx: AppContext, taskId: number, type: ExportTaskQuery['exportType']): AsyncGenerator<Buffer> {
  const states = statesOf(type);
  const high = await edgeId(ctx, taskId, states, 'max', 0);
  let next = await edgeId(ctx, taskId, states, 'min', 0);
  const stateFilter = type === TaskExportType.all ? sql`` : sql`and "state" in (${sql.join(states)})`;
  while (next !== null && high !== null && next <= high) {
    // ids next … next + PAGE - 1: at most PAGE rows, whatever the planner picks
    const upto = Math.min(high, next + PAGE - 1);
    const { rows } = await sql<{ id: number; phone: number }>`
      select "id", "phone" from sync_task_number
      where "id" >= ${next} and "id" <= ${upto} and "taskId" + 0 = ${taskId} ${stateFilter}
      order by "id"`.execute(ctx.db);
    if (rows.length > 0) yield linesOf(rows);
    // an empty window jumps to the task's next id in these states (past other tasks' id ranges)
    next = rows.length > 0 ? upto + 1 : await edgeId(ctx, taskId, states, 'min', upto);
  }
}

/**
 * The smallest (after `after`) or largest id of the task's numbers in these states: one seek per state
 * on the (taskId, state, id) index — ordered by its columns with limit 1, so no planner (PostgreSQL
 * before statistics included) walks the primary key instead.
 */
async function edgeId(ctx: AppContext, taskId: number, states: number[], edge: 'min' | 'max', after: number): Promise<number | null> {
  const direction = edge === 'min' ? 'asc' : 'desc';
  let found: number | null = null;
  for (const state of states) {
    const row = await ctx.db
      .selectFrom('sync_task_number')
      .select('id')
      .where('taskId', '=', taskId)
      .where('state', '=', state)
      .where('id', '>', after)
      .orderBy('taskId', direction)
      .orderBy('state', direction)
      .orderBy('id', direction)
      .limit(1)
      .executeTakeFirst();
    if (!row) continue;
    const id = Number(row.id);
    if (found === null || (edge === 'min' ? id < found : id > found)) found = id;
  }
  return found;
}

/** 'phone\r\n' for each row, digits written straight into one buffer (no per-row strings). */
function linesOf(rows: { phone: number | string | bigint }[]): Buffer {
  const out = Buffer.allocUnsafe(rows.length * 13);
  let at = 0;
  for (const row of rows) {
    const phone = Number(row.phone);
    if (phone >= 1e10 && phone < 1e11 && Number.isInteger(phone)) {
      // two small integers (5 + 6 digits) so the digit loop stays in int32 arithmetic
      let high = Math.floor(phone / 1e6);
      let low = phone - high * 1e6;
      for (let k = 10; k >= 5; k -= 1) {
        out[at + k] = 48 + (low % 10);
        low = (low / 10) | 0;
      }
      for (let k = 4; k >= 0; k -= 1) {
        out[at + k] = 48 + (high % 10);
        high = (high / 10) | 0;
      }
      at += 11;
    } else {
      // not an 11-digit number (never stored by the upload): its decimal text, within the 13 bytes
      at += out.write(String(row.phone).slice(0, 11), at, 'latin1');
    }
    out[at++] = 13;
    out[at++] = 10;
  }
  return out.subarray(0, at);
}
