import { messages, type DeviceRow, type Page } from '@huiyun/contract';
import { requestPage } from './client.ts';
import type { ListParams } from './types.ts';

export type DeviceFilters = { machineName?: string };

/** 设备列表: the activated devices the caller sees, paged with pageNum / pageSize like the task area. */
export async function listDevices(params: ListParams<DeviceFilters>): Promise<Page<DeviceRow>> {
  return requestPage<DeviceRow>('/sync/queryDeviceList', {
    body: { pageNum: params.page, pageSize: params.limit, after: params.after, machineName: params.machineName ?? '' },
    failText: messages.device.loadFailed,
  });
}
