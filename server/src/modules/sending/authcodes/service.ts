import { AUTH_CODE_MAX_DUE_NUM, messages, type AuthCodeRecharge, type AuthCodeSave, type UserDevice } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import { assertDeptInScope, deptInScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, forbidden, notFound } from '../../../http/errors.ts';
import { findAccount } from '../../system/accounts/index.ts';
import { devicesOf, findAuthCode } from './queries.ts';

const m = messages.authcode;
const DAY_MS = 24 * 60 * 60 * 1000;

/** SPEC §6: adding, recharging and deleting codes is for administrator-type accounts (code 1) only. */
function assertAdmin(caller: Access): void {
  if (!caller.isAdmin) throw forbidden();
}

/**
 * The code, refused (changing nothing) when its owner lies outside the caller's data scope — with the
 * answer of a missing code, so another company's ids cannot be probed for existence.
 */
async function manageableCode(ctx: AppContext, caller: Access, id: number) {
  const code = await findAuthCode(ctx.db, id);
  if (!code || !deptInScope(caller.deptScope, code.ownerDeptId)) throw notFound(m.notFound);
  return code;
}

export async function saveAuthCode(ctx: AppContext, caller: Access, input: AuthCodeSave): Promise<number> {
  assertAdmin(caller);
  const owner = await findAccount(ctx.db, input.authUserId);
  if (!owner) throw notFound(m.ownerNotFound);
  assertDeptInScope(caller.deptScope, owner.deptId);
  const taken = await ctx.db.selectFrom('sync_auth_code').select('id').where('authCode', '=', input.authCode).executeTakeFirst();
  if (taken) throw new AppError(m.authCodeTaken);
  const now = ctx.now();
  try {
    const row = await ctx.db
      .insertInto('sync_auth_code')
      .values({
        authCode: input.authCode, authUserId: owner.userId, dueNum: input.dueNum, dueDateNum: input.dueDateNum,
        dueDate: now + input.dueDateNum * DAY_MS, addUserId: caller.userId, deptId: owner.deptId, addTime: now, editTime: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  } catch (error) {
    // Two saves of the same code at once: the unique index decides, the loser gets the same message.
    if (isUniqueViolation(error)) throw new AppError(m.authCodeTaken);
    throw error;
  }
}

/**
 * 充值: the quantity is added to what remains, and the expiry moves dueDateNum days on from the
 * current expiry, or from now when the code has already expired (an expired code does not bank the
 * days it lay idle). One UPDATE computes from the stored values, so two recharges never lose one.
 */
export async function rechargeAuthCode(ctx: AppContext, caller: Access, input: AuthCodeRecharge): Promise<string> {
  assertAdmin(caller);
  const code = await manageableCode(ctx, caller, input.id);
  const now = ctx.now();
  const addMs = input.dueDateNum * DAY_MS;
  const result = await ctx.db
    .updateTable('sync_auth_code')
    .set((eb) => ({
      dueNum: eb('dueNum', '+', input.dueNum),
      dueDateNum: eb('dueDateNum', '+', input.dueDateNum),
      dueDate: eb.case().when('dueDate', '>', now).then(eb('dueDate', '+', addMs)).else(now + addMs).end(),
      editTime: now,
    }))
    .where('id', '=', code.id)
    .where('dueNum', '<=', AUTH_CODE_MAX_DUE_NUM - input.dueNum)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    const still = await findAuthCode(ctx.db, code.id);
    throw still ? new AppError(m.quotaTooLarge) : notFound(m.notFound);
  }
  return code.authCode;
}

/**
 * Deletes a code, used or not. A used code's device loses its binding with it: it can no longer pull
 * work, and it leaves the tasks it was assigned to (it would need a new code to send again).
 */
export async function deleteAuthCode(ctx: AppContext, caller: Access, id: number): Promise<string> {
  assertAdmin(caller);
  const code = await manageableCode(ctx, caller, id);
  await ctx.db.transaction().execute(async (trx) => {
    if (code.machineCode) await trx.deleteFrom('sync_task_device').where('machineCode', '=', code.machineCode).execute();
    await trx.deleteFrom('sync_auth_code').where('id', '=', code.id).execute();
  });
  return code.authCode;
}

/**
 * The devices of the caller's own codes; an administrator may ask for another account of its scope
 * (editing that account's task). Nobody else sees another account's devices.
 */
export async function userDevices(ctx: AppContext, caller: Access, userId: number | undefined): Promise<UserDevice[]> {
  if (userId === undefined || userId === caller.userId) return devicesOf(ctx.db, caller.userId);
  if (!caller.isAdmin) throw forbidden();
  const account = await findAccount(ctx.db, userId);
  if (!account) throw notFound(messages.common.notFoundRecord);
  if (!deptInScope(caller.deptScope, account.deptId)) throw forbidden(messages.common.outOfScope);
  return devicesOf(ctx.db, userId);
}
