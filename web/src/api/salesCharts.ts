import { messages, type SalesCharts, type SalesChartsOptions } from '@huiyun/contract';
import { request } from './client.ts';
import { withDays, type DayRange } from './dayRange.ts';

const m = messages.salesCharts;

// 数据可视化 (server/src/modules/pay/charts/routes.ts).

export type SalesChartsFilters = DayRange & { granularity: 'day' | 'month' | 'year'; deptId?: number; machineNo?: string; payType?: number };

export async function fetchSalesCharts(filters: SalesChartsFilters): Promise<SalesCharts> {
  return (await request<SalesCharts>('/api/Charts/statistics', { body: withDays(filters), failText: m.loadFailed })).data!;
}

export async function fetchSalesChartsOptions(): Promise<SalesChartsOptions> {
  return (await request<SalesChartsOptions>('/api/Charts/options', { body: {}, failText: m.loadFailed })).data ?? { depts: [], machines: [] };
}
