import { chartMaxSpans, chartWindows, fill, messages, type ChartGranularity, type SalesChartsQuery } from '@huiyun/contract';
import { AppError } from '../../../http/errors.ts';
import { shanghaiDayNumber } from './rollup-tables.ts';

// The periods of 数据可视化 as Asia/Shanghai day numbers (the rollups' `day`: days since 1970-01-01 there),
// computed in UTC arithmetic on those numbers, so no server time zone enters.

const DAY_MS = 86_400_000;
const dateOf = (day: number) => new Date(day * DAY_MS);
/** 'YYYY-MM-DD' of a day number. */
export const dayText = (day: number) => dateOf(day).toISOString().slice(0, 10);
const dayNumberOf = (year: number, month0: number, date = 1) => Date.UTC(year, month0, date) / DAY_MS;
const dayNumberOfText = (text: string) => dayNumberOf(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));

export const monthStartOf = (day: number) => dayNumberOf(dateOf(day).getUTCFullYear(), dateOf(day).getUTCMonth());
const yearStartOf = (day: number) => dayNumberOf(dateOf(day).getUTCFullYear(), 0);
/** The first day of the month `months` before (negative: after) the day's month. */
export const monthsBefore = (day: number, months: number) => dayNumberOf(dateOf(day).getUTCFullYear(), dateOf(day).getUTCMonth() - months);

/** The label a day falls under: 'YYYY-MM-DD', 'YYYY-MM' or 'YYYY'. */
export function periodOf(granularity: ChartGranularity, day: number): string {
  const text = dayText(day);
  return granularity === 'day' ? text : granularity === 'month' ? text.slice(0, 7) : text.slice(0, 4);
}

export type ChartRange = { from: number; to: number; periods: string[] };

/**
 * The days a chart covers: the query's range when given (an open end: today, an open start: the view's own
 * window back from the end), else the last 30 days / 12 months / 5 years up to today. Refuses a range
 * longer than the view may draw (400, a clear message).
 */
export function chartRange(query: Pick<SalesChartsQuery, 'granularity' | 'start' | 'end'>, now: number): ChartRange {
  const g = query.granularity;
  const to = query.end ? dayNumberOfText(query.end) : shanghaiDayNumber(now);
  const from = query.start ? dayNumberOfText(query.start)
    : g === 'day' ? to - (chartWindows.day - 1) : g === 'month' ? monthsBefore(to, chartWindows.month - 1) : dayNumberOf(dateOf(to).getUTCFullYear() - (chartWindows.year - 1), 0);
  const periods: string[] = [];
  const step = g === 'day' ? (d: number) => d + 1 : g === 'month' ? (d: number) => monthsBefore(d, -1) : (d: number) => dayNumberOf(dateOf(d).getUTCFullYear() + 1, 0);
  const limit = g === 'day' ? chartMaxSpans.days : g === 'month' ? chartMaxSpans.months : chartMaxSpans.years;
  for (let d = g === 'day' ? from : g === 'month' ? monthStartOf(from) : yearStartOf(from); d <= to; d = step(d)) {
    if (periods.length === limit) throw new AppError(fill(messages.salesCharts.rangeTooLong, chartMaxSpans), 400);
    periods.push(periodOf(g, d));
  }
  return { from, to, periods };
}
