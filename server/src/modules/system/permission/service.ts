import { fill, messages, RoleId, type PermissionSave, type RolePermissionSave } from '@huiyun/contract';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../../context.ts';
import type { Database } from '../../../db/schema.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, forbidden, notFound } from '../../../http/errors.ts';
import { grantedPermissionIds, isBuiltInCode } from './queries.ts';

const m = messages.permission;

/**
 * Adds or edits a permission code. A code the server declares (permissionTable) may be renamed but
 * not re-coded: its routes would silently stop matching it.
 */
export async function savePermission(ctx: AppContext, input: PermissionSave): Promise<number> {
  if (input.permissionId !== undefined) {
    const current = await ctx.db
      .selectFrom('sys_permission')
      .select('permission')
      .where('permissionId', '=', input.permissionId)
      .executeTakeFirst();
    if (!current) throw notFound();
    if (isBuiltInCode(current.permission) && current.permission !== input.permission) throw new AppError(m.builtInNoRecode);
  }
  const taken = await ctx.db
    .selectFrom('sys_permission')
    .select('permissionId')
    .where('permission', '=', input.permission)
    .$if(input.permissionId !== undefined, (qb) => qb.where('permissionId', '!=', input.permissionId!))
    .executeTakeFirst();
  if (taken) throw new AppError(m.codeTaken);
  const fields = { permissionName: input.permissionName, permission: input.permission };
  let permissionId: number;
  try {
    if (input.permissionId === undefined) {
      const row = await ctx.db.insertInto('sys_permission').values(fields).returning('permissionId').executeTakeFirstOrThrow();
      permissionId = row.permissionId;
    } else {
      const result = await ctx.db.updateTable('sys_permission').set(fields).where('permissionId', '=', input.permissionId).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw notFound();
      permissionId = input.permissionId;
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(m.codeTaken);
    throw error;
  }
  // A changed code changes what every holder of it may call.
  await ctx.accessCache.invalidate('all');
  return permissionId;
}

/** Deletes permissions (and their grants); refused, deleting nothing, when any is built in. */
export async function deletePermissions(ctx: AppContext, ids: number[]): Promise<number> {
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('sys_permission').select('permission').where('permissionId', 'in', ids).execute();
    const builtIn = rows.map((r) => r.permission).filter(isBuiltInCode);
    if (builtIn.length > 0) throw new AppError(fill(m.builtInNoDelete, { codes: builtIn.join(', ') }));
    await trx.deleteFrom('sys_role_permission').where('permissionId', 'in', ids).execute();
    const result = await trx.deleteFrom('sys_permission').where('permissionId', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
  if (deleted === 0) throw notFound();
  await ctx.accessCache.invalidate('all');
  return deleted;
}

async function assertRoleExists(db: Kysely<Database>, roleId: number): Promise<void> {
  const role = await db.selectFrom('sys_role').select('roleId').where('roleId', '=', roleId).executeTakeFirst();
  if (!role) throw notFound(m.roleNotFound);
}

/** The permission ids a role holds: the ticks of the 权限管理 table. */
export async function rolePermissionIds(ctx: AppContext, roleId: number): Promise<number[]> {
  await assertRoleExists(ctx.db, roleId);
  return grantedPermissionIds(ctx.db, roleId);
}

/** The codes a role holds, with their ids. */
export function heldCodes(db: Kysely<Database>, roleId: number) {
  return db
    .selectFrom('sys_role_permission as rp')
    .innerJoin('sys_permission as p', 'p.permissionId', 'rp.permissionId')
    .select(['p.permissionId', 'p.permission'])
    .where('rp.roleId', '=', roleId)
    .execute();
}

/**
 * The one rule against raising rights, for 配置权限 and 菜单权限 alike: anyone but the super
 * administrator may neither change the codes of its own role nor grant or take away a code it does
 * not hold itself. `next` is the role's whole set of codes after the change.
 */
export async function assertMayChangeGrants(
  db: Kysely<Database>, caller: Access, roleId: number, next: { permissionId: number; permission: string }[],
): Promise<void> {
  if (caller.isSuperAdmin) return;
  const current = await heldCodes(db, roleId);
  const currentIds = new Set(current.map((p) => p.permissionId));
  const nextIds = new Set(next.map((p) => p.permissionId));
  const changed = [
    ...next.filter((p) => !currentIds.has(p.permissionId)),
    ...current.filter((p) => !nextIds.has(p.permissionId)),
  ].map((p) => p.permission);
  if (changed.length === 0) return;
  if (caller.roleId === roleId) throw forbidden(m.ownRoleRefused);
  const notHeld = changed.filter((code) => !caller.permissions.has(code));
  if (notHeld.length > 0) throw forbidden(fill(m.notHeldRefused, { codes: notHeld.join(', ') }));
}

/**
 * Replaces a role's grants with exactly the given set, in one transaction. The super administrator
 * role always holds every code, so it is not configurable. Anyone but the super administrator may
 * neither configure its own role nor grant or take away a code it does not hold itself: no one
 * raises their own rights through this screen.
 */
export async function saveRolePermissions(ctx: AppContext, caller: Access, input: RolePermissionSave): Promise<void> {
  const { roleId } = input;
  const wanted = [...new Set(input.permissionIds)];
  await assertRoleExists(ctx.db, roleId);
  if (roleId === RoleId.superAdmin) throw new AppError(m.superAdminAllGranted);
  if (!caller.isSuperAdmin && caller.roleId === roleId) throw forbidden(m.ownRoleRefused);
  await ctx.db.transaction().execute(async (trx) => {
    const known = wanted.length
      ? await trx.selectFrom('sys_permission').select(['permissionId', 'permission']).where('permissionId', 'in', wanted).execute()
      : [];
    const knownIds = new Set(known.map((p) => p.permissionId));
    const unknown = wanted.filter((id) => !knownIds.has(id));
    if (unknown.length > 0) throw new AppError(fill(m.unknownPermission, { ids: unknown.join(',') }));

    await assertMayChangeGrants(trx, caller, roleId, known);

    await trx.deleteFrom('sys_role_permission').where('roleId', '=', roleId).execute();
    if (wanted.length > 0) {
      await trx.insertInto('sys_role_permission').values(wanted.map((permissionId) => ({ roleId, permissionId }))).execute();
    }
  });
  await ctx.accessCache.invalidate('all');
}
