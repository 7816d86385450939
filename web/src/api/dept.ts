import { messages, type Dept, type DeptChoice, type DeptSave, type Page } from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { deptListQuery } from '@huiyun/contract';

const m = messages.dept;

export type DeptFilters = FiltersOf<typeof deptListQuery, 'deptName' | 'deptNo'>;

export async function listDepts(params: ListParams<DeptFilters>): Promise<Page<Dept>> {
  return requestPage<Dept>('/api/Dept/list', { body: params, failText: m.loadFailed });
}

/** Answers the server's success text ('公司保存成功！'). */
export async function saveDept(input: Partial<DeptSave>): Promise<string> {
  const answer = await request('/api/Dept/save', { body: input, failText: m.saveFailed });
  return answer.msg || m.saved;
}

/** GET, as SPEC §7.2 has it. */
export async function deleteDepts(ids: number[]): Promise<string> {
  const answer = await request('/api/Dept/delete', { method: 'GET', query: { ids: ids.join(',') }, failText: m.deleteFailed });
  return answer.msg || m.deleted;
}

export function exportDepts(params: Omit<ListParams<DeptFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/Dept/export', { body: params, fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}

/** The companies the caller may pick: its data scope. */
export async function deptChoices(): Promise<DeptChoice[]> {
  return (await request<DeptChoice[]>('/api/Dept/choices', { body: {}, failText: m.loadFailed })).data ?? [];
}
