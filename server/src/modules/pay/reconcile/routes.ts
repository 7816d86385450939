import type { FastifyInstance } from 'fastify';
import {
  fill, messages, Perm, reconcileCategoryOptions, reconcileDiffListQuery, reconcileHandleRequest, reconcileKindOptions, reconcileResultOptions,
  reconcileRunListQuery, reconcileRunRequest, shanghaiDay, labelOf, type ReconcileDiff, type ReconcileRun, type ReconcileRunAnswer,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { AppError, conflict } from '../../../http/errors.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import type { XlsxColumn } from '../../../http/xlsx.ts';
import { payAccount, type GatewayRegistry } from '../gateways/index.ts';
import { configChoices, configIdsToRun, handleDiff, listDiffs, listRuns } from './queries.ts';
import { reconcileDay, type ReconcileDeps } from './run.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.reconcile;

// The sheets show labels (有差异, 金额不一致, 支付, 已处理) rather than the stored names.
type RunExportRow = Omit<ReconcileRun, 'result'> & { result: string };
const runColumns: XlsxColumn<RunExportRow>[] = [
  { header: m.day, key: 'day', width: 12 },
  { header: m.configName, key: 'configName', width: 20 },
  { header: m.deptName, key: 'deptName', width: 20 },
  { header: m.platformCount, key: 'platformCount', width: 10 },
  { header: m.platformAmount, key: 'platformAmount', width: 12 },
  { header: m.gatewayCount, key: 'gatewayCount', width: 10 },
  { header: m.gatewayAmount, key: 'gatewayAmount', width: 12 },
  { header: m.diffCount, key: 'diffCount', width: 8 },
  { header: m.unhandledCount, key: 'unhandledCount', width: 8 },
  { header: m.result, key: 'result', width: 10 },
  { header: m.message, key: 'message', width: 30 },
  { header: m.runBy, key: 'runBy', width: 12 },
  { header: m.finishTime, key: 'finishTime', width: 20 },
];

type DiffExportRow = Omit<ReconcileDiff, 'handled' | 'category' | 'kind'> & { handled: string; category: string; kind: string };
const diffColumns: XlsxColumn<DiffExportRow>[] = [
  { header: m.category, key: 'category', width: 14 },
  { header: m.kind, key: 'kind', width: 8 },
  { header: m.orderNo, key: 'orderNo', width: 28 },
  { header: m.refundNo, key: 'refundNo', width: 28 },
  { header: m.gatewayTradeNo, key: 'gatewayTradeNo', width: 32 },
  { header: m.platformDiffAmount, key: 'platformAmount', width: 12 },
  { header: m.platformStatus, key: 'platformStatus', width: 12 },
  { header: m.gatewayDiffAmount, key: 'gatewayAmount', width: 12 },
  { header: m.gatewayStatus, key: 'gatewayStatus', width: 12 },
  { header: m.gatewayTime, key: 'gatewayTime', width: 20 },
  { header: m.handled, key: 'handled', width: 10 },
  { header: m.handleNote, key: 'handleNote', width: 30 },
  { header: m.handledBy, key: 'handledBy', width: 12 },
  { header: m.handledTime, key: 'handledTime', width: 20 },
];

/** The reconciliation of a day by the gateways this server has (the registry of the payment runtime). */
export function reconcileDeps(ctx: AppContext, gateways: GatewayRegistry, onError?: (error: unknown) => void): ReconcileDeps {
  return { db: ctx.db, now: ctx.now, gatewayOf: (name) => gateways.get(name), accountOf: (id) => payAccount(ctx, id), onError };
}

// 对账 (/pay/Reconcile): the runs, a run's differences (both with their export), the 对账 button,
// 标记处理 (operation log) and the 支付配置 choices. The daily job is the payments service's (pay/payments).
export function reconcileRoutes(ctx: AppContext, gateways: GatewayRegistry) {
  return async (app: FastifyInstance) => {
    const deps = reconcileDeps(ctx, gateways, (error) => app.log.error({ err: error }, '对账 failed'));
    const audit = (action: string) => ({ module: m.title, action });

    registerList(app, {
      permission: Perm.reconcileList,
      query: reconcileRunListQuery,
      list: '/api/Reconcile/list',
      doc: { tag: 'reconcile', row: r.reconcileRunRow },
      load: (request, query) => listRuns(ctx.db, callerOf(request).deptScope, query),
      export: { url: '/api/Reconcile/export', fileName: m.title, columns: runColumns, row: (row): RunExportRow => ({ ...row, result: labelOf(reconcileResultOptions, row.result) }) },
    });

    registerList(app, {
      permission: Perm.reconcileList,
      query: reconcileDiffListQuery,
      list: '/api/Reconcile/diffList',
      doc: { tag: 'reconcile', row: r.reconcileDiffRow },
      load: (request, query) => listDiffs(ctx.db, callerOf(request).deptScope, query),
      export: {
        url: '/api/Reconcile/diffExport', fileName: m.diffExportName, columns: diffColumns,
        row: (row): DiffExportRow => ({
          ...row, category: labelOf(reconcileCategoryOptions, row.category), kind: labelOf(reconcileKindOptions, row.kind),
          handled: row.handled ? m.handledYes : m.handledNo,
        }),
      },
    });

    app.post('/api/Reconcile/configOptions', { config: { access: { permission: Perm.reconcileList }, doc: { tag: 'reconcile', answer: answers.items(r.reconcileConfigChoice) } } }, async (request) =>
      ok('', await configChoices(ctx.db, callerOf(request).deptScope)));

    app.post('/api/Reconcile/run', { config: { access: { permission: Perm.reconcileRun }, doc: { tag: 'reconcile', body: reconcileRunRequest, answer: answers.data(r.reconcileRunAnswer), refuses: [409] }, audit: audit(m.run) } }, async (request) => {
      const input = parse(reconcileRunRequest, request.body);
      describeTarget(request, `${input.day} ${input.configId === undefined ? m.allConfigs : `configId ${input.configId}`}`);
      const today = shanghaiDay(ctx.now());
      if (input.day > today || (input.day === today && !ctx.config.pay.reconcileToday)) throw new AppError(m.dayNotPast);
      const caller = callerOf(request);
      const configIds = await configIdsToRun(ctx.db, caller.deptScope, input.configId);
      if (configIds.length === 0) throw new AppError(m.noConfigs);
      const answer = await reconcileDay(deps, { day: input.day, configIds, by: caller.userName, mode: 'button' });
      if (answer.runs === 0) throw conflict(m.runBusy);
      return ok(fill(m.runDone, { runs: answer.runs, diffs: answer.diffs }), { runs: answer.runs, diffs: answer.diffs } satisfies ReconcileRunAnswer);
    });

    app.post('/api/Reconcile/handle', { config: { access: { permission: Perm.reconcileHandle }, doc: { tag: 'reconcile', body: reconcileHandleRequest, answer: answers.message }, audit: audit(m.handle) } }, async (request) => {
      const input = parse(reconcileHandleRequest, request.body);
      describeTarget(request, `diffId ${input.diffId}`);
      const caller = callerOf(request);
      const diff = await handleDiff(ctx.db, caller.deptScope, { ...input, by: caller.userName, now: ctx.now() });
      describeTarget(request, `${diff.refundNo || diff.orderNo} ${labelOf(reconcileCategoryOptions, diff.category)}：${input.note}`);
      return ok(m.handleDone);
    });

  };
}
