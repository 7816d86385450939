import type { FastifyInstance } from 'fastify';
import {
  idsRequest, messages, Perm, permissionListQuery, permissionSave, rolePermissionListParams, rolePermissionSave, type Permission,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { listPermissions } from './queries.ts';
import { deletePermissions, rolePermissionIds, savePermission, saveRolePermissions } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.permission;
const audit = (action: string) => ({ module: m.title, action });

const exportColumns = sheetColumns<Permission>(m, { permissionName: 28, permission: 32 });

/** 权限管理 (SPEC §2.10, §7.6): permission codes and which role holds which. */
export function permissionRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.permissionList,
      query: permissionListQuery,
      list: '/api/Permission/list',
      doc: { tag: 'permission', row: r.permissionRow },
      load: (_request, query) => listPermissions(ctx.db, query),
      // The sheet lists the codes only, never a role's grants.
      export: { url: '/api/Permission/export', fileName: m.title, columns: exportColumns, query: (query) => ({ ...query, roleId: undefined }) },
    });

    app.post('/api/Permission/save', { config: { access: { permission: Perm.permissionSave }, doc: { tag: 'permission', body: permissionSave, answer: answers.data(r.systemSaved.permission) }, audit: audit(messages.common.actionSave) } }, async (request) => {
      const input = parse(permissionSave, request.body);
      describeTarget(request, input.permission);
      const permissionId = await savePermission(ctx, input);
      return ok(m.saved, { permissionId });
    });

    app.delete('/api/Permission/delete', { config: { access: { permission: Perm.permissionDelete }, doc: { tag: 'permission', query: idsRequest, answer: answers.message }, audit: audit(messages.common.actionDelete) } }, async (request) => {
      const { ids } = parse(idsRequest, request.query);
      describeTarget(request, `permissionId ${ids.join(',')}`);
      await deletePermissions(ctx, ids);
      return ok(m.deleted);
    });

    app.get('/api/RolePermission/list/:roleId', { config: { access: { permission: Perm.permissionList }, doc: { tag: 'permission', params: rolePermissionListParams, answer: answers.data(r.permissionIds) } } }, async (request) => {
      const { roleId } = parse(rolePermissionListParams, request.params);
      return ok('', await rolePermissionIds(ctx, roleId));
    });

    app.post('/api/RolePermission/save', { config: { access: { permission: Perm.permissionGrant }, doc: { tag: 'permission', body: rolePermissionSave, answer: answers.message }, audit: audit(m.configure) } }, async (request) => {
      const input = parse(rolePermissionSave, request.body);
      describeTarget(request, `roleId ${input.roleId}: ${input.permissionIds.join(',')}`);
      await saveRolePermissions(ctx, callerOf(request), input);
      return ok(m.grantOk);
    });
  };
}
