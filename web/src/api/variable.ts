import { messages, type Page, type Variable, type VariableSave } from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { variableListQuery } from '@huiyun/contract';

const m = messages.variable;

export type VariableFilters = FiltersOf<typeof variableListQuery, 'varLable' | 'varName'>;

export async function listVariables(params: ListParams<VariableFilters>): Promise<Page<Variable>> {
  return requestPage<Variable>('/api/Variable/list', { body: params, failText: m.loadFailed });
}

/** Answers the server's success text ('系统环境变量保存成功！'). */
export async function saveVariable(input: Partial<VariableSave>): Promise<string> {
  const answer = await request('/api/Variable/save', { body: input, failText: m.saveFailed });
  return answer.msg || m.saved;
}

export async function deleteVariables(ids: number[]): Promise<string> {
  const answer = await request('/api/Variable/delete', {
    method: 'DELETE',
    query: { ids: ids.join(',') },
    failText: m.deleteFailed,
  });
  return answer.msg || m.deleted;
}

export function exportVariables(params: Omit<ListParams<VariableFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/Variable/export', { body: params, fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}
