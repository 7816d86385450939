import { monthStartOf, monthsBefore } from './periods.ts';
import { monthKeyOfDay } from './rollup-tables.ts';

// A span of days [from, to] as the rollups read it cheaply: whole months from the month rollups, the rest from
// the day rollups — added, or taken back from a month that overhangs the span, whichever reads fewer days.
// Sums are additive, so the pieces' signed sums equal the span's to the fen, whatever lies outside it.

export type Piece =
  | { period: 'day'; from: number; to: number; sign: 1 | -1 }
  /** Months as YYYYMM, from and to included. */
  | { period: 'month'; from: number; to: number; sign: 1 };

/** What a month's rows cost to read, in days' rows (a month row per key where a day has one per key that sold). */
const MONTH_COST = 2;

const days = (from: number, to: number, sign: 1 | -1): Piece[] => (from <= to ? [{ period: 'day', from, to, sign }] : []);
const monthEndOf = (day: number) => monthsBefore(day, -1) - 1;

/**
 * The pieces of [from, to]; `today` prices the days (those after it hold no rows yet, but are still taken
 * back, so that an order stamped later than today cannot leak in); `months` false: days only.
 */
export function spanPieces(from: number, to: number, today: number, months = true): Piece[] {
  if (!months || from > to) return days(from, to, 1);
  const live = (a: number, b: number) => Math.max(0, Math.min(b, today) - a + 1);
  const firstStart = monthStartOf(from);
  const lastStart = monthStartOf(to);
  const lastEnd = monthEndOf(to);
  if (firstStart === lastStart) {
    if (live(from, to) <= MONTH_COST + live(firstStart, from - 1) + live(to + 1, lastEnd)) return days(from, to, 1);
    return [{ period: 'month', from: monthKeyOfDay(from), to: monthKeyOfDay(from), sign: 1 }, ...days(firstStart, from - 1, -1), ...days(to + 1, lastEnd, -1)];
  }
  const firstEnd = monthEndOf(from);
  const headByMonth = MONTH_COST + live(firstStart, from - 1) <= live(from, firstEnd);
  const tailByMonth = MONTH_COST + live(to + 1, lastEnd) <= live(lastStart, to);
  const pieces = [
    ...(headByMonth ? days(firstStart, from - 1, -1) : days(from, firstEnd, 1)),
    ...(tailByMonth ? days(to + 1, lastEnd, -1) : days(lastStart, to, 1)),
  ];
  const monthFrom = headByMonth ? from : firstEnd + 1;
  const monthTo = tailByMonth ? to : lastStart - 1;
  if (monthFrom <= monthTo) pieces.push({ period: 'month', from: monthKeyOfDay(monthFrom), to: monthKeyOfDay(monthTo), sign: 1 });
  return pieces;
}
