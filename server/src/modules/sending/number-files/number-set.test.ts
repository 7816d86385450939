import { describe, expect, it } from 'vitest';
import { NumberSet } from './number-set.ts';

describe('NumberSet', () => {
  it('agrees with Set<number> through growth', () => {
    const mine = new NumberSet();
    const reference = new Set<number>();
    let x = 12345;
    for (let i = 0; i < 200_000; i += 1) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const n = 13_000_000_000 + (x % 300_000) * 23_333;
      expect(mine.add(n)).toBe(!reference.has(n));
      reference.add(n);
    }
    expect(mine.size).toBe(reference.size);
    expect(mine.has(13_000_000_000 + 23_333)).toBe(reference.has(13_000_000_000 + 23_333));
    expect(mine.has(19_999_999_999)).toBe(false);
  });

  it('tells apart neighbours and the ends of the range', () => {
    const set = new NumberSet();
    for (const n of [13_000_000_000, 13_000_000_001, 19_999_999_998, 19_999_999_999]) expect(set.add(n)).toBe(true);
    for (const n of [13_000_000_000, 13_000_000_001, 19_999_999_998, 19_999_999_999]) expect(set.add(n)).toBe(false);
    expect([set.has(13_000_000_002), set.has(19_999_999_997), set.size]).toEqual([false, false, 4]);
  });
});
