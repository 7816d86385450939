import type { FastifyInstance } from 'fastify';
import {
  fill, forceLogoutRequest, labelOf, loginLogListQuery, logResultOptions, messages, onlineListQuery, operLogListQuery, Perm,
  type LoginLog, type OnlineSession, type OperLog,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { listLoginLogs, listOperLogs } from './queries.ts';
import { forceLogout, listOnline } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.monitor;

// Exports show 成功 / 失败 rather than 1 / 0.
type WithResultLabel<T> = Omit<T, 'success'> & { success: string };
const withResultLabel = <T extends { success: number }>(row: T) => ({ ...row, success: labelOf(logResultOptions, row.success as 0 | 1) });

const operLogColumns = sheetColumns<WithResultLabel<OperLog>>(m, {
  operId: 10, userName: 18, module: 18, action: 12, target: 30, method: 10, url: 32, ip: 18, success: 8, message: 30, costMs: 12, operTime: 20,
}, { success: m.result });

const loginLogColumns = sheetColumns<WithResultLabel<LoginLog>>(m, {
  infoId: 10, userName: 18, ip: 18, client: 28, userAgent: 50, success: 8, message: 30, loginTime: 20,
}, { success: m.result });

const onlineColumns = sheetColumns<OnlineSession>(m, {
  userName: 18, userRealName: 18, deptName: 24, ip: 18, client: 28, loginTime: 20, lastSeenAt: 20, expiresAt: 20,
});

export function monitorRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.operLogList,
      query: operLogListQuery,
      list: '/api/OperLog/list',
      doc: { tag: 'monitor', row: r.operLogRow },
      load: (request, query) => listOperLogs(ctx.db, callerOf(request).deptScope, query),
      export: { url: '/api/OperLog/export', fileName: m.operLogTitle, columns: operLogColumns, row: withResultLabel },
    });

    registerList(app, {
      permission: Perm.loginLogList,
      query: loginLogListQuery,
      list: '/api/LoginLog/list',
      doc: { tag: 'monitor', row: r.loginLogRow },
      load: (request, query) => listLoginLogs(ctx.db, callerOf(request).deptScope, query),
      export: { url: '/api/LoginLog/export', fileName: m.loginLogTitle, columns: loginLogColumns, row: withResultLabel },
    });

    registerList(app, {
      permission: Perm.onlineList,
      query: onlineListQuery,
      list: '/api/Online/list',
      doc: { tag: 'monitor', row: r.onlineSession },
      load: (request, query) => listOnline(ctx, callerOf(request), query, request.sessionTokenHash),
      export: { url: '/api/Online/export', fileName: m.onlineTitle, columns: onlineColumns },
    });

    app.post('/api/Online/forceLogout', { config: { access: { permission: Perm.onlineForceLogout }, doc: { tag: 'monitor', body: forceLogoutRequest, answer: answers.message }, audit: { module: m.onlineTitle, action: messages.common.actionForceOffline } } }, async (request) => {
      const { sessionId } = parse(forceLogoutRequest, request.body);
      // Only a prefix of the hash goes into the log: enough to tell sessions apart.
      describeTarget(request, `session ${sessionId.slice(0, 12)}`);
      const userName = await forceLogout(ctx, callerOf(request), sessionId, request.sessionTokenHash);
      describeTarget(request, `${userName} (session ${sessionId.slice(0, 12)})`);
      return ok(fill(m.forceLogoutOk, { userName }));
    });
  };
}
