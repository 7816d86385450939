import { messages, RoleId, type RoleSave } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, conflict, forbidden, notFound } from '../../../http/errors.ts';
import { countUsersOfRoles, findRole } from './queries.ts';

const m = messages.role;
const builtInRoleIds: number[] = Object.values(RoleId);

/** Only the super administrator may touch the 超级管理员 role (nobody else can raise anyone to it). */
function assertMayManage(caller: Access, roleId: number): void {
  if (roleId === RoleId.superAdmin && !caller.isSuperAdmin) throw forbidden(m.superAdminOnly);
}

export async function saveRole(ctx: AppContext, caller: Access, input: RoleSave): Promise<number> {
  const now = ctx.now();
  if (input.roleId !== undefined) assertMayManage(caller, input.roleId);
  const taken = await ctx.db
    .selectFrom('sys_role')
    .select('roleId')
    .where('roleNo', '=', input.roleNo)
    .$if(input.roleId !== undefined, (qb) => qb.where('roleId', '!=', input.roleId!))
    .executeTakeFirst();
  if (taken) throw conflict(m.roleNoTaken);
  const fields = { systemNo: input.systemNo, roleNo: input.roleNo, roleName: input.roleName, editTime: now };
  try {
    if (input.roleId === undefined) {
      const row = await ctx.db
        .insertInto('sys_role')
        .values({ ...fields, isAdmin: input.isAdmin ? 1 : 0, addTime: now })
        .returning('roleId')
        .executeTakeFirstOrThrow();
      return row.roleId;
    }
    const existing = await findRole(ctx.db, input.roleId);
    if (!existing) throw notFound();
    // The four seeded roles keep their administrator type: login codes and data scope rest on it.
    const isAdmin = builtInRoleIds.includes(input.roleId) || input.isAdmin === undefined ? existing.isAdmin : input.isAdmin ? 1 : 0;
    await ctx.db.updateTable('sys_role').set({ ...fields, isAdmin }).where('roleId', '=', input.roleId).execute();
    // The administrator type decides code and data scope of every holder: drop their cached access.
    if (isAdmin !== existing.isAdmin) await ctx.accessCache.invalidate('all');
    return input.roleId;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(m.roleNoTaken);
    throw error;
  }
}

export async function deleteRoles(ctx: AppContext, caller: Access, ids: number[]): Promise<number> {
  if (ids.some((id) => builtInRoleIds.includes(id))) throw new AppError(m.builtInNoDelete);
  return ctx.db.transaction().execute(async (trx) => {
    if ((await countUsersOfRoles(trx, ids)) > 0) throw new AppError(m.inUseNoDelete);
    ids.forEach((id) => assertMayManage(caller, id));
    await trx.deleteFrom('sys_role_right').where('roleId', 'in', ids).execute();
    await trx.deleteFrom('sys_role_permission').where('roleId', 'in', ids).execute();
    const result = await trx.deleteFrom('sys_role').where('roleId', 'in', ids).executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    if (deleted === 0) throw notFound();
    return deleted;
  });
}

export async function assertRoleExists(ctx: AppContext, caller: Access, roleId: number): Promise<void> {
  assertMayManage(caller, roleId);
  if (!(await findRole(ctx.db, roleId))) throw notFound();
}
