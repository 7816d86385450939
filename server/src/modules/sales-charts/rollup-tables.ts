import type { Kysely } from 'kysely';
import type { Database, Queryable } from '../../db/schema.ts';

// The rollups of migration 0025 (kept by triggers on pay_order): typed here, with the module that reads them.

type Measures = { day: number; createdCount: number; paidCount: number; paidAmount: number | string; refundAmount: number | string };
export type SalesDayTable = { deptId: number; machineNo: string; payType: number } & Measures;
export type GoodsDayTable = SalesDayTable & { goodsName: string };
export type DeptDayTable = { deptId: number; payType: number } & Measures;
export type ChartTables = { chart_sales_day: SalesDayTable; chart_goods_day: GoodsDayTable; chart_dept_day: DeptDayTable };
/** The rollups and the columns each is keyed by (besides the day). */
export const rollupKeys = {
  chart_sales_day: ['deptId', 'machineNo', 'payType'],
  chart_goods_day: ['deptId', 'machineNo', 'payType', 'goodsName'],
  chart_dept_day: ['deptId', 'payType'],
} as const;
export type RollupName = keyof typeof rollupKeys;
export type ChartDatabase = Database & ChartTables;

export const withChartTables = (db: Kysely<Database> | Queryable): Kysely<ChartDatabase> => (db as Kysely<Database>).withTables<ChartTables>();

/** An Asia/Shanghai day number (days since 1970-01-01 there) of an instant: the rollups' `day`. */
export const shanghaiDayNumber = (epochMs: number): number => Math.floor((epochMs + 8 * 3_600_000) / 86_400_000);
