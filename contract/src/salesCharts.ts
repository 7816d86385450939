import { z } from 'zod';
import { salesCharts as m } from './messages.ts';
import { payTypeOptions } from './enums.ts';
import { optionalIdOf, optionalText } from './fields.ts';
import { MACHINE_NO_PATTERN } from './machine.ts';
import { dayOf } from './order.ts';
import type * as figuresAnswers from './responses/figures.ts';
import { chartGranularities, type ChartGranularity } from './enums.ts';
export { chartGranularities, type ChartGranularity };

// 数据可视化 (/charts/statistics, SPEC §2.13): the filters and the answer. Amounts are yuan
// text ('12.50'); days, months and years are Asia/Shanghai ones.


/** How far back the 日 / 月 / 年 views reach without a time range, and the longest range each accepts. */
export const chartWindows = { day: 30, month: 12, year: 5 } as const;
export const chartMaxSpans = { days: 366, months: 120, years: 20 } as const;

const payTypes = payTypeOptions.map((o) => o.value);

export const salesChartsQuery = z
  .object({
    granularity: z.preprocess((v) => (v === '' || v == null ? 'day' : v), z.enum(chartGranularities, { error: m.granularityInvalid })),
    /** One company of the caller's scope; absent: all of them. */
    deptId: optionalIdOf(m.deptInvalid),
    /** One terminal, exactly. */
    machineNo: optionalText(32, m.machineNoInvalid, { invalid: m.machineNoInvalid }).refine((v) => v === '' || MACHINE_NO_PATTERN.test(v), m.machineNoInvalid),
    payType: z.preprocess(
      (v) => (v === '' || v == null ? undefined : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
      z.number({ error: m.payTypeInvalid }).refine((v) => payTypes.includes(v), m.payTypeInvalid).optional(),
    ),
    start: dayOf(m.startInvalid),
    end: dayOf(m.endInvalid),
  })
  .refine((q) => !q.start || !q.end || q.start <= q.end, { message: m.dateOrder, path: ['end'] });
export type SalesChartsQuery = z.infer<typeof salesChartsQuery>;

/** One bar / point: a day 'YYYY-MM-DD', a month 'YYYY-MM' or a year 'YYYY'. */
export type SalesPoint = z.output<typeof figuresAnswers.salesPoint>;

export type SalesCard = z.output<typeof figuresAnswers.salesCard>;
export type SalesRank = z.output<typeof figuresAnswers.salesRank>;
export type PayShare = z.output<typeof figuresAnswers.payShare>;

export type SalesCharts = z.output<typeof figuresAnswers.salesCharts>;

/** The filters' choices: the companies of the caller's scope and their terminals. */
export type SalesChartsOptions = z.output<typeof figuresAnswers.salesChartsOptions>;
