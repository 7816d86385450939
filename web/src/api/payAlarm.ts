import { messages, type Page, type PayAlarm } from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import { withDays } from './dayRange.ts';
import type { ListParams } from './types.ts';
import type { payAlarmListQuery } from '@huiyun/contract';
import type { DayRange } from './dayRange.ts';
import type { FiltersOf } from './types.ts';

const m = messages.payAlarm;

// 支付告警 (server/src/modules/pay/alarms/routes.ts).

export type PayAlarmFilters = FiltersOf<typeof payAlarmListQuery, 'kind' | 'orderNo' | 'machineNo' | 'deptId'> & DayRange;

export async function listPayAlarms(params: ListParams<PayAlarmFilters>): Promise<Page<PayAlarm>> {
  return requestPage<PayAlarm>('/api/PayAlarm/list', { body: withDays(params), failText: m.loadFailed });
}

export function exportPayAlarms(params: Omit<ListParams<PayAlarmFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/PayAlarm/export', { body: withDays(params), fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}

