import { messages, type VariableSave } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, notFound } from '../../../http/errors.ts';

export async function saveVariable(ctx: AppContext, caller: Access, input: VariableSave): Promise<number> {
  const now = ctx.now();
  const taken = await ctx.db
    .selectFrom('sys_variable')
    .select('varId')
    .where('varName', '=', input.varName)
    .$if(input.varId !== undefined, (qb) => qb.where('varId', '!=', input.varId!))
    .executeTakeFirst();
  if (taken) throw new AppError(messages.variable.varNameTaken);
  const fields = { varLable: input.varLable, varName: input.varName, varValue: input.varValue, editUser: caller.userName, editTime: now };
  try {
    if (input.varId === undefined) {
      const row = await ctx.db
        .insertInto('sys_variable')
        .values({ ...fields, deptId: caller.deptId, addUser: caller.userName, addTime: now })
        .returning('varId')
        .executeTakeFirstOrThrow();
      return row.varId;
    }
    const result = await ctx.db.updateTable('sys_variable').set(fields).where('varId', '=', input.varId).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound();
    return input.varId;
  } catch (error) {
    // Two saves of the same name at once: the unique index decides, the loser gets the same message.
    if (isUniqueViolation(error)) throw new AppError(messages.variable.varNameTaken);
    throw error;
  }
}

/** All or none, like users and companies: one id that does not exist refuses the whole request, deleting nothing. */
export async function deleteVariables(ctx: AppContext, ids: number[]): Promise<number> {
  const unique = [...new Set(ids)];
  return ctx.db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('sys_variable').where('varId', 'in', unique).executeTakeFirst();
    // Throwing inside the transaction rolls the delete back.
    if (Number(result.numDeletedRows) !== unique.length) throw notFound();
    return unique.length;
  });
}
