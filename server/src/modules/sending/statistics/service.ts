import { messages, RoleId, SUPER_ADMIN_USER_ID, type TaskUserSave } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { inDeptScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, forbidden } from '../../../http/errors.ts';
import { assertUserNameFree, createAccount, manageableAccount as accountToManage } from '../../system/accounts/index.ts';

const m = messages.statistics;

/** SPEC §6: adding, clearing and deleting accounts here is for administrator-type accounts (code 1). */
function assertAdmin(caller: Access): void {
  if (!caller.isAdmin) throw forbidden();
}

/** The account, refused (changing nothing) outside the caller's scope; only a super administrator touches another (accounts/may-manage.ts). */
async function manageableAccount(ctx: AppContext, caller: Access, userId: number) {
  assertAdmin(caller);
  return accountToManage(ctx.db, caller, userId, m.notFound);
}

/** A task sub-account: an ordinary user (普通用户) of the creator's company (PRODUCT §3). */
export async function saveTaskUser(ctx: AppContext, caller: Access, input: TaskUserSave): Promise<number> {
  assertAdmin(caller);
  await assertUserNameFree(ctx.db, input.userName);
  return createAccount(ctx.db, {
    userName: input.userName, userRealName: input.userName, password: input.passwd, deptId: caller.deptId, roleId: RoleId.ordinaryUser,
    addUser: caller.userName, now: ctx.now(),
  });
}

/** 清除总数: the all-time sent count, its carrier split and the delivered count beside it. */
export async function clearTotalSendNum(ctx: AppContext, caller: Access, userId: number): Promise<string> {
  const account = await manageableAccount(ctx, caller, userId);
  await ctx.db
    .updateTable('sys_user')
    .set({ totalSendNum: 0, smcount: 0, sucount: 0, stcount: 0, socount: 0, deliveredNum: 0 })
    .where('userId', '=', account.userId)
    .execute();
  return account.userName;
}

/** 清除单次: the single-run count only. */
export async function clearSendNum(ctx: AppContext, caller: Access, userId: number): Promise<string> {
  const account = await manageableAccount(ctx, caller, userId);
  await ctx.db.updateTable('sys_user').set({ sendNum: 0 }).where('userId', '=', account.userId).execute();
  return account.userName;
}

/** 清除历史总数: every visible account's history total; account 1 only (SPEC §6), enforced here. */
export async function clearHistoryTotals(ctx: AppContext, caller: Access): Promise<number> {
  if (caller.userId !== SUPER_ADMIN_USER_ID) throw forbidden(m.onlyAccountOne);
  const result = await ctx.db
    .updateTable('sys_user')
    .set({ hisTotalSendNum: 0 })
    .where(inDeptScope('deptId', caller.deptScope))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * 删除账号: never account 1 nor the caller. The account's tasks (with their numbers and device
 * assignments), its authorization codes (their devices lose the binding), the replies its devices
 * received, its daily counts, data grants and sessions go with it, all or nothing.
 */
export async function deleteTaskUser(ctx: AppContext, caller: Access, userId: number): Promise<string> {
  assertAdmin(caller);
  if (userId === SUPER_ADMIN_USER_ID) throw new AppError(m.cannotDeleteAdmin);
  if (userId === caller.userId) throw new AppError(m.cannotDeleteSelf);
  const account = await manageableAccount(ctx, caller, userId);
  await ctx.db.transaction().execute(async (trx) => {
    const tasks = trx.selectFrom('sync_task').select('taskId').where('userId', '=', userId);
    await trx.deleteFrom('sync_task_number').where('taskId', 'in', tasks).execute();
    await trx.deleteFrom('sync_task_device').where('taskId', 'in', tasks).execute();
    const machines = trx.selectFrom('sync_auth_code').select('machineCode').where('authUserId', '=', userId).where('machineCode', 'is not', null);
    await trx.deleteFrom('sync_task_device').where('machineCode', 'in', machines).execute();
    await trx.deleteFrom('sync_task').where('userId', '=', userId).execute();
    await trx.deleteFrom('sync_auth_code').where('authUserId', '=', userId).execute();
    await trx.deleteFrom('sync_send_daily').where('userId', '=', userId).execute();
    await trx.deleteFrom('sync_reply').where('userId', '=', userId).execute();
    await trx.updateTable('sys_upload').set({ userId: null }).where('userId', '=', userId).execute();
    await trx.deleteFrom('sys_user_dept').where('userId', '=', userId).execute();
    await trx.deleteFrom('sys_user').where('userId', '=', userId).execute();
  });
  await ctx.sessions.revokeUser(userId);
  await ctx.accessCache.invalidate(userId);
  return account.userName;
}
