import {
  messages,
  type Page, type User, type UserDeptNode, type UserPasswordReset, type UserSave, type UserSaveAnswer,
} from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { userListQuery } from '@huiyun/contract';

const m = messages.user;

export type UserFilters = FiltersOf<typeof userListQuery, 'isLock' | 'userName' | 'userMobile'>;

export async function listUsers(params: ListParams<UserFilters>): Promise<Page<User>> {
  return requestPage<User>('/api/User/list', { body: params, failText: m.loadFailed });
}

export function exportUsers(params: Omit<ListParams<UserFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/User/export', { body: params, fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}

/** Answers the server's text ('数据保存成功！') and, for a new account, its one-time password. */
export async function saveUser(input: Partial<UserSave>): Promise<{ msg: string; initialPassword?: string }> {
  const answer = await request<UserSaveAnswer>('/api/User/save', { body: input, failText: messages.common.saveFailed });
  return { msg: answer.msg || messages.common.dataSaved, initialPassword: answer.data?.initialPassword };
}

export async function deleteUsers(ids: number[]): Promise<string> {
  const answer = await request('/api/User/delete', { method: 'DELETE', query: { ids: ids.join(',') }, failText: messages.common.deleteFailed });
  return answer.msg || messages.common.dataDeleted;
}

export async function lockUser(userId: number, lock: string): Promise<string> {
  const answer = await request('/api/User/lock', { query: { userId, lock }, failText: m.lockFailed });
  return answer.msg || m.lockChanged;
}

export async function resetPassword(userId: number): Promise<{ msg: string; data: UserPasswordReset }> {
  const answer = await request<UserPasswordReset>('/api/User/pwd', { body: { userId }, failText: m.resetPwdFailed });
  return { msg: answer.msg || m.resetPwdOk, data: answer.data };
}

export async function forceOffline(userName: string): Promise<string> {
  const answer = await request(`/api/User/expireToken/${encodeURIComponent(userName)}`, { failText: m.forceOfflineFailed });
  return answer.msg;
}

export async function refreshCache(userName: string): Promise<string> {
  const answer = await request(`/api/User/flashCache/${encodeURIComponent(userName)}`, { failText: m.flashCacheFailed });
  return answer.msg || m.flashCacheOk;
}

export async function changeDept(userIds: number[], deptId: number, deptName: string): Promise<string> {
  const answer = await request('/api/User/change/dept', { body: { userIds: userIds.join(','), deptId, deptName }, failText: m.changeDeptFailed });
  return answer.msg || m.changeDeptOk;
}

/** The companies the caller may see, as flat tree items. */
export async function companyTree(): Promise<UserDeptNode[]> {
  const answer = await request<UserDeptNode[]>('/api/UserDept/deptTree/0', { failText: m.dataScopeLoadFailed });
  return answer.data ?? [];
}

/** The caller's companies with the user's granted ones ticked. */
export async function userDeptTree(userId: number): Promise<UserDeptNode[]> {
  const answer = await request<UserDeptNode[]>(`/api/UserDept/tree/${userId}`, { failText: m.dataScopeLoadFailed });
  return answer.data ?? [];
}

export async function saveUserDepts(userId: number, deptIds: number[]): Promise<string> {
  const answer = await request('/api/UserDept/save', { body: { userId, deptIds: JSON.stringify(deptIds) }, failText: m.dataScopeSaveFailed });
  return answer.msg || m.dataScopeSaved;
}
