import { messages, ModuleLeaf, TOP_LEVEL_PARENT_ID, type ModuleSave } from '@huiyun/contract';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../../context.ts';
import type { Database } from '../../../db/schema.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import { AppError, conflict, notFound } from '../../../http/errors.ts';
import { findModule } from './queries.ts';

const m = messages.menu;
const SYSTEM_NO = 'huiyun';

/**
 * Saves a menu. Two levels, as the side menu shows them: parentId 0 makes a group (level 1, not a
 * leaf), a group as parent makes a screen (level 2, leaf); fullIndex is the id path from the top.
 * Every side menu changes with it, so all cached access is dropped.
 */
export async function saveModule(ctx: AppContext, input: ModuleSave): Promise<number> {
  const isGroup = input.parentId === TOP_LEVEL_PARENT_ID;
  if (!isGroup) {
    if (input.parentId === input.moduleId) throw new AppError(m.parentIsSelf);
    const parent = await findModule(ctx.db, input.parentId);
    if (!parent) throw new AppError(m.parentNotFound);
    if (parent.isLeaf !== ModuleLeaf.group) throw new AppError(m.parentNotGroup);
  }
  const taken = await ctx.db
    .selectFrom('sys_module')
    .select('moduleId')
    .where('moduleUrl', '=', input.moduleUrl)
    .$if(input.moduleId !== undefined, (qb) => qb.where('moduleId', '!=', input.moduleId!))
    .executeTakeFirst();
  if (taken) throw conflict(m.moduleUrlTaken);

  const fields = {
    parentId: input.parentId,
    moduleLevel: isGroup ? 1 : 2,
    isLeaf: isGroup ? ModuleLeaf.group : ModuleLeaf.screen,
    moduleName: input.moduleName,
    moduleIcon: input.moduleIcon,
    moduleUrl: input.moduleUrl,
    moduleOrder: input.moduleOrder,
    moduleNotes: input.moduleNotes,
  };
  const fullIndexOf = (moduleId: number) => (isGroup ? String(moduleId) : `${input.parentId},${moduleId}`);
  try {
    const moduleId = await ctx.db.transaction().execute(async (trx) => {
      if (input.moduleId === undefined) {
        const { moduleId } = await trx
          .insertInto('sys_module')
          .values({ ...fields, systemNo: SYSTEM_NO, fullIndex: '' })
          .returning('moduleId')
          .executeTakeFirstOrThrow();
        await trx.updateTable('sys_module').set({ fullIndex: fullIndexOf(moduleId) }).where('moduleId', '=', moduleId).execute();
        return moduleId;
      }
      const existing = await trx.selectFrom('sys_module').select(['moduleId', 'parentId']).where('moduleId', '=', input.moduleId).executeTakeFirst();
      if (!existing) throw notFound(m.moduleNotFound);
      if (!isGroup) {
        const child = await trx.selectFrom('sys_module').select('moduleId').where('parentId', '=', input.moduleId).executeTakeFirst();
        if (child) throw new AppError(m.groupHasChildren);
      }
      await trx.updateTable('sys_module').set({ ...fields, fullIndex: fullIndexOf(input.moduleId) }).where('moduleId', '=', input.moduleId).execute();
      if (existing.parentId !== input.parentId) await tidyGroupGrants(trx, [existing.parentId, input.parentId]);
      return input.moduleId;
    });
    await ctx.accessCache.invalidate('all');
    return moduleId;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(m.moduleUrlTaken);
    throw error;
  }
}

/** Deletes menus and their grants; a menu with children outside the deleted set is refused. */
export async function deleteModules(ctx: AppContext, ids: number[]): Promise<number> {
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const child = await trx
      .selectFrom('sys_module')
      .select('moduleId')
      .where('parentId', 'in', ids)
      .where('moduleId', 'not in', ids)
      .executeTakeFirst();
    if (child) throw new AppError(m.hasChildrenNoDelete);
    const parents = await trx.selectFrom('sys_module').select('parentId').distinct().where('moduleId', 'in', ids).execute();
    await trx.deleteFrom('sys_role_right').where('moduleId', 'in', ids).execute();
    const result = await trx.deleteFrom('sys_module').where('moduleId', 'in', ids).executeTakeFirst();
    const count = Number(result.numDeletedRows);
    if (count === 0) throw notFound(m.moduleNotFound);
    await tidyGroupGrants(trx, parents.map((p) => p.parentId).filter((id) => !ids.includes(id)));
    return count;
  });
  await ctx.accessCache.invalidate('all');
  return deleted;
}

/**
 * A role holds a group exactly when it holds one of the group's screens: a screen moved into a group
 * brings the group along for the roles that hold it, and a group left without granted screens (it
 * would show as an empty entry) is taken away.
 */
async function tidyGroupGrants(trx: Kysely<Database>, groupIds: number[]): Promise<void> {
  for (const groupId of new Set(groupIds.filter((id) => id !== TOP_LEVEL_PARENT_ID))) {
    const holdersOfScreens = trx
      .selectFrom('sys_role_right as rr')
      .innerJoin('sys_module as sm', 'sm.moduleId', 'rr.moduleId')
      .select('rr.roleId')
      .where('sm.parentId', '=', groupId);
    await trx.deleteFrom('sys_role_right').where('moduleId', '=', groupId).where('roleId', 'not in', holdersOfScreens).execute();
    const holdersOfGroup = (await trx.selectFrom('sys_role_right').select('roleId').where('moduleId', '=', groupId).execute()).map((r) => r.roleId);
    const missing = (await holdersOfScreens.distinct().execute()).map((r) => r.roleId).filter((roleId) => !holdersOfGroup.includes(roleId));
    if (missing.length) await trx.insertInto('sys_role_right').values(missing.map((roleId) => ({ roleId, moduleId: groupId }))).execute();
  }
}
