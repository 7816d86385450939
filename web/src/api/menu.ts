import { messages, type Module, type ModuleSave, type ModuleTreeNode } from '@huiyun/contract';
import { download, request } from './client.ts';

const m = messages.menu;

/** The whole module tree (POST /api/Module/list). */
export async function fetchModuleTree(): Promise<ModuleTreeNode[]> {
  const answer = await request<ModuleTreeNode[]>('/api/Module/list', { body: {}, failText: m.treeLoadFailed });
  return answer.data ?? [];
}

/** Parent choices: the groups, fetched with page 1 and limit 10 (SPEC §9). */
export async function fetchParentChoices(): Promise<Module[]> {
  const answer = await request<Module[]>('/api/Module/nodes', { body: { page: 1, limit: 10 }, failText: m.nodesLoadFailed });
  return answer.data ?? [];
}

export async function fetchModule(moduleId: number): Promise<Module> {
  const answer = await request<Module>(`/api/Module/get/${moduleId}`, { failText: m.detailLoadFailed });
  return answer.data;
}

/** Answers the server's success text ('保存成功！') and the saved id. */
export async function saveModule(input: Partial<ModuleSave>): Promise<{ text: string; moduleId: number }> {
  const answer = await request<{ moduleId: number }>('/api/Module/save', { body: input, failText: m.saveFailed });
  return { text: answer.msg || m.saved, moduleId: answer.data.moduleId };
}

export async function deleteModules(ids: number[]): Promise<string> {
  const answer = await request('/api/Module/delete', { method: 'DELETE', query: { ids: ids.join(',') }, failText: m.deleteFailed });
  return answer.msg || m.deleted;
}

export function exportModules(): Promise<void> {
  return download('/api/Module/export', { body: {}, fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}
