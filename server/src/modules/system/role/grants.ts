import type { Kysely } from 'kysely';
import { fill, listCodeOf, messages, RoleId, screenOfCode, type RoleGrantTree, type RoleRightSave } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Database } from '../../../db/schema.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError } from '../../../http/errors.ts';
import { assertMayChangeGrants, heldCodes } from '../permission/index.ts';
import { roleRightTree } from './queries.ts';
import { assertRoleExists } from './service.ts';

// 角色管理 → 菜单权限: a role's screens and, under each, the permission codes its calls need (the
// contract's permissionScreens), granted in one act. 权限管理 edits the same sys_role_permission rows.

const m = messages.role;

type ModuleRow = { moduleId: number; parentId: number; moduleName: string; moduleUrl: string };
type Code = { permissionId: number; permission: string };

/** url → the screen module (a module with no children) that shows it. */
function screensByUrl(modules: ModuleRow[]): Map<string, ModuleRow> {
  const parents = new Set(modules.map((mod) => mod.parentId));
  return new Map(modules.filter((mod) => !parents.has(mod.moduleId)).map((mod) => [mod.moduleUrl, mod]));
}

/** The screen module a code belongs to; undefined for a code of no screen (kept to 权限管理). */
function screenModuleOf(screens: Map<string, ModuleRow>, code: string): ModuleRow | undefined {
  const url = screenOfCode(code);
  return url === undefined ? undefined : screens.get(url);
}

function loadModules(db: Kysely<Database>): Promise<ModuleRow[]> {
  return db.selectFrom('sys_module').select(['moduleId', 'parentId', 'moduleName', 'moduleUrl']).execute();
}

/** The menu tree with each screen's codes under it, ticked where the role holds them. */
export async function roleGrantTree(db: Kysely<Database>, roleId: number): Promise<RoleGrantTree> {
  const modules = await roleRightTree(db, roleId);
  const screens = screensByUrl(await loadModules(db));
  const codes = await db.selectFrom('sys_permission').select(['permissionId', 'permission', 'permissionName']).orderBy('permissionId').execute();
  const held = roleId === RoleId.superAdmin ? undefined : new Set((await heldCodes(db, roleId)).map((c) => c.permissionId));
  const actions = codes.flatMap((code) => {
    const screen = screenModuleOf(screens, code.permission);
    if (!screen) return [];
    return [{
      ...code,
      moduleId: screen.moduleId,
      isList: listCodeOf(screen.moduleUrl) === code.permission,
      checked: held === undefined || held.has(code.permissionId),
    }];
  });
  return { modules, actions };
}

/** The granted modules: the wanted screens and the groups above them; a group wanted alone is dropped. */
function grantedModules(modules: ModuleRow[], wanted: number[]): Set<number> {
  const byId = new Map(modules.map((mod) => [mod.moduleId, mod]));
  if (wanted.some((id) => !byId.has(id))) throw new AppError(messages.menu.moduleNotFound);
  const parentsWithChildren = new Set(modules.map((mod) => mod.parentId));
  const granted = new Set<number>();
  for (const id of wanted) {
    // Walk up so a granted screen's group (and that group's own parent, if any) is granted too.
    let current = byId.get(id);
    if (current && parentsWithChildren.has(current.moduleId)) continue; // a group: added through its screens
    while (current && !granted.has(current.moduleId)) {
      granted.add(current.moduleId);
      current = byId.get(current.parentId);
    }
  }
  return granted;
}

/**
 * The role's codes after a 菜单权限 save: the given codes of its screens, and whatever it holds of no
 * screen. Refused when a code is not of a granted screen, or a granted screen lacks its 查询 code (its
 * list would answer 没有权限执行此操作).
 */
async function nextCodes(
  db: Kysely<Database>, roleId: number, permissionIds: number[], modules: ModuleRow[], granted: Set<number>,
): Promise<Code[]> {
  const wanted = [...new Set(permissionIds)];
  const given = wanted.length
    ? await db.selectFrom('sys_permission').select(['permissionId', 'permission']).where('permissionId', 'in', wanted).execute()
    : [];
  const givenIds = new Set(given.map((p) => p.permissionId));
  const unknown = wanted.filter((id) => !givenIds.has(id));
  if (unknown.length > 0) throw new AppError(fill(messages.permission.unknownPermission, { ids: unknown.join(',') }));

  const screens = screensByUrl(modules);
  const outside = given.filter((p) => !granted.has(screenModuleOf(screens, p.permission)?.moduleId ?? -1)).map((p) => p.permission);
  if (outside.length > 0) throw new AppError(fill(m.codeOfNoScreen, { codes: outside.join(', ') }));

  const givenCodes = new Set(given.map((p) => p.permission));
  const withoutList = [...screens.values()]
    .filter((screen) => granted.has(screen.moduleId))
    .filter((screen) => {
      const list = listCodeOf(screen.moduleUrl);
      return list !== undefined && !givenCodes.has(list);
    })
    .map((screen) => screen.moduleName);
  if (withoutList.length > 0) throw new AppError(fill(m.screenWithoutList, { screens: withoutList.join('、') }));

  const ofNoScreen = (await heldCodes(db, roleId)).filter((p) => !screenModuleOf(screens, p.permission));
  return [...given, ...ofNoScreen];
}

/**
 * Replaces the role's menu rights and, when permissionIds is given (the console's 菜单权限), the codes
 * of its screens, in one transaction. The codes follow 配置权限's rule against raising rights.
 */
export async function saveRoleRights(ctx: AppContext, caller: Access, input: RoleRightSave): Promise<void> {
  if (input.roleId === RoleId.superAdmin) throw new AppError(m.superAdminAllMenus);
  await assertRoleExists(ctx, caller, input.roleId);
  const { roleId, permissionIds } = input;
  await ctx.db.transaction().execute(async (trx) => {
    const modules = await loadModules(trx);
    const granted = grantedModules(modules, input.moduleIds);
    if (permissionIds !== undefined) {
      const codes = await nextCodes(trx, roleId, permissionIds, modules, granted);
      await assertMayChangeGrants(trx, caller, roleId, codes);
      await trx.deleteFrom('sys_role_permission').where('roleId', '=', roleId).execute();
      if (codes.length) await trx.insertInto('sys_role_permission').values(codes.map((c) => ({ roleId, permissionId: c.permissionId }))).execute();
    }
    await trx.deleteFrom('sys_role_right').where('roleId', '=', roleId).execute();
    if (granted.size) await trx.insertInto('sys_role_right').values([...granted].map((moduleId) => ({ roleId, moduleId }))).execute();
  });
  await ctx.accessCache.invalidate('all');
}
