import { z } from 'zod';
import { permission as m } from './messages.ts';
import { grantIdList, idOf, optionalId, optionalText, pageQuery, pathIdOf, requiredText } from './fields.ts';
import type * as systemAnswers from './responses/system.ts';

/** A permission code is three segments like system:User:list (SPEC §3). */
export const permissionCodePattern = /^[A-Za-z][A-Za-z0-9_]*:[A-Za-z][A-Za-z0-9_]*:[A-Za-z][A-Za-z0-9_]*$/;

export const permissionSave = z.object({
  permissionId: optionalId,
  permissionName: requiredText(m.nameRequired, 100, m.tooLong),
  permission: requiredText(m.codeRequired, 100, m.tooLong).regex(permissionCodePattern, m.codeFormat),
});
export type PermissionSave = z.infer<typeof permissionSave>;

export const permissionListQuery = pageQuery.extend({
  permissionName: optionalText(100),
  permission: optionalText(100),
  /** When given, every row says whether this role holds it (granted). */
  roleId: optionalId,
});
export type PermissionListQuery = z.infer<typeof permissionListQuery>;

export type Permission = z.output<typeof systemAnswers.permissionRow>;

export const permissionSortFields = ['permissionName', 'permission'] as const;

/** The role a grant edit is for; missing → 请选择角色 (SPEC §5). */
export const grantRoleId = idOf(m.roleRequired);

export const rolePermissionSave = z.object({
  roleId: grantRoleId,
  permissionIds: grantIdList,
});
export type RolePermissionSave = z.infer<typeof rolePermissionSave>;

/** GET /api/RolePermission/list/{roleId}. */
export const rolePermissionListParams = z.object({ roleId: pathIdOf(m.roleRequired) });
