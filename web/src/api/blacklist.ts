import {
  messages, type BlacklistAdd, type BlacklistAddResult, type BlacklistEntry, type Page,
} from '@huiyun/contract';
import type { BlacklistDeleted } from '@huiyun/contract/responses';
import type { ListParams, StoredNumberFile, FiltersOf } from './types.ts';
import { download, request, requestPage } from './client.ts';
import type { blacklistListQuery } from '@huiyun/contract';

const m = messages.blacklist;

export type BlacklistFilters = FiltersOf<typeof blacklistListQuery, 'phone' | 'deptId'>;

const filtersOf = (params: BlacklistFilters) => ({ phone: params.phone ?? '', deptId: params.deptId ?? '' });

/** The task area pages with pageNum / pageSize (SPEC §3). */
export async function listBlacklist(params: ListParams<BlacklistFilters>): Promise<Page<BlacklistEntry>> {
  return requestPage<BlacklistEntry>('/sync/queryBlacklist', {
    body: { pageNum: params.page, pageSize: params.limit, after: params.after, ...filtersOf(params) },
    failText: m.loadFailed,
  });
}

export function exportBlacklist(params: Omit<ListParams<BlacklistFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/sync/exportBlacklist', { body: filtersOf(params), fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}


/** Answers the server's text, which carries the added and duplicate counts. */
export async function saveBlacklist(input: Partial<BlacklistAdd>): Promise<string> {
  const answer = await request<BlacklistAddResult>('/sync/saveBlacklist', { body: input, failText: m.saveFailed });
  return answer.msg;
}

export async function uploadBlacklist(input: StoredNumberFile & { deptId?: number }) {
  const answer = await request<BlacklistAddResult>('/sync/uploadBlacklist', { body: input, failText: m.uploadFailed });
  return { result: answer.data, msg: answer.msg };
}

/** ids: the entries' keys ('deptId:phone'). */
export async function deleteBlacklist(ids: string[]): Promise<string> {
  const answer = await request<BlacklistDeleted>('/sync/deleteBlacklist', { body: { ids }, failText: m.deleteFailed });
  return answer.msg;
}
