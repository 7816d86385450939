import {
  messages, type Page, type ReconcileConfigChoice, type ReconcileDiff, type ReconcileHandleRequest, type ReconcileRun, type ReconcileRunAnswer,
} from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import { withDays, type DayRange } from './dayRange.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { z } from 'zod';
import type { reconcileRunListQuery, reconcileDiffListQuery } from '@huiyun/contract';

const m = messages.reconcile;

// 对账 (server/src/modules/pay/reconcile/routes.ts).

export type ReconcileRunFilters = FiltersOf<typeof reconcileRunListQuery, 'configId' | 'deptId' | 'result'> & DayRange;
export type ReconcileDiffFilters = Pick<z.output<typeof reconcileDiffListQuery>, 'runId'> & FiltersOf<typeof reconcileDiffListQuery, 'category' | 'handled'>;

export async function listReconcileRuns(params: ListParams<ReconcileRunFilters>): Promise<Page<ReconcileRun>> {
  return requestPage<ReconcileRun>('/api/Reconcile/list', { body: withDays(params), failText: m.loadFailed });
}

export function exportReconcileRuns(params: Omit<ListParams<ReconcileRunFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/Reconcile/export', { body: withDays(params), fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}

export async function listReconcileDiffs(params: ListParams<ReconcileDiffFilters>): Promise<Page<ReconcileDiff>> {
  return requestPage<ReconcileDiff>('/api/Reconcile/diffList', { body: params, failText: m.loadFailed });
}

export function exportReconcileDiffs(params: Omit<ListParams<ReconcileDiffFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/Reconcile/diffExport', { body: params, fileName: `${m.diffExportName}.xlsx`, failText: messages.common.exportFailed });
}

export async function reconcileConfigOptions(): Promise<ReconcileConfigChoice[]> {
  return (await request<ReconcileConfigChoice[]>('/api/Reconcile/configOptions', { body: {}, failText: m.loadFailed })).data ?? [];
}

/** 对账 of a day: answers the server's text (对账完成：…). */
export async function runReconcile(input: { day: string; configId?: number }): Promise<string> {
  return (await request<ReconcileRunAnswer>('/api/Reconcile/run', { body: input, failText: m.runFailed })).msg;
}

export async function handleReconcileDiff(input: ReconcileHandleRequest): Promise<string> {
  return (await request<void>('/api/Reconcile/handle', { body: input, failText: m.handleFailed })).msg;
}
