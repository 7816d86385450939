import { messages, type Page, type TerminalConfig, type TerminalConfigSave, type TerminalMachineChoice, type TerminalPayConfigChoice } from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { terminalConfigListQuery } from '@huiyun/contract';

const m = messages.terminalConfig;

export type TerminalConfigFilters = FiltersOf<typeof terminalConfigListQuery, 'machineNo'>;

export async function listTerminalConfigs(params: ListParams<TerminalConfigFilters>): Promise<Page<TerminalConfig>> {
  return requestPage<TerminalConfig>('/api/MachineConfig/list', { body: params, failText: m.loadFailed });
}

/** The machines the caller may bind whose number or name holds the keyword (at most 50). */
export async function listTerminalMachines(keyword: string): Promise<TerminalMachineChoice[]> {
  const answer = await request<TerminalMachineChoice[]>('/api/MachineConfig/machines', { body: { keyword }, failText: m.optionsFailed });
  return answer.data ?? [];
}

/** The 支付配置 a machine may use for a pay type: its company's, of that pay type. */
export async function listTerminalPayConfigs(machineNo: string, payType: number): Promise<TerminalPayConfigChoice[]> {
  const answer = await request<TerminalPayConfigChoice[]>('/api/MachineConfig/configs', { body: { machineNo, payType }, failText: m.optionsFailed });
  return answer.data ?? [];
}

export async function saveTerminalConfig(input: Partial<TerminalConfigSave>): Promise<string> {
  const answer = await request('/api/MachineConfig/save', { body: input, failText: m.saveFailed });
  return answer.msg || m.saved;
}

export async function deleteTerminalConfigs(ids: number[]): Promise<string> {
  const answer = await request('/api/MachineConfig/delete', { method: 'DELETE', query: { ids: ids.join(',') }, failText: m.deleteFailed });
  return answer.msg || m.deleted;
}

export function exportTerminalConfigs(params: Omit<ListParams<TerminalConfigFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/MachineConfig/export', { body: params, fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}
