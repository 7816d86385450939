import type { FastifyInstance } from 'fastify';
import {
  idsRequest, messages, Perm, permissionListQuery, permissionSave, rolePermissionListParams, rolePermissionSave, type Permission,
} from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { callerOf } from '../../http/access-check.ts';
import { describeTarget } from '../../http/audit.ts';
import { ok, page } from '../../http/envelope.ts';
import { parse } from '../../http/validate.ts';
import { EXPORT_MAX_ROWS, sendXlsx, type XlsxColumn } from '../../http/xlsx.ts';
import { listPermissions } from './queries.ts';
import { deletePermissions, rolePermissionIds, savePermission, saveRolePermissions } from './service.ts';

const m = messages.permission;
const audit = (action: string) => ({ module: m.title, action });

const exportColumns: XlsxColumn<Permission>[] = [
  { header: m.permissionName, key: 'permissionName', width: 28 },
  { header: m.permission, key: 'permission', width: 32 },
];

/** 权限管理 (SPEC §2.10, §7.6): permission codes and which role holds which. */
export function permissionRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/api/Permission/list', { config: { access: { permission: Perm.permissionList } } }, async (request) => {
      const { rows, total } = await listPermissions(ctx.db, parse(permissionListQuery, request.body));
      return page(rows, total);
    });

    app.post('/api/Permission/export', { config: { access: { permission: Perm.permissionList } } }, async (request, reply) => {
      const query = { ...parse(permissionListQuery, request.body), page: 1, limit: EXPORT_MAX_ROWS, roleId: undefined };
      const { rows } = await listPermissions(ctx.db, query);
      return sendXlsx(reply, m.title, exportColumns, rows);
    });

    app.post('/api/Permission/save', { config: { access: { permission: Perm.permissionSave }, audit: audit(messages.common.actionSave) } }, async (request) => {
      const input = parse(permissionSave, request.body);
      describeTarget(request, input.permission);
      const permissionId = await savePermission(ctx, input);
      return ok(m.saved, { permissionId });
    });

    app.delete('/api/Permission/delete', { config: { access: { permission: Perm.permissionDelete }, audit: audit(messages.common.actionDelete) } }, async (request) => {
      const { ids } = parse(idsRequest, request.query);
      describeTarget(request, `permissionId ${ids.join(',')}`);
      await deletePermissions(ctx, ids);
      return ok(m.deleted);
    });

    app.get('/api/RolePermission/list/:roleId', { config: { access: { permission: Perm.permissionList } } }, async (request) => {
      const { roleId } = parse(rolePermissionListParams, request.params);
      return ok('', await rolePermissionIds(ctx, roleId));
    });

    app.post('/api/RolePermission/save', { config: { access: { permission: Perm.permissionGrant }, audit: audit(m.configure) } }, async (request) => {
      const input = parse(rolePermissionSave, request.body);
      describeTarget(request, `roleId ${input.roleId}: ${input.permissionIds.join(',')}`);
      await saveRolePermissions(ctx, callerOf(request), input);
      return ok(m.grantOk);
    });
  };
}
