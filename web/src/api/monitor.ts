import { fill, messages, type LoginLog, type OnlineSession, type OperLog, type Page } from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import { withDays, type DayRange } from './dayRange.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { operLogListQuery, loginLogListQuery, onlineListQuery } from '@huiyun/contract';

const m = messages.monitor;

export type OperLogFilters = FiltersOf<typeof operLogListQuery, 'userName' | 'module' | 'success'> & DayRange;
export type LoginLogFilters = FiltersOf<typeof loginLogListQuery, 'userName' | 'ip' | 'success'> & DayRange;
export type OnlineFilters = FiltersOf<typeof onlineListQuery, 'userName' | 'ip'>;

/** The logs take their day range as beginTime / endTime. */
const withLogDays = <P extends DayRange>(params: P) => withDays(params, 'beginTime', 'endTime');

type ExportParams<F extends object> = Omit<ListParams<F>, 'page' | 'limit'>;
const exportFailText = messages.common.exportFailed;

export async function listOperLogs(params: ListParams<OperLogFilters>): Promise<Page<OperLog>> {
  return requestPage<OperLog>('/api/OperLog/list', { body: withLogDays(params), failText: m.operLogLoadFailed });
}

export function exportOperLogs(params: ExportParams<OperLogFilters>): Promise<void> {
  return download('/api/OperLog/export', { body: withLogDays(params), fileName: `${m.operLogTitle}.xlsx`, failText: exportFailText });
}

export async function listLoginLogs(params: ListParams<LoginLogFilters>): Promise<Page<LoginLog>> {
  return requestPage<LoginLog>('/api/LoginLog/list', { body: withLogDays(params), failText: m.loginLogLoadFailed });
}

export function exportLoginLogs(params: ExportParams<LoginLogFilters>): Promise<void> {
  return download('/api/LoginLog/export', { body: withLogDays(params), fileName: `${m.loginLogTitle}.xlsx`, failText: exportFailText });
}

export async function listOnline(params: ListParams<OnlineFilters>): Promise<Page<OnlineSession>> {
  return requestPage<OnlineSession>('/api/Online/list', { body: params, failText: m.onlineLoadFailed });
}

export function exportOnline(params: ExportParams<OnlineFilters>): Promise<void> {
  return download('/api/Online/export', { body: params, fileName: `${m.onlineTitle}.xlsx`, failText: exportFailText });
}

/** 强制下线 of one session; answers the server's success text ('用户…强制下线成功！'). */
export async function forceLogout(session: Pick<OnlineSession, 'sessionId' | 'userName'>): Promise<string> {
  const answer = await request('/api/Online/forceLogout', { body: { sessionId: session.sessionId }, failText: m.forceLogoutFailed });
  return answer.msg || fill(m.forceLogoutOk, { userName: session.userName });
}
