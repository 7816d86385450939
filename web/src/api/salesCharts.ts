import { messages, type SalesCharts, type SalesChartsOptions } from '@huiyun/contract';
import { request } from './client.ts';
import { withDays, type DayRange } from './dayRange.ts';
import type { z } from 'zod';
import type { salesChartsQuery } from '@huiyun/contract';
import type { FiltersOf } from './types.ts';

const m = messages.salesCharts;

// 数据可视化 (server/src/modules/pay/charts/routes.ts).

export type SalesChartsFilters = DayRange & Pick<z.output<typeof salesChartsQuery>, 'granularity'> & FiltersOf<typeof salesChartsQuery, 'deptId' | 'machineNo' | 'payType'>;

export async function fetchSalesCharts(filters: SalesChartsFilters): Promise<SalesCharts> {
  return (await request<SalesCharts>('/api/Charts/statistics', { body: withDays(filters), failText: m.loadFailed })).data!;
}

export async function fetchSalesChartsOptions(): Promise<SalesChartsOptions> {
  return (await request<SalesChartsOptions>('/api/Charts/options', { body: {}, failText: m.loadFailed })).data ?? { depts: [], machines: [] };
}
