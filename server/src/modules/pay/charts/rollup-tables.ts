import type { Kysely } from 'kysely';
import type { Database, Queryable } from '../../../db/schema.ts';

// The rollups of migrations 0025 (per Asia/Shanghai day) and 0031 (per month, YYYYMM), kept by triggers on
// pay_order: typed here, with the module that reads them.

type Measures = { createdCount: number; paidCount: number; paidAmount: number | string; refundAmount: number | string };
type SalesKey = { deptId: number; machineNo: string; payType: number };
type DeptKey = { deptId: number; payType: number };
export type ChartTables = {
  chart_sales_day: SalesKey & { day: number } & Measures;
  chart_goods_day: SalesKey & { goodsName: string; day: number } & Measures;
  chart_dept_day: DeptKey & { day: number } & Measures;
  chart_sales_month: SalesKey & { month: number } & Measures;
  chart_goods_month: DeptKey & { goodsName: string; month: number } & Measures;
  chart_dept_month: DeptKey & { month: number } & Measures;
};
/** The rollups and the columns each is keyed by (besides its period). */
export const rollupKeys = {
  chart_sales_day: ['deptId', 'machineNo', 'payType'],
  chart_goods_day: ['deptId', 'machineNo', 'payType', 'goodsName'],
  chart_dept_day: ['deptId', 'payType'],
  chart_sales_month: ['deptId', 'machineNo', 'payType'],
  chart_goods_month: ['deptId', 'payType', 'goodsName'],
  chart_dept_month: ['deptId', 'payType'],
} as const;
export type RollupName = keyof typeof rollupKeys;
export const rollupNames = Object.keys(rollupKeys) as RollupName[];
/** A rollup's period column: `day` (day number) or `month` (YYYYMM). */
export const periodColumnOf = (table: RollupName): 'day' | 'month' => (table.endsWith('_month') ? 'month' : 'day');
export type ChartDatabase = Database & ChartTables;

export const withChartTables = (db: Kysely<Database> | Queryable): Kysely<ChartDatabase> => (db as Kysely<Database>).$extendTables<ChartTables>();

/** An Asia/Shanghai day number (days since 1970-01-01 there) of an instant: the day rollups' `day`. */
export const shanghaiDayNumber = (epochMs: number): number => Math.floor((epochMs + 8 * 3_600_000) / 86_400_000);
/** Whether a period number is a month (YYYYMM, from 190001) rather than a day number (below 100,000 until the year 2243). */
export const isMonthKey = (period: number): boolean => period >= 100_000;
/** The month rollups' `month` (YYYYMM) of a day number. */
export const monthKeyOfDay = (day: number): number => {
  const date = new Date(day * 86_400_000);
  return date.getUTCFullYear() * 100 + date.getUTCMonth() + 1;
};
