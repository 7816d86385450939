import { describe, expect, it } from 'vitest';
import { fenToYuan, yuanShown, yuanToFen } from './money.ts';

describe('yuan and fen', () => {
  it('reads yuan text and numbers into whole fen without floating point', () => {
    expect(yuanToFen('12')).toBe(1200);
    expect(yuanToFen('12.5')).toBe(1250);
    expect(yuanToFen('12.50')).toBe(1250);
    expect(yuanToFen(' 0.01 ')).toBe(1);
    expect(yuanToFen('0.29')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
    expect(yuanToFen(1.1)).toBe(110);
    expect(yuanToFen('9999999.99')).toBe(999_999_999);
  });

  it('refuses more than two decimals, negatives and other shapes', () => {
    for (const bad of ['1.234', '-1', '1e3', '', '.5', '1.', 'abc', '12345678', '1,5']) expect(yuanToFen(bad), bad).toBeUndefined();
    expect(yuanToFen(1.234)).toBeUndefined();
    expect(yuanToFen(Number.NaN)).toBeUndefined();
    expect(yuanToFen(1e21)).toBeUndefined();
  });

  it('writes fen as yuan with two decimals', () => {
    expect(fenToYuan(1250)).toBe('12.50');
    expect(fenToYuan(1)).toBe('0.01');
    expect(fenToYuan(0)).toBe('0.00');
    expect(fenToYuan(-300)).toBe('-3.00');
    expect(fenToYuan(999_999_999)).toBe('9999999.99');
    expect(() => fenToYuan(1.5)).toThrow();
  });

  it('round-trips every fen of a range', () => {
    for (let fen = 0; fen < 2000; fen++) expect(yuanToFen(fenToYuan(fen))).toBe(fen);
  });

  it('shows an amount the API sends with its sign, as it is', () => {
    expect(yuanShown(fenToYuan(350))).toBe('¥3.50');
    expect(yuanShown(fenToYuan(-150))).toBe('¥-1.50');
  });
});
