import { messages, type AuthCode, type AuthCodeRecharge, type AuthCodeSave, type Page, type TaskUserChoice, type UserDevice } from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { authCodeListQuery } from '@huiyun/contract';

const m = messages.authcode;

export type AuthCodeFilters = FiltersOf<typeof authCodeListQuery, 'authCode'>;

/** The task area pages with pageNum / pageSize (SPEC §3). */
export async function listAuthCodes(params: ListParams<AuthCodeFilters>): Promise<Page<AuthCode>> {
  return requestPage<AuthCode>('/sync/queryAuthCodeList', {
    body: { pageNum: params.page, pageSize: params.limit, after: params.after, authCode: params.authCode ?? '' },
    failText: m.loadFailed,
  });
}

export function exportAuthCodes(params: Omit<ListParams<AuthCodeFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/sync/exportAuthCodeList', {
    body: { authCode: params.authCode ?? '' },
    fileName: `${m.title}.xlsx`,
    failText: messages.common.exportFailed,
  });
}

/** The owner choices of the add dialog. */
export async function listTaskUsers(): Promise<TaskUserChoice[]> {
  const answer = await request<TaskUserChoice[]>('/sync/queryTaskUserList', { body: {}, failText: m.loadFailed });
  return answer.data ?? [];
}

/** The devices activated by the caller's codes (or, for an administrator, by those of userId). */
export async function listUserDevices(userId?: number): Promise<UserDevice[]> {
  const answer = await request<UserDevice[]>('/sync/queryUserCodeList', { body: userId ? { userId } : {}, failText: m.devicesLoadFailed });
  return answer.data ?? [];
}

export async function saveAuthCode(input: AuthCodeSave): Promise<string> {
  const answer = await request('/sync/saveAuthCode', { body: input, failText: m.saveFailed });
  return answer.msg || m.saved;
}

export async function rechargeAuthCode(input: AuthCodeRecharge): Promise<string> {
  const answer = await request('/sync/recAuthCode', { body: input, failText: m.rechargeFailed });
  return answer.msg || m.recharged;
}

export async function deleteAuthCode(id: number): Promise<string> {
  const answer = await request('/sync/deleteAuthCode', { body: { id }, failText: m.deleteFailed });
  return answer.msg || m.deleted;
}
