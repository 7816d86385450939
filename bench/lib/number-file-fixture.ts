// A generated upload file for the number-upload benchmarks: `lines` lines of UTF-8 text, LF endings,
// one number a line, with a share of junk lines and of repeats of earlier numbers. The same seed gives
// the same bytes, so runs compare.
import { carrierPrefixes, expandPrefixes } from '@huiyun/contract';
import { seededRandom as mulberry32 } from '../../tools/lib/seeded-random.ts';

export type NumberFileFixtureOptions = { junkRate: number; duplicateRate: number; seed?: number };

/** What the file holds, for checking a parser's summary. */
export type NumberFileFixtureCounts = { lines: number; valid: number; invalid: number; duplicates: number };

const JUNK = ['abc', '1380013800', '138001380001', '姓名', '12345678901', '+1 415 555 0100', 'n/a', '13800l38000'];

export function generateNumberFile(lines: number, options: NumberFileFixtureOptions): Buffer {
  return generateNumberFileWithCounts(lines, options).file;
}

export function generateNumberFileWithCounts(lines: number, options: NumberFileFixtureOptions): { file: Buffer; counts: NumberFileFixtureCounts } {
  const random = mulberry32(options.seed ?? 1);
  // Real prefixes of every carrier (3-digit ones padded with a random 4th digit), so the carrier split
  // does real work.
  const prefixes = Object.values(carrierPrefixes).flatMap((row) => row.flatMap(expandPrefixes)).map(Number);
  const junk = JUNK.map((j) => Buffer.from(`${j}\n`));
  const out = Buffer.allocUnsafe(lines * 24);
  const issued: number[] = [];
  const unique = new Set<number>();
  let at = 0;
  const counts: NumberFileFixtureCounts = { lines, valid: 0, invalid: 0, duplicates: 0 };
  for (let line = 0; line < lines; line += 1) {
    const roll = random();
    if (roll < options.junkRate) {
      at += junk[Math.floor(random() * junk.length)].copy(out, at);
      counts.invalid += 1;
      continue;
    }
    let n: number;
    if (roll < options.junkRate + options.duplicateRate && issued.length > 0) {
      n = issued[Math.floor(random() * issued.length)];
      counts.duplicates += 1;
    } else {
      do {
        const prefix = prefixes[Math.floor(random() * prefixes.length)];
        const width = String(prefix).length;
        n = prefix * 10 ** (11 - width) + Math.floor(random() * 10 ** (11 - width));
      } while (unique.has(n));
      unique.add(n);
      issued.push(n);
      counts.valid += 1;
    }
    at += out.write(`${n}\n`, at, 'latin1');
  }
  return { file: out.subarray(0, at), counts };
}
