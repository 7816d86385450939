import { fill, messages, type DeptSave } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import { assertDeptInScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, forbidden, notFound } from '../../../http/errors.ts';
import { deptsWithUsers } from './queries.ts';

const m = messages.dept;

/**
 * Adds or edits a company. Editing needs the company in the caller's data scope. Adding is for the
 * super administrator only: a company made by a company administrator would lie outside every
 * scope but the super administrator's, so its maker could not even see it.
 */
export async function saveDept(ctx: AppContext, caller: Access, input: DeptSave): Promise<number> {
  if (input.deptId === undefined && caller.deptScope !== 'all') throw forbidden(m.createSuperAdminOnly);
  if (input.deptId !== undefined) assertDeptInScope(caller.deptScope, input.deptId);
  const now = ctx.now();
  const taken = await ctx.db
    .selectFrom('sys_dept')
    .select('deptId')
    .where('deptNo', '=', input.deptNo)
    .$if(input.deptId !== undefined, (qb) => qb.where('deptId', '!=', input.deptId!))
    .executeTakeFirst();
  if (taken) throw new AppError(m.deptNoTaken);
  const fields = { deptName: input.deptName, deptNo: input.deptNo, editUser: caller.userName, editTime: now };
  try {
    if (input.deptId === undefined) {
      const row = await ctx.db
        .insertInto('sys_dept')
        .values({ ...fields, parentId: 0, addUser: caller.userName, addTime: now })
        .returning('deptId')
        .executeTakeFirstOrThrow();
      return row.deptId;
    }
    const result = await ctx.db.updateTable('sys_dept').set(fields).where('deptId', '=', input.deptId).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound();
  } catch (error) {
    // Two saves of the same code at once: the unique index decides, the loser gets the same message.
    if (isUniqueViolation(error)) throw new AppError(m.deptNoTaken);
    throw error;
  }
  // The company name is part of every cached caller of that company (deptName).
  await ctx.accessCache.invalidate('all');
  return input.deptId;
}

/**
 * Deletes companies: all of them in the caller's scope and none still holding users, or nothing.
 * Data-permission grants of the companies go with them (cascade), so cached scopes are dropped.
 */
export async function deleteDepts(ctx: AppContext, caller: Access, ids: number[]): Promise<number> {
  for (const id of ids) assertDeptInScope(caller.deptScope, id);
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const occupied = await deptsWithUsers(trx, ids);
    if (occupied.length > 0) throw new AppError(fill(m.hasUsers, { deptName: occupied.join('、') }));
    const result = await trx.deleteFrom('sys_dept').where('deptId', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
  if (deleted === 0) throw notFound();
  await ctx.accessCache.invalidate('all');
  return deleted;
}
