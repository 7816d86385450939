import type { FastifyInstance } from 'fastify';
import { idsRequest, messages, moduleIdParams, moduleNodesQuery, moduleSave, Perm, type Module } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { notFound } from '../../../http/errors.ts';
import { parse } from '../../../http/validate.ts';
import { sendXlsx, sheetColumns } from '../../../http/xlsx.ts';
import { allModules, findModule, groupModules, moduleTree } from './queries.ts';
import { deleteModules, saveModule } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.menu;
const audit = (action: string) => ({ module: m.title, action });

const exportColumns = sheetColumns<Module>(m, {
  moduleId: 10, parentId: 10, moduleName: 20, moduleIcon: 24, moduleUrl: 30, moduleOrder: 10, moduleLevel: 8, moduleNotes: 30,
});

export function menuRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/api/Module/list', { config: { access: { permission: Perm.moduleList }, doc: { tag: 'menu', answer: answers.items(r.moduleTreeNode) } } }, async () => ok('', await moduleTree(ctx.db)));

    app.post('/api/Module/export', { config: { access: { permission: Perm.moduleList }, doc: { tag: 'menu', answer: answers.xlsx } } }, async (_request, reply) =>
      sendXlsx(reply, m.title, exportColumns, await allModules(ctx.db)),
    );

    app.post('/api/Module/nodes', { config: { access: { permission: Perm.moduleList }, doc: { tag: 'menu', body: moduleNodesQuery, answer: answers.list(r.moduleRow) } } }, async (request) => {
      const { rows, total } = await groupModules(ctx.db, parse(moduleNodesQuery, request.body));
      return ok('', rows, total);
    });

    app.get('/api/Module/get/:id', { config: { access: { permission: Perm.moduleList }, doc: { tag: 'menu', params: moduleIdParams, answer: answers.data(r.moduleRow) } } }, async (request) => {
      const { id } = parse(moduleIdParams, request.params);
      const found = await findModule(ctx.db, id);
      if (!found) throw notFound(m.moduleNotFound);
      return ok('', found);
    });

    app.post('/api/Module/save', { config: { access: { permission: Perm.moduleSave }, doc: { tag: 'menu', body: moduleSave, answer: answers.data(r.systemSaved.module), refuses: [409] }, audit: audit(messages.common.actionSave) } }, async (request) => {
      const input = parse(moduleSave, request.body);
      describeTarget(request, `${input.moduleName} ${input.moduleUrl}`);
      const moduleId = await saveModule(ctx, input);
      return ok(m.saved, { moduleId });
    });

    app.delete('/api/Module/delete', { config: { access: { permission: Perm.moduleDelete }, doc: { tag: 'menu', query: idsRequest, answer: answers.message }, audit: audit(messages.common.actionDelete) } }, async (request) => {
      const { ids } = parse(idsRequest, request.query);
      describeTarget(request, `moduleId ${ids.join(',')}`);
      await deleteModules(ctx, ids);
      return ok(m.deleted);
    });
  };
}
