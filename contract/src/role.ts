import { z } from 'zod';
import { common, role as m } from './messages.ts';
import { grantIdList, idOf, optionalId, optionalText, pageQuery, pathIdOf, requiredText } from './fields.ts';
import type * as systemAnswers from './responses/system.ts';

/** Checkbox values as forms and JSON send them: true / 'true' / 1 / '1' / 'Y' mean yes. */
const flag = z.preprocess(
  (v) => (v === true || v === 'true' || v === 1 || v === '1' || v === 'Y' ? true : v === false || v === 'false' || v === 0 || v === '0' || v === 'N' ? false : v),
  z.boolean({ error: common.badParameter }),
);

export const roleSave = z.object({
  roleId: optionalId,
  systemNo: requiredText(m.systemNoRequired, 64, m.tooLong),
  roleNo: requiredText(m.roleNoRequired, 64, m.tooLong).regex(/^[A-Za-z0-9_.\-]+$/, m.roleNoFormat),
  roleName: requiredText(m.roleNameRequired, 100, m.tooLong),
  /** 管理员类型: its users log in with code 1 (SPEC §6). Absent on edit: unchanged; absent on add: no. */
  isAdmin: flag.optional(),
});
export type RoleSave = z.infer<typeof roleSave>;

export const roleListQuery = pageQuery.extend({
  roleName: optionalText(100),
  roleNo: optionalText(64),
});
export type RoleListQuery = z.infer<typeof roleListQuery>;

export type Role = z.output<typeof systemAnswers.roleRow>;

export const roleSortFields = ['roleId', 'systemNo', 'roleNo', 'roleName', 'editTime'] as const;

/** GET /api/Role/dropDown/all (SPEC §7.5). */
export type RoleOption = z.output<typeof systemAnswers.roleOption>;

/** One node of the menu-permission tree (SPEC §3 permission tree node), flat: pId 0 at the top. */
export type RoleRightNode = z.output<typeof systemAnswers.roleRightNode>;

/** One permission code under its screen in the 菜单权限 tree (the screen is moduleId). */
export type RoleGrantAction = z.output<typeof systemAnswers.roleGrantAction>;

/** GET /api/RoleRight/grants/{roleId}: the menu tree (as /api/RoleRight/tree) and each screen's codes. */
export type RoleGrantTree = z.output<typeof systemAnswers.roleGrantTree>;

/**
 * moduleIds as SPEC sends them (a JSON array string), or an array, or a comma list; empty revokes all.
 * permissionIds (the console's 菜单权限): the role's codes of every screen, saved with the menus in one
 * act; codes of no screen keep their 权限管理 grants. Without it (SPEC's call) only the menus change.
 */
export const roleRightSave = z.object({
  roleId: idOf(m.roleRequired),
  moduleIds: grantIdList,
  permissionIds: grantIdList.optional(),
});
export type RoleRightSave = z.infer<typeof roleRightSave>;

/** GET /api/RoleRight/tree/{roleId} and grants/{roleId}. */
export const roleIdParams = z.object({ roleId: pathIdOf(common.badParameter) });
