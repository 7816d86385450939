import type { FastifyInstance } from 'fastify';
import { Carrier, carrierLabel, messages, Perm, taskUserIdRequest, taskUserSave, taskUserStatisticsQuery, type TaskUserStatistics } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { listTaskUserStatistics, statisticsTotals } from './queries.ts';
import { clearHistoryTotals, clearSendNum, clearTotalSendNum, deleteTaskUser, saveTaskUser } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.statistics;
const audit = (action: string) => ({ module: m.title, action });

const exportColumns = sheetColumns<TaskUserStatistics>(m, {
  userId: 10, userName: 18, totalSendNum: 12, smcount: 10, sucount: 10, stcount: 10, socount: 10, sendNum: 12, deliveredNum: 10,
}, {
  smcount: carrierLabel(Carrier.mobile), sucount: carrierLabel(Carrier.unicom), stcount: carrierLabel(Carrier.telecom),
  socount: carrierLabel(Carrier.other),
});

// 用户发送统计 (SPEC §2.16, §7.8; the "chear" spelling is the public API's). POST, JSON or form bodies.
export function statisticsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/sync/queryStatisticsTotal', { config: { access: { permission: Perm.statisticsList }, doc: { tag: 'statistics', answer: answers.data(r.statisticsTotals) } } }, async (request) =>
      ok('', await statisticsTotals(ctx.db, callerOf(request), ctx.now())),
    );

    registerList(app, {
      permission: Perm.statisticsList,
      query: taskUserStatisticsQuery,
      list: '/sync/queryTaskUserStatisticsList',
      doc: { tag: 'statistics', row: r.taskUserStatisticsRow },
      load: (request, query) => listTaskUserStatistics(ctx.db, callerOf(request), query),
      export: { url: '/sync/exportTaskUserStatisticsList', fileName: m.title, columns: exportColumns },
    });

    app.post('/sync/saveTaskUser', { config: { access: { permission: Perm.taskUserSave }, doc: { tag: 'statistics', body: taskUserSave, answer: answers.data(r.syncSaved.taskUser) }, audit: audit(m.actionSave) } }, async (request) => {
      const input = parse(taskUserSave, request.body);
      describeTarget(request, input.userName);
      const userId = await saveTaskUser(ctx, callerOf(request), input);
      return ok(m.saved, { userId });
    });

    const clear = (url: string, action: string, run: typeof clearTotalSendNum) =>
      app.post(url, { config: { access: { permission: Perm.taskUserClear }, doc: { tag: 'statistics', body: taskUserIdRequest, answer: answers.message }, audit: audit(action) } }, async (request) => {
        const { taskUserId } = parse(taskUserIdRequest, request.body);
        describeTarget(request, `userId ${taskUserId}`);
        describeTarget(request, await run(ctx, callerOf(request), taskUserId));
        return ok(m.cleared);
      });
    clear('/sync/chearTaskUserTotalSendNum', m.actionClearTotal, clearTotalSendNum);
    clear('/sync/chearTaskUserSendNum', m.actionClearSingle, clearSendNum);

    app.post('/sync/chearHisTaskUserTotalSendNum', { config: { access: { permission: Perm.taskUserClear }, doc: { tag: 'statistics', answer: answers.message }, audit: audit(m.actionClearHistory) } }, async (request) => {
      const cleared = await clearHistoryTotals(ctx, callerOf(request));
      describeTarget(request, `${cleared}`);
      return ok(m.cleared);
    });

    app.post('/sync/deleteTaskUser', { config: { access: { permission: Perm.taskUserDelete }, doc: { tag: 'statistics', body: taskUserIdRequest, answer: answers.message }, audit: audit(m.actionDelete) } }, async (request) => {
      const { taskUserId } = parse(taskUserIdRequest, request.body);
      describeTarget(request, `userId ${taskUserId}`);
      describeTarget(request, await deleteTaskUser(ctx, callerOf(request), taskUserId));
      return ok(m.deleted);
    });
  };
}
