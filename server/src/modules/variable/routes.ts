import type { FastifyInstance } from 'fastify';
import { idsRequest, messages, Perm, variableListQuery, variableSave } from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { callerOf } from '../../http/access-check.ts';
import { ok, page } from '../../http/envelope.ts';
import { parse } from '../../http/validate.ts';
import { listVariables } from './queries.ts';
import { deleteVariables, saveVariable } from './service.ts';

export function variableRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/api/Variable/list', { config: { access: { permission: Perm.variableList } } }, async (request) => {
      const { rows, total } = await listVariables(ctx.db, parse(variableListQuery, request.body));
      return page(rows, total);
    });

    app.post('/api/Variable/save', { config: { access: { permission: Perm.variableSave } } }, async (request) => {
      const varId = await saveVariable(ctx, callerOf(request), parse(variableSave, request.body));
      return ok(messages.variable.saved, { varId });
    });

    app.delete('/api/Variable/delete', { config: { access: { permission: Perm.variableDelete } } }, async (request) => {
      const { ids } = parse(idsRequest, request.query);
      await deleteVariables(ctx, ids);
      return ok(messages.variable.deleted);
    });
  };
}
