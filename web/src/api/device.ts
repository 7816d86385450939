import { messages, type DeviceRow, type Page } from '@huiyun/contract';
import { requestPage } from './client.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { deviceListQuery } from '@huiyun/contract';

export type DeviceFilters = FiltersOf<typeof deviceListQuery, 'machineName'>;

/** 设备列表: the activated devices the caller sees, paged with pageNum / pageSize like the task area. */
export async function listDevices(params: ListParams<DeviceFilters>): Promise<Page<DeviceRow>> {
  return requestPage<DeviceRow>('/sync/queryDeviceList', {
    body: { pageNum: params.page, pageSize: params.limit, after: params.after, machineName: params.machineName ?? '' },
    failText: messages.device.loadFailed,
  });
}
