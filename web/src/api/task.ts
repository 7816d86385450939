import { messages, type Page, type Task, type TaskSave, type UploadTaskDataResult, type UserDevice } from '@huiyun/contract';
import { getSession, getToken } from '../shared/session.ts';
import type { ListParams, FiltersOf } from './types.ts';
import { request, requestPage } from './client.ts';
import type { taskListQuery } from '@huiyun/contract';

const m = messages.task;

export type TaskFilters = FiltersOf<typeof taskListQuery, 'taskName'>;

/** /sync/queryTaskInfoList pages with pageNum / pageSize (SPEC §3 "Paged responses"). */
export async function listTasks(params: ListParams<TaskFilters>): Promise<Page<Task>> {
  return requestPage<Task>('/sync/queryTaskInfoList', {
    body: { pageNum: params.page, pageSize: params.limit, after: params.after, taskName: params.taskName ?? '' },
    failText: m.loadFailed,
  });
}

/** The devices the account activated; an administrator editing another account's task names it. */
export async function listUserDevices(userId?: number): Promise<UserDevice[]> {
  const answer = await request<UserDevice[]>('/sync/queryUserCodeList', { body: userId ? { userId } : {}, failText: m.deviceLoadFailed });
  return answer.data ?? [];
}

/** Answers the server's success text ('任务保存成功！'). */
export async function saveTask(input: Partial<TaskSave>): Promise<string> {
  const answer = await request('/sync/saveTaskInfo', { body: input, failText: m.saveFailed });
  return answer.msg || m.saved;
}

export async function pauseStartTask(taskId: number, taskStatus: number): Promise<string> {
  const answer = await request('/sync/pauseStartTaskInfo', { body: { taskId, taskStatus }, failText: m.pauseStartFailed });
  return answer.msg || m.pauseStartOk;
}

export async function deleteTask(taskId: number): Promise<string> {
  const answer = await request('/sync/deleteTaskInfo', { body: { taskId }, failText: m.deleteFailed });
  return answer.msg || m.deleted;
}

export async function saveTestNumber(input: { taskId: number; testNum: number; testPhone: string }): Promise<string> {
  const answer = await request('/sync/saveTest', { body: input, failText: m.testFailed });
  return answer.msg || m.testSaved;
}

/** Answers the stored QR image's link and the server's text. */
export async function generateQrImage(qrUrl: string): Promise<{ url: string; msg: string }> {
  const answer = await request<string>('/sync/generateQRCodeImage', { body: { qrUrl }, failText: m.qrFailed });
  return { url: answer.data, msg: answer.msg || m.qrGenerated };
}

export async function uploadTaskData(input: { taskId: number; fileNo: string; fileName: string; fileUrl: string }) {
  const answer = await request<UploadTaskDataResult>('/sync/uploadTaskData', { body: input, failText: m.uploadFailed });
  return { result: answer.data, msg: answer.msg || m.uploaded };
}

/** /sync/exportTask is a browser navigation (SPEC §7.1): the session rides in the query. */
export function exportTaskUrl(taskId: number, exportType: number): string {
  const params = new URLSearchParams({
    userId: String(getSession()?.userId ?? ''),
    token: getToken() ?? '',
    taskId: String(taskId),
    exportType: String(exportType),
  });
  return `/sync/exportTask?${params.toString()}`;
}
