import { describe, expect, it } from 'vitest';
import { monthKeyOfDay } from './rollup-tables.ts';
import { spanPieces, type Piece } from './spans.ts';

// A span's pieces count each day of it exactly once and no other day: for every day around it, the signs of
// the pieces that hold it add up to 1 inside the span and 0 outside, whichever pieces were chosen.

const DAY_MS = 86_400_000;
const dayOf = (text: string) => Date.parse(`${text}T00:00:00Z`) / DAY_MS;
const holds = (piece: Piece, day: number) => (piece.period === 'day' ? day >= piece.from && day <= piece.to : monthKeyOfDay(day) >= piece.from && monthKeyOfDay(day) <= piece.to);
const weightOf = (pieces: Piece[], day: number) => pieces.reduce((sum, p) => sum + (holds(p, day) ? p.sign : 0), 0);

function expectExact(from: number, to: number, today: number, months = true) {
  const pieces = spanPieces(from, to, today, months);
  for (let day = from - 70; day <= to + 70; day++) expect(weightOf(pieces, day), `day ${day} of [${from}, ${to}], today ${today}`).toBe(day >= from && day <= to ? 1 : 0);
  return pieces;
}

describe('spanPieces', () => {
  it('covers the default 日 / 月 / 年 windows exactly, reading whole months where they pay', () => {
    const today = dayOf('2026-11-26');
    const month = expectExact(dayOf('2025-12-01'), today, today);
    expect(month).toContainEqual({ period: 'month', from: 202512, to: 202611, sign: 1 });
    expect(month.filter((p) => p.period === 'day')).toEqual([{ period: 'day', from: today + 1, to: dayOf('2026-11-30'), sign: -1 }]);
    expectExact(dayOf('2022-01-01'), today, today);
    const days30 = expectExact(today - 29, today, today);
    expect(days30.some((p) => p.period === 'month')).toBe(true);
    expect(expectExact(today - 29, today, today, false)).toEqual([{ period: 'day', from: today - 29, to: today, sign: 1 }]);
  });

  it('covers any span exactly: within a month, across a leap February, across years, after today', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 16807) % 2147483647) % n);
    const base = dayOf('2023-12-15');
    for (let i = 0; i < 300; i++) {
      const from = base + random(900);
      const to = from + random(random(2) === 0 ? 40 : 500);
      expectExact(from, to, from + random(700) - 100);
    }
    expect(spanPieces(base + 5, base + 4, base)).toEqual([]);
  });
});
