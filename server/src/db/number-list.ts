import type { DialectName } from './dialect.ts';

/**
 * Many whole numbers as ONE bound parameter: '[v,v,…]' for SQLite's json_each(?) or '{v,v,…}' for
 * PostgreSQL's ?::bigint[] (unnest). The SQL text stays short and constant whatever the count, so no
 * statement with thousands of placeholders is prepared per slice of a big upload.
 *
 * Digits are written straight into one buffer: Float64Array.join would make a garbage string per number
 * (a third of the insert time and ~30 MB of heap churn per million). Values must be whole and below
 * 1e12 (a phone, or a phone × 8 with its carrier), so their top part (value / 1e6) fits int32 arithmetic.
 */
export function numberListParameter(values: Float64Array, dialect: DialectName): string {
  return Buffer.from(numberListBytes(values, dialect)).toString('latin1');
}

/** The same list as bytes (an upload's worker thread hands them over without a string copy). */
export function numberListBytes(values: Float64Array, dialect: DialectName): Uint8Array {
  const [open, close] = dialect === 'postgres' ? [123, 125] : [91, 93]; // { } or [ ]
  const out = new Uint8Array(values.length * 13 + 2); // never a slice of Buffer's shared pool: it may be transferred
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
  return out.subarray(0, at);
}
