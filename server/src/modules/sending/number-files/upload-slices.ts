// The CPU side of a number upload, the same on whichever thread it runs: the number file's bytes in,
// insert-ready slices out. A slice is up to `sliceSize` numbers in file order, already
//   - distinct within the file (the parser's NumberSet),
//   - off the company's do-not-contact list, and
//   - new to the task (the task's numbers, read before the upload, in a second NumberSet),
// so the database never rejects a row (a conflict would fail the upload, not miscount it), each
// slice's carrier split is known without asking it back, and ids follow the file.
// A slice is written as the text of the one parameter of one insert statement: a JSON array for
// SQLite's json_each, an array literal for PostgreSQL's unnest, of phone × 8 + carrier (< 2^53; the
// SQL splits it with >> 3 and & 7). The text stays bytes (an ArrayBuffer of its own, moved from the
// worker, not copied): as a JS string a large slice is a large object that only a full GC frees, in
// both threads.
// upload-numbers.ts runs this on a worker thread (upload-worker.ts) for large files, so parsing
// overlaps the inserts, which node:sqlite runs synchronously on the main thread; in-thread otherwise.
import { numberListBytes } from '../../../db/number-list.ts';
import { NumberFileParser } from './number-file.ts';
import type { InvalidSample, NumberFileEncoding } from './number-scanner.ts';
import { NumberSet } from './number-set.ts';

export type SliceDialect = 'sqlite' | 'postgres';

const FIRST_SLICE = 1 << 14;

export type SlicerOptions = {
  dialect: SliceDialect;
  /** Most numbers per slice, so per insert statement. The first slices are smaller (FIRST_SLICE,
   * doubling), so the first insert need not wait for a whole slice to be parsed. */
  sliceSize: number;
  /** The company's do-not-contact numbers (none: null). */
  blocked: readonly number[] | null;
  /** The numbers the task already holds, comma-separated (none: null). */
  existing: string | null;
};

export type NumberSlice = {
  /** '[v,…]' (SQLite) or '{v,…}' (PostgreSQL) as ASCII bytes, v = phone × 8 + carrier, in file order. */
  list: Uint8Array;
  count: number;
  /** Numbers of the slice per carrier, indexed by Carrier (1–4; index 0 unused). */
  byCarrier: number[];
};

export type SlicerSummary = {
  encoding: NumberFileEncoding;
  invalid: number;
  /** Repeats within the file. */
  duplicatesInFile: number;
  /** Distinct numbers of the file the task already held. */
  alreadyInTask: number;
  /** Distinct numbers of the file on the do-not-contact list. */
  blocked: number;
  invalidSamples: InvalidSample[];
};

/** Feed it bytes with `write`, then `end`; `onSlice` is called as slices fill. */
export class UploadSlicer {
  private readonly parser: NumberFileParser;
  private readonly blocked: Set<number> | null;
  private readonly existing: NumberSet | null;
  private readonly dialect: SliceDialect;
  private readonly buffer: Float64Array;
  private held = 0;
  private limit: number;
  private byCarrier = [0, 0, 0, 0, 0];
  private blockedCount = 0;
  private alreadyInTask = 0;
  private readonly onSlice: (slice: NumberSlice) => void;

  constructor(options: SlicerOptions, onSlice: (slice: NumberSlice) => void) {
    this.onSlice = onSlice;
    this.blocked = options.blocked?.length ? new Set(options.blocked) : null;
    this.existing = options.existing ? numberSetOf(options.existing) : null;
    this.dialect = options.dialect;
    this.buffer = new Float64Array(options.sliceSize);
    this.limit = Math.min(FIRST_SLICE, options.sliceSize);
    this.parser = new NumberFileParser(({ numbers, carriers }) => {
      for (let i = 0; i < numbers.length; i += 1) this.add(numbers[i], carriers[i]);
    });
  }

  write(bytes: Uint8Array): void {
    this.parser.write(bytes);
  }

  end(): SlicerSummary {
    const summary = this.parser.end();
    this.flush();
    return {
      encoding: summary.encoding,
      invalid: summary.invalid,
      duplicatesInFile: summary.duplicatesInFile,
      alreadyInTask: this.alreadyInTask,
      blocked: this.blockedCount,
      invalidSamples: summary.invalidSamples,
    };
  }

  private add(phone: number, carrier: number): void {
    if (this.blocked !== null && this.blocked.has(phone)) {
      this.blockedCount += 1;
      return;
    }
    if (this.existing !== null && this.existing.has(phone)) {
      this.alreadyInTask += 1;
      return;
    }
    this.buffer[this.held] = phone * 8 + carrier;
    this.byCarrier[carrier] += 1;
    this.held += 1;
    if (this.held === this.limit) this.flush();
  }

  private flush(): void {
    if (this.held === 0) return;
    this.onSlice({ list: numberListBytes(this.buffer.subarray(0, this.held), this.dialect), count: this.held, byCarrier: this.byCarrier });
    this.held = 0;
    this.byCarrier = [0, 0, 0, 0, 0];
    this.limit = Math.min(this.limit * 2, this.buffer.length);
  }
}

/** The numbers of '13800138000,13900139000,…' (group_concat / string_agg of the task's phones). */
function numberSetOf(list: string): NumberSet {
  const set = new NumberSet();
  let value = 0;
  for (let i = 0; i < list.length; i += 1) {
    const c = list.charCodeAt(i);
    if (c === 44) {
      set.add(value);
      value = 0;
    } else {
      value = value * 10 + (c - 48);
    }
  }
  if (list.length > 0) set.add(value);
  return set;
}
