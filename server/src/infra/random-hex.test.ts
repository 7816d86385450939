import { describe, expect, it } from 'vitest';
import { randomHex } from './random-hex.ts';

describe('randomHex', () => {
  it('hands out uppercase hex of the length asked, never the same bytes twice, across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5_000; i++) { // 5,000 × 5 bytes: six refills of the 4 KB pool
      const hex = randomHex(5);
      expect(hex).toMatch(/^[0-9A-F]{10}$/);
      seen.add(hex);
    }
    expect(seen.size).toBe(5_000);
    expect(randomHex(8)).toMatch(/^[0-9A-F]{16}$/);
    expect(() => randomHex(4097)).toThrow(RangeError);
  });

  it('spreads its bytes: every hex digit comes up in each position', () => {
    const digits = Array.from({ length: 8 }, () => new Set<string>());
    for (let i = 0; i < 2_000; i++) [...randomHex(4)].forEach((d, at) => digits[at]!.add(d));
    for (const position of digits) expect(position.size).toBe(16);
  });
});
