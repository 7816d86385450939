import { messages, type Page, type StatisticsTotals, type TaskUserSave, type TaskUserStatistics } from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { taskUserStatisticsQuery } from '@huiyun/contract';

const m = messages.statistics;

export type StatisticsFilters = FiltersOf<typeof taskUserStatisticsQuery, 'userName'>;

export async function fetchStatisticsTotals(): Promise<StatisticsTotals> {
  const answer = await request<StatisticsTotals>('/sync/queryStatisticsTotal', { body: {}, failText: m.loadFailed });
  return answer.data;
}

/** The task area pages with pageNum / pageSize (SPEC §3). */
export async function listTaskUserStatistics(params: ListParams<StatisticsFilters>): Promise<Page<TaskUserStatistics>> {
  return requestPage<TaskUserStatistics>('/sync/queryTaskUserStatisticsList', {
    body: { pageNum: params.page, pageSize: params.limit, after: params.after, userName: params.userName ?? '' },
    failText: m.loadFailed,
  });
}

export function exportTaskUserStatistics(params: Omit<ListParams<StatisticsFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/sync/exportTaskUserStatisticsList', {
    body: { userName: params.userName ?? '' },
    fileName: `${m.title}.xlsx`,
    failText: messages.common.exportFailed,
  });
}

export async function saveTaskUser(input: TaskUserSave): Promise<string> {
  const answer = await request('/sync/saveTaskUser', { body: input, failText: m.saveFailed });
  return answer.msg || m.saved;
}

export async function clearTotalSendNum(taskUserId: number): Promise<string> {
  const answer = await request('/sync/chearTaskUserTotalSendNum', { body: { taskUserId }, failText: m.clearFailed });
  return answer.msg || m.cleared;
}

export async function clearSendNum(taskUserId: number): Promise<string> {
  const answer = await request('/sync/chearTaskUserSendNum', { body: { taskUserId }, failText: m.clearFailed });
  return answer.msg || m.cleared;
}

export async function clearHistoryTotals(): Promise<string> {
  const answer = await request('/sync/chearHisTaskUserTotalSendNum', { body: {}, failText: m.clearFailed });
  return answer.msg || m.cleared;
}

export async function deleteTaskUser(taskUserId: number): Promise<string> {
  const answer = await request('/sync/deleteTaskUser', { body: { taskUserId }, failText: m.deleteFailed });
  return answer.msg || m.deleted;
}
