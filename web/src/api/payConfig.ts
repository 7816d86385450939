import { messages, type Page, type PayConfig, type PayConfigCheckResult, type PayConfigSave } from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { payConfigListQuery } from '@huiyun/contract';

const m = messages.payConfig;

export type PayConfigFilters = FiltersOf<typeof payConfigListQuery, 'name' | 'payType' | 'partner'>;

export async function listPayConfigs(params: ListParams<PayConfigFilters>): Promise<Page<PayConfig>> {
  return requestPage<PayConfig>('/api/Config/list', { body: params, failText: m.loadFailed });
}


/** Secrets go as typed, or as the mask shown (kept by the server); answers the server's success text. */
export async function savePayConfig(input: Partial<PayConfigSave>): Promise<string> {
  const answer = await request('/api/Config/save', { body: input, failText: m.saveFailed });
  return answer.msg || m.saved;
}

export async function deletePayConfigs(ids: number[]): Promise<string> {
  const answer = await request('/api/Config/delete', { method: 'DELETE', query: { ids: ids.join(',') }, failText: m.deleteFailed });
  return answer.msg || m.deleted;
}

export function exportPayConfigs(params: Omit<ListParams<PayConfigFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/Config/export', { body: params, fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}

/** 检测: the saved config checked against its gateway; answers the result, valid or not (a refusal throws). */
export async function checkPayConfig(id: number): Promise<PayConfigCheckResult> {
  const answer = await request<PayConfigCheckResult>('/api/Config/check', { body: { id }, failText: messages.payConfigCheck.failed });
  return answer.data;
}
