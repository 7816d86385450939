import type { FastifyInstance } from 'fastify';
import { idsRequest, messages, Perm, roleIdParams, roleListQuery, roleRightSave, roleSave, type Role } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { listRoles, roleOptions, roleRightTree } from './queries.ts';
import { roleGrantTree, saveRoleRights } from './grants.ts';
import { assertRoleExists, deleteRoles, saveRole } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.role;
const audit = (action: string) => ({ module: m.title, action });

type RoleExportRow = Omit<Role, 'isAdmin'> & { isAdmin: string };
const exportColumns = sheetColumns<RoleExportRow>([m, messages.common], {
  roleId: 10, systemNo: 18, roleNo: 20, roleName: 20, isAdmin: 12, userCount: 10, editTime: 20,
});

export function roleRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.roleList,
      query: roleListQuery,
      list: '/api/Role/list',
      doc: { tag: 'role', row: r.roleRow },
      load: (request, query) => listRoles(ctx.db, callerOf(request), query),
      export: {
        url: '/api/Role/export', fileName: m.title, columns: exportColumns,
        row: (r): RoleExportRow => ({ ...r, isAdmin: r.isAdmin ? m.yes : m.no }),
      },
    });

    app.post('/api/Role/save', { config: { access: { permission: Perm.roleSave }, doc: { tag: 'role', body: roleSave, answer: answers.data(r.systemSaved.role), refuses: [409] }, audit: audit(messages.common.actionSave) } }, async (request) => {
      const input = parse(roleSave, request.body);
      describeTarget(request, input.roleNo);
      const roleId = await saveRole(ctx, callerOf(request), input);
      return ok(m.saved, { roleId });
    });

    app.delete('/api/Role/delete', { config: { access: { permission: Perm.roleDelete }, doc: { tag: 'role', query: idsRequest, answer: answers.message }, audit: audit(messages.common.actionDelete) } }, async (request) => {
      const { ids } = parse(idsRequest, request.query);
      describeTarget(request, `roleId ${ids.join(',')}`);
      await deleteRoles(ctx, callerOf(request), ids);
      return ok(m.deleted);
    });

    // The role choices of the user form and of 权限管理's role filter.
    app.get('/api/Role/dropDown/all', { config: { access: { anyOf: [Perm.userList, Perm.permissionList] }, doc: { tag: 'role', answer: answers.items(r.roleOption) } } }, async (request) => {
      return ok('', await roleOptions(ctx.db, callerOf(request)));
    });

    app.get('/api/RoleRight/tree/:roleId', { config: { access: { permission: Perm.roleGrantMenu }, doc: { tag: 'role', params: roleIdParams, answer: answers.items(r.grantNode) } } }, async (request) => {
      const { roleId } = parse(roleIdParams, request.params);
      await assertRoleExists(ctx, callerOf(request), roleId);
      return ok('', await roleRightTree(ctx.db, roleId));
    });

    // The console's 菜单权限: the tree above with each screen's permission codes under it.
    app.get('/api/RoleRight/grants/:roleId', { config: { access: { permission: Perm.roleGrantMenu }, doc: { tag: 'role', params: roleIdParams, answer: answers.data(r.roleGrantTree) } } }, async (request) => {
      const { roleId } = parse(roleIdParams, request.params);
      await assertRoleExists(ctx, callerOf(request), roleId);
      return ok('', await roleGrantTree(ctx.db, roleId));
    });

    app.post('/api/RoleRight/save', { config: { access: { permission: Perm.roleGrantMenu }, doc: { tag: 'role', body: roleRightSave, answer: answers.message }, audit: audit(m.actionGrantMenu) } }, async (request) => {
      const input = parse(roleRightSave, request.body);
      describeTarget(request, `roleId ${input.roleId}`);
      await saveRoleRights(ctx, callerOf(request), input);
      return ok(m.rightsSaved);
    });
  };
}
