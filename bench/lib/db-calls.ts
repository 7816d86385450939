// What a server process asks of its database, counted in that process (bench/terminal.ts): on PostgreSQL
// every query node-postgres sends is one round trip (a message out, its answer awaited), and a statement
// unless it is transaction control (begin, commit, rollback, savepoint, release); on SQLite (in the
// process, no round trip) every statement run. Also the writes to pay_order: a counted one runs the trigger
// appending to the sales rollups' pending changes (migration 0034) inside the database, with no round trip.
// Installed by importing this module in a process whose BENCH_DB_CALLS_DIR is set (the bench's server
// child, or `--import` of it in main.ts and its workers): the counts are written over <dir>/<pid>.json every
// 50 ms, and readDbCalls sums the files of every process.
import fs from 'node:fs';
import path from 'node:path';
import { StatementSync } from 'node:sqlite';
import pg from 'pg';

export type DbCalls = { roundTrips: number; statements: number; orderWrites: number };

const CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;
const ORDER_WRITE = /(insert into|update) "pay_order"/i; // (also inside a WITH)

const RECORD_LENGTH = 128;
const checksum = (c: DbCalls) => c.roundTrips * 3 + c.statements * 7 + c.orderWrites * 11;

const counts: DbCalls = { roundTrips: 0, statements: 0, orderWrites: 0 };

function count(text: string, roundTrip: boolean): void {
  if (roundTrip) counts.roundTrips += 1;
  if (CONTROL.test(text)) return;
  counts.statements += 1;
  if (ORDER_WRITE.test(text)) counts.orderWrites += 1;
}

const dir = process.env.BENCH_DB_CALLS_DIR;
if (dir) {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0];
    count(typeof config === 'string' ? config : String((config as { text?: string } | undefined)?.text ?? ''), true);
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  for (const method of ['run', 'all', 'get', 'iterate'] as const) {
    const original = StatementSync.prototype[method] as (...args: unknown[]) => unknown;
    (StatementSync.prototype as unknown as Record<string, unknown>)[method] = function (this: StatementSync, ...args: unknown[]) {
      count(this.sourceSQL, false);
      return original.apply(this, args);
    };
  }
  // One open file written in place, a fixed-length record with its own check: a write and rename every 50 ms
  // cost the server ~3 % of its CPU in the terminal bench (a rename is ~1 ms on this machine's overlay disk).
  const fd = fs.openSync(path.join(dir, `${process.pid}.json`), 'w');
  const write = () => {
    const record = JSON.stringify({ ...counts, check: checksum(counts) });
    fs.writeSync(fd, record.padEnd(RECORD_LENGTH), 0, 'utf8');
  };
  write();
  setInterval(write, 50).unref();
  process.on('exit', write);
}

/** The counts of every process that wrote to `dir` (its last writing: at most 50 ms old). */
export function readDbCalls(from: string): DbCalls {
  const total: DbCalls = { roundTrips: 0, statements: 0, orderWrites: 0 };
  for (const name of fs.readdirSync(from)) {
    if (!name.endsWith('.json')) continue;
    const one = readRecord(path.join(from, name));
    total.roundTrips += one.roundTrips;
    total.statements += one.statements;
    total.orderWrites += one.orderWrites;
  }
  return total;
}

/** One process's record, read again when it was caught half-written (its check does not match). */
function readRecord(file: string): DbCalls {
  for (let attempt = 0; attempt < 100; attempt++) {
    const record = parseRecord(fs.readFileSync(file, 'utf8'));
    if (record) return record;
  }
  throw new Error(`db calls: ${file} was never read whole`);
}

function parseRecord(text: string): DbCalls | undefined {
  try {
    const record = JSON.parse(text) as DbCalls & { check: number };
    return record.check === checksum(record) ? record : undefined;
  } catch {
    return undefined;
  }
}
