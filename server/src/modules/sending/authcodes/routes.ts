import type { FastifyInstance } from 'fastify';
import {
  AuthCodeUseStatus, authCodeIdRequest, authCodeListQuery, authCodeRecharge, authCodeSave, authCodeUseStatusOptions, isAuthCodeUsed, labelOf, messages, Perm,
  userCodeListQuery, type AuthCode,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { listAuthCodes, taskUserChoices } from './queries.ts';
import { deleteAuthCode, rechargeAuthCode, saveAuthCode, userDevices } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.authcode;
const audit = (action: string) => ({ module: m.title, action });

type ExportRow = AuthCode & { useStatusText: string };
const exportColumns = sheetColumns<ExportRow>(m, {
  id: 10, userName: 18, authCode: 24, useStatusText: 12, machineName: 24, dueNum: 14, dueDateStr: 20,
}, { useStatusText: m.useStatus });

// 授权码列表 (SPEC §2.15, §7.8). Task-area calls accept POST with JSON or form bodies.
export function authCodeRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.authCodeList,
      query: authCodeListQuery,
      list: '/sync/queryAuthCodeList',
      doc: { tag: 'authcode', row: r.authCodeRow },
      load: (request, query) => listAuthCodes(ctx.db, callerOf(request), query),
      export: {
        url: '/sync/exportAuthCodeList', fileName: m.title, columns: exportColumns,
        row: (row): ExportRow => ({ ...row, useStatusText: labelOf(authCodeUseStatusOptions, isAuthCodeUsed(row.useStatus) ? AuthCodeUseStatus.used : AuthCodeUseStatus.unused) }),
      },
    });

    app.post('/sync/queryTaskUserList', { config: { access: { permission: Perm.authCodeList }, doc: { tag: 'authcode', answer: answers.items(r.taskUserChoice) } } }, async (request) =>
      ok('', await taskUserChoices(ctx.db, callerOf(request))),
    );

    for (const method of ['GET', 'POST'] as const) {
      app.route({
        method,
        url: '/sync/queryUserCodeList',
        config: { access: 'login', doc: { tag: 'authcode', body: userCodeListQuery, answer: answers.items(r.userDevice) } },
        handler: async (request) => {
          const { userId } = parse(userCodeListQuery, method === 'GET' ? request.query : request.body);
          return ok('', await userDevices(ctx, callerOf(request), userId));
        },
      });
    }

    app.post('/sync/saveAuthCode', { config: { access: { permission: Perm.authCodeSave }, doc: { tag: 'authcode', body: authCodeSave, answer: answers.data(r.syncSaved.authCode) }, audit: audit(m.actionSave) } }, async (request) => {
      const input = parse(authCodeSave, request.body);
      describeTarget(request, input.authCode);
      const id = await saveAuthCode(ctx, callerOf(request), input);
      return ok(m.saved, { id });
    });

    app.post('/sync/recAuthCode', { config: { access: { permission: Perm.authCodeRecharge }, doc: { tag: 'authcode', body: authCodeRecharge, answer: answers.message }, audit: audit(m.actionRecharge) } }, async (request) => {
      const input = parse(authCodeRecharge, request.body);
      describeTarget(request, `id ${input.id} +${input.dueNum} / +${input.dueDateNum}d`);
      const authCode = await rechargeAuthCode(ctx, callerOf(request), input);
      describeTarget(request, `${authCode} +${input.dueNum} / +${input.dueDateNum}d`);
      return ok(m.recharged);
    });

    app.post('/sync/deleteAuthCode', { config: { access: { permission: Perm.authCodeDelete }, doc: { tag: 'authcode', body: authCodeIdRequest, answer: answers.message }, audit: audit(m.actionDelete) } }, async (request) => {
      const { id } = parse(authCodeIdRequest, request.body);
      describeTarget(request, `id ${id}`);
      const authCode = await deleteAuthCode(ctx, callerOf(request), id);
      describeTarget(request, authCode);
      return ok(m.deleted);
    });
  };
}
