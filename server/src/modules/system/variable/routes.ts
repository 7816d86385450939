import type { FastifyInstance } from 'fastify';
import { idsRequest, messages, Perm, variableListQuery, variableSave, type Variable } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { listVariables } from './queries.ts';
import { deleteVariables, saveVariable } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const audit = (action: string) => ({ module: messages.variable.title, action });

const exportColumns = sheetColumns<Variable>([messages.variable, messages.common], { varLable: 24, varName: 24, varValue: 40, editUser: 18, editTime: 20 });

export function variableRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.variableList,
      query: variableListQuery,
      list: '/api/Variable/list',
      doc: { tag: 'variable', row: r.variableRow },
      load: (_request, query) => listVariables(ctx.db, query),
      export: { url: '/api/Variable/export', fileName: messages.variable.title, columns: exportColumns },
    });

    app.post('/api/Variable/save', { config: { access: { permission: Perm.variableSave }, doc: { tag: 'variable', body: variableSave, answer: answers.data(r.systemSaved.variable) }, audit: audit(messages.common.actionSave) } }, async (request) => {
      const input = parse(variableSave, request.body);
      describeTarget(request, input.varName);
      const varId = await saveVariable(ctx, callerOf(request), input);
      return ok(messages.variable.saved, { varId });
    });

    app.delete('/api/Variable/delete', { config: { access: { permission: Perm.variableDelete }, doc: { tag: 'variable', query: idsRequest, answer: answers.message }, audit: audit(messages.common.actionDelete) } }, async (request) => {
      const { ids } = parse(idsRequest, request.query);
      describeTarget(request, `varId ${ids.join(',')}`);
      await deleteVariables(ctx, ids);
      return ok(messages.variable.deleted);
    });
  };
}
