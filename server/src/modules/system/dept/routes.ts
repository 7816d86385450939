import type { FastifyInstance, FastifyRequest } from 'fastify';
import { deptListQuery, deptSave, idsRequest, messages, Perm, type Dept } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { deptChoices, listDepts } from './queries.ts';
import { deleteDepts, saveDept } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.dept;
const audit = (action: string) => ({ module: m.title, action });

const exportColumns = sheetColumns<Dept>([m, messages.common], { deptName: 28, deptNo: 20, editUser: 18, editTime: 20 });

/** The screens that offer a company filter or choice: 机器列表 (its dialog), 交易订单, 支付告警, 支付配置 (its dialog), 黑名单. */
const deptChoiceReaders = [Perm.machineSave, Perm.orderList, Perm.payAlarmList, Perm.payConfigSave, Perm.blacklistList];

/** 公司管理 (SPEC §2.4, §7.2): list, export, save, delete; all within the caller's data scope. */
export function deptRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.deptList,
      query: deptListQuery,
      list: '/api/Dept/list',
      doc: { tag: 'dept', row: r.deptRow },
      load: (request, query) => listDepts(ctx.db, callerOf(request).deptScope, query),
      export: { url: '/api/Dept/export', fileName: m.title, columns: exportColumns },
    });

    // The one list of companies a caller may pick; every screen with a company filter or choice reads it.
    app.post('/api/Dept/choices', { config: { access: { anyOf: deptChoiceReaders }, doc: { tag: 'dept', answer: answers.items(r.deptChoice) } } }, async (request) =>
      ok('', await deptChoices(ctx.db, callerOf(request).deptScope)));

    app.post('/api/Dept/save', { config: { access: { permission: Perm.deptSave }, doc: { tag: 'dept', body: deptSave, answer: answers.data(r.systemSaved.dept) }, audit: audit(messages.common.actionSave) } }, async (request) => {
      const input = parse(deptSave, request.body);
      describeTarget(request, `${input.deptNo} ${input.deptName}`);
      const deptId = await saveDept(ctx, callerOf(request), input);
      return ok(m.saved, { deptId });
    });

    // SPEC §7.2 deletes with GET; DELETE is accepted too.
    const remove = async (request: FastifyRequest) => {
      const { ids } = parse(idsRequest, request.query);
      describeTarget(request, `deptId ${ids.join(',')}`);
      await deleteDepts(ctx, callerOf(request), ids);
      return ok(m.deleted);
    };
    const removeOptions = { config: { access: { permission: Perm.deptDelete }, doc: { tag: 'dept', query: idsRequest, answer: answers.message }, audit: audit(messages.common.actionDelete) } };
    app.get('/api/Dept/delete', removeOptions, remove);
    app.delete('/api/Dept/delete', removeOptions, remove);
  };
}
