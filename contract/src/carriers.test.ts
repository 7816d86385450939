import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Carrier, carrierLabel, carrierOfNumber, carrierPrefixes, classifyCarrier, expandPrefixes, isSendableNumber, type CarrierKey,
} from './carriers.ts';

// The rows of cn-mobile-prefixes.md, typed again by hand (en dashes as in the file) so a slip in
// carriers.ts does not pass by comparing the table with itself.
const documentRows: Record<CarrierKey, string> = {
  mobile: '1340–1348, 135–139, 147, 148, 150–152, 157–159, 165, 1703, 1705, 1706, 172, 178, 182–184, 187, 188, 195, 197, 198',
  unicom: '130–132, 145, 146, 155, 156, 166, 167, 1704, 1707–1709, 171, 175, 176, 185, 186, 196',
  telecom: '133, 149, 153, 162, 1700–1702, 173, 17400–17405, 177, 180, 181, 189, 190, 191, 193, 199',
  other: '192, 1349, 1619, 17406–17412, 1749',
};

function prefixesOfRow(row: string): string[] {
  return row.split(', ').flatMap((entry) => expandPrefixes(entry.replace('–', '-')));
}

/** Every 11-digit number under a prefix is checked at its first and last 5-digit sub-prefix. */
function numbersUnder(prefix: string): string[] {
  return [prefix.padEnd(11, '0'), prefix.padEnd(11, '9'), prefix.padEnd(11, '5')];
}

describe('carrier prefix table', () => {
  for (const carrier of Object.keys(documentRows) as CarrierKey[]) {
    it(`classifies every prefix of the ${carrier} row`, () => {
      for (const prefix of prefixesOfRow(documentRows[carrier])) {
        for (const number of numbersUnder(prefix)) {
          expect([number, classifyCarrier(number)]).toEqual([number, Carrier[carrier]]);
          expect(carrierOfNumber(Number(number))).toBe(Carrier[carrier]);
        }
      }
    });
  }

  it('holds exactly the rows of the shared data file', () => {
    expect(Object.fromEntries(Object.entries(carrierPrefixes).map(([k, v]) => [k, v.join(', ').replaceAll('-', '–')]))).toEqual(documentRows);
  });

  // The table's own file: a copy of ../shared/data/cn-mobile-prefixes.md kept in the repository (its header says so),
  // so that this check runs from any clone; the copy is compared with the shared file wherever that is beside the clone.
  const fixture = path.resolve(import.meta.dirname, 'fixtures/cn-mobile-prefixes.md');
  const sharedFile = path.resolve(import.meta.dirname, '../../../shared/data/cn-mobile-prefixes.md');
  const tableOf = (text: string) => text.slice(text.indexOf('# Mainland China mobile number prefixes'));

  it('matches cn-mobile-prefixes.md (the copy in contract/src/fixtures)', () => {
    const text = fs.readFileSync(fixture, 'utf8');
    const rows = { mobile: '中国移动', unicom: '中国联通', telecom: '中国电信' } as const;
    for (const [carrier, name] of Object.entries(rows)) {
      const line = text.split('\n').find((l) => l.startsWith(`| ${name}`));
      expect(line, `the ${name} row of ${fixture}`).toBeDefined();
      expect(line!.split('|')[2]!.trim()).toBe(documentRows[carrier as CarrierKey]);
    }
  });

  const sharedAbsent = !fs.existsSync(sharedFile);
  it.skipIf(sharedAbsent)(`keeps the copy equal to the shared file${sharedAbsent ? ' (skipped: ../shared/data/cn-mobile-prefixes.md is not beside this clone)' : ''}`, () => {
    expect(tableOf(fs.readFileSync(fixture, 'utf8')), 'contract/src/fixtures/cn-mobile-prefixes.md differs from the shared file: copy it again').toBe(tableOf(fs.readFileSync(sharedFile, 'utf8')));
  });

  it('reads 170 by its 4th digit', () => {
    expect(['17000000000', '17010000000', '17020000000'].map(classifyCarrier)).toEqual([3, 3, 3]);
    expect(classifyCarrier('17030000000')).toBe(Carrier.mobile);
    expect(classifyCarrier('17040000000')).toBe(Carrier.unicom);
    expect(['17050000000', '17060000000'].map(classifyCarrier)).toEqual([1, 1]);
    expect(['17070000000', '17080000000', '17090000000'].map(classifyCarrier)).toEqual([2, 2, 2]);
  });

  it('reads 1740 by its 5th digit and the rest of 174 as 其他', () => {
    for (const d of '012345') expect(classifyCarrier(`1740${d}123456`)).toBe(Carrier.telecom);
    for (const d of '6789') expect(classifyCarrier(`1740${d}123456`)).toBe(Carrier.other);
    for (const p of ['17410', '17411', '17412', '17413', '17420', '17490', '17499']) {
      expect(classifyCarrier(`${p}123456`)).toBe(Carrier.other);
    }
  });

  it('keeps 1349, 1619, 192 and unlisted valid ranges as 其他', () => {
    expect(classifyCarrier('13490000000')).toBe(Carrier.other);
    expect(classifyCarrier('13480000000')).toBe(Carrier.mobile);
    expect(classifyCarrier('16190000000')).toBe(Carrier.other);
    expect(classifyCarrier('16200000000')).toBe(Carrier.telecom);
    expect(classifyCarrier('19200000000')).toBe(Carrier.other);
    // IoT / data ranges, unallocated 194, and the rest of 16x / 14x.
    for (const p of ['140', '141', '142', '143', '144', '154', '160', '161', '163', '164', '168', '169', '174', '179', '194']) {
      expect([p, classifyCarrier(p.padEnd(11, '1'))]).toEqual([p, Carrier.other]);
    }
  });

  it('gives labels', () => {
    expect([1, 2, 3, 4].map((c) => carrierLabel(c as Carrier))).toEqual(['移动', '联通', '电信', '其他']);
  });

  it('accepts only 11 digits starting 13–19', () => {
    expect(isSendableNumber('13800138000')).toBe(true);
    expect(isSendableNumber('19999999999')).toBe(true);
    for (const bad of ['12800138000', '10800138000', '23800138000', '1380013800', '138001380000', '1380013800a', '+8613800138000', '']) {
      expect([bad, isSendableNumber(bad)]).toEqual([bad, false]);
    }
    expect(() => classifyCarrier('12800138000')).toThrow(RangeError);
  });
});
