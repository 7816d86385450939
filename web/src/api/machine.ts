import {
  messages, type Aisle, type AisleGrid, type Machine, type MachineKeyAnswer, type MachineOption, type MachineStatus, type Page,
} from '@huiyun/contract';
import type { MachineSaved } from '@huiyun/contract/responses';
import { download, request, requestPage } from './client.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { machineListQuery } from '@huiyun/contract';

const m = messages.machine;
const a = messages.aisle;

// 机器列表 and 货道信息 (server/src/modules/pay/machines/routes.ts).

export type MachineFilters = FiltersOf<typeof machineListQuery, 'machineNo' | 'machineName' | 'status'>;

export async function listMachines(params: ListParams<MachineFilters>): Promise<Page<Machine>> {
  return requestPage<Machine>('/api/Machine/list', { body: params, failText: m.loadFailed });
}

export function exportMachines(params: Omit<ListParams<MachineFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/Machine/export', { body: params, fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}

export type MachineInput = { machineId?: number; machineNo: string; machineName: string; deptId?: number; address: string; status: MachineStatus };

/** The server's text, and the new machine's terminal key (only when one was created). */
export async function saveMachine(input: MachineInput): Promise<{ msg: string; created?: MachineKeyAnswer }> {
  const answer = await request<MachineSaved>('/api/Machine/save', { body: input, failText: m.saveFailed });
  const { data } = answer;
  return { msg: answer.msg || m.saved, created: data && 'terminalKey' in data ? data : undefined };
}

export async function deleteMachines(ids: number[]): Promise<string> {
  const answer = await request('/api/Machine/delete', { method: 'DELETE', query: { ids: ids.join(',') }, failText: m.deleteFailed });
  return answer.msg || m.deleted;
}

export async function setMachineStatus(machineId: number, status: MachineStatus): Promise<string> {
  const answer = await request('/api/Machine/status', { body: { machineId, status }, failText: m.statusFailed });
  return answer.msg || m.statusChanged;
}

export async function resetTerminalKey(machineId: number): Promise<{ msg: string; key: MachineKeyAnswer }> {
  const answer = await request<MachineKeyAnswer>('/api/Machine/resetKey', { body: { machineId }, failText: m.resetKeyFailed });
  return { msg: answer.msg || m.resetKeyOk, key: answer.data };
}


export async function machineOptions(keyword: string, machineId?: number): Promise<MachineOption[]> {
  return (await request<MachineOption[]>('/api/Machine/options', { body: { keyword, machineId }, failText: m.loadFailed })).data ?? [];
}

// ---- 货道 ----

export async function aisleGrid(machineId: number): Promise<AisleGrid> {
  return (await request<AisleGrid>('/api/Aisle/grid', { body: { machineId }, failText: a.loadFailed })).data;
}

/** price in yuan as typed ('3.5'); the server keeps whole fen. */
export type AisleInput = {
  aisleId?: number; machineId: number; layer: number; aisleColumn: number; goodsNo: string; goodsName: string;
  price: string; capacity: number; stock: number; status: MachineStatus;
};

export async function saveAisle(input: AisleInput): Promise<string> {
  return (await request('/api/Aisle/save', { body: input, failText: a.saveFailed })).msg || a.saved;
}

export async function createAisleGrid(input: { machineId: number; layers: number; columns: number; capacity: number; price: string }): Promise<string> {
  return (await request('/api/Aisle/createGrid', { body: input, failText: a.saveFailed })).msg;
}

/** aisleIds empty: every enabled aisle of the machine. */
export async function restockAisles(machineId: number, aisleIds: number[] = []): Promise<string> {
  return (await request('/api/Aisle/restock', { body: { machineId, aisleIds }, failText: a.actionFailed })).msg;
}

export async function setAisleStatus(aisleIds: number[], status: MachineStatus): Promise<string> {
  return (await request('/api/Aisle/status', { body: { aisleIds, status }, failText: a.actionFailed })).msg || a.statusChanged;
}

export async function deleteAisles(ids: number[]): Promise<string> {
  return (await request('/api/Aisle/delete', { method: 'DELETE', query: { ids: ids.join(',') }, failText: a.deleteFailed })).msg || a.deleted;
}

export type { Aisle };
