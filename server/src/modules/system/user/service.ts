import {
  LockStatus, messages, RoleId, SUPER_ADMIN_USER_ID,
  type UserDeptNode, type UserPasswordReset, type UserSave, type UserSaveAnswer,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import { assertDeptInScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, forbidden, notFound } from '../../../http/errors.ts';
import { assertUserNameFree, createAccount, type Account, assertMayManage, manageableAccount, manageableAccountByName } from '../accounts/index.ts';
import { hashPassword, randomPassword } from '../auth/index.ts';
import { companiesInScope, grantedDeptIds } from './queries.ts';

const m = messages.user;

// Who may change which account: modules/system/accounts/may-manage.ts.
const manageableUser = (ctx: AppContext, caller: Access, userId: number) => manageableAccount(ctx.db, caller, userId, m.notFound);
const manageableUserByName = (ctx: AppContext, caller: Access, userName: string) => manageableAccountByName(ctx.db, caller, userName, m.notFound);

async function assertDeptExists(ctx: AppContext, deptId: number): Promise<void> {
  const found = await ctx.db.selectFrom('sys_dept').select('deptId').where('deptId', '=', deptId).executeTakeFirst();
  if (!found) throw notFound(m.deptNotFound);
}

/** Adds or edits an account. A new one gets a random temporary password, answered once. */
export async function saveUser(ctx: AppContext, caller: Access, input: UserSave): Promise<UserSaveAnswer> {
  if (input.roleId === RoleId.superAdmin && !caller.isSuperAdmin) throw forbidden(m.cannotGrantSuperAdmin);
  const role = await ctx.db.selectFrom('sys_role').select('roleId').where('roleId', '=', input.roleId).executeTakeFirst();
  if (!role) throw new AppError(m.roleNotFound);

  const existing = input.userId === undefined ? undefined : await manageableUser(ctx, caller, input.userId);
  // Account 1 stays super administrator, so nobody can lock everyone out of the system screens.
  if (existing?.userId === SUPER_ADMIN_USER_ID && input.roleId !== existing.roleId) throw new AppError(m.adminRoleFixed);
  if (input.deptId !== undefined) await assertDeptExists(ctx, input.deptId);
  const deptId = input.deptId ?? (existing ? existing.deptId : caller.deptId);
  assertDeptInScope(caller.deptScope, deptId);

  await assertUserNameFree(ctx.db, input.userName, existing?.userId);

  const now = ctx.now();
  const fields = {
    userName: input.userName, userRealName: input.userRealName, roleId: input.roleId, userSex: input.userSex,
    userMobile: input.userMobile, userEmail: input.userEmail, deptId,
  };
  if (!existing) {
    const initialPassword = randomPassword();
    const userId = await createAccount(ctx.db, { ...fields, password: initialPassword, addUser: caller.userName, now });
    return { userId, initialPassword };
  }
  try {
    await ctx.db.updateTable('sys_user').set({ ...fields, editUser: caller.userName, editTime: now }).where('userId', '=', existing.userId).execute();
  } catch (error) {
    // Two saves of the same name at once: the unique index decides, the loser gets the same message.
    if (isUniqueViolation(error)) throw new AppError(m.userNameTaken);
    throw error;
  }
  // Role and company feed the cached menus, permissions and data scope.
  await ctx.accessCache.invalidate(existing.userId);
  return { userId: existing.userId };
}

/** Deletes the accounts (all or none); their sessions end. Never account 1 nor the caller. */
export async function deleteUsers(ctx: AppContext, caller: Access, ids: number[]): Promise<number> {
  const unique = [...new Set(ids)];
  await ctx.db.transaction().execute(async (trx) => {
    const targets = await trx.selectFrom('sys_user').select(['userId', 'userName', 'deptId', 'roleId']).where('userId', 'in', unique).execute();
    if (targets.length !== unique.length) throw notFound(m.notFound);
    for (const target of targets) {
      if (target.userId === SUPER_ADMIN_USER_ID) throw new AppError(m.cannotDeleteAdmin);
      if (target.userId === caller.userId) throw new AppError(m.cannotDeleteSelf);
      assertMayManage(caller, target);
    }
    await trx.deleteFrom('sys_user_dept').where('userId', 'in', unique).execute();
    await trx.deleteFrom('sys_user').where('userId', 'in', unique).execute();
  });
  for (const userId of unique) {
    await ctx.sessions.revokeUser(userId);
    await ctx.accessCache.invalidate(userId);
  }
  return unique.length;
}

/** The lock switch: Y ends the account's sessions at once; never account 1 nor the caller. */
export async function lockUser(ctx: AppContext, caller: Access, userId: number, lock: LockStatus): Promise<Account> {
  const target = await manageableUser(ctx, caller, userId);
  if (target.userId === SUPER_ADMIN_USER_ID) throw new AppError(m.cannotLockAdmin);
  if (target.userId === caller.userId) throw new AppError(m.cannotLockSelf);
  await ctx.db.updateTable('sys_user').set({ isLock: lock, editUser: caller.userName, editTime: ctx.now() }).where('userId', '=', userId).execute();
  if (lock === LockStatus.locked) await ctx.sessions.revokeUser(userId);
  await ctx.accessCache.invalidate(userId);
  return target;
}

/**
 * 重置密码: a new random temporary password, answered once to the administrator; every session of
 * the account ends (the caller's own current one survives when it resets itself).
 */
export async function resetPassword(ctx: AppContext, caller: Access, userId: number, callerTokenHash?: string): Promise<UserPasswordReset> {
  const target = await manageableUser(ctx, caller, userId);
  const password = randomPassword();
  await ctx.db
    .updateTable('sys_user')
    .set({ passwordHash: await hashPassword(password), editUser: caller.userName, editTime: ctx.now() })
    .where('userId', '=', userId)
    .execute();
  await ctx.sessions.revokeUser(userId, target.userId === caller.userId ? callerTokenHash : undefined);
  return { userId, userName: target.userName, password };
}

/** 部门设置: moves several accounts to one company; all of them and the company must be in scope. */
export async function changeDept(ctx: AppContext, caller: Access, userIds: number[], deptId: number): Promise<void> {
  await assertDeptExists(ctx, deptId);
  assertDeptInScope(caller.deptScope, deptId);
  const unique = [...new Set(userIds)];
  await ctx.db.transaction().execute(async (trx) => {
    const targets = await trx.selectFrom('sys_user').select(['userId', 'userName', 'deptId', 'roleId']).where('userId', 'in', unique).execute();
    if (targets.length !== unique.length) throw notFound(m.notFound);
    for (const target of targets) assertMayManage(caller, target);
    await trx.updateTable('sys_user').set({ deptId, editUser: caller.userName, editTime: ctx.now() }).where('userId', 'in', unique).execute();
  });
  for (const userId of unique) await ctx.accessCache.invalidate(userId);
}

/** The companies the caller may see (parentId 0), or those below one company. */
export async function deptTree(ctx: AppContext, caller: Access, parentId: number): Promise<UserDeptNode[]> {
  const items = await companiesInScope(ctx.db, caller.deptScope);
  if (parentId === 0) return items;
  const below = new Set([parentId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const item of items) {
      if (!below.has(item.id) && below.has(item.pId)) {
        below.add(item.id);
        grew = true;
      }
    }
  }
  return items.filter((item) => item.id !== parentId && below.has(item.id));
}

/** 数据权限 dialog: the caller's companies, ticked where the account holds a grant. */
export async function userDeptTree(ctx: AppContext, caller: Access, userId: number): Promise<UserDeptNode[]> {
  await manageableUser(ctx, caller, userId);
  const [items, granted] = await Promise.all([companiesInScope(ctx.db, caller.deptScope), grantedDeptIds(ctx.db, userId)]);
  return items.map((item) => ({ ...item, checked: granted.has(item.id) }));
}

/**
 * Replaces the account's grants within the caller's scope in one transaction. Grants outside the
 * caller's scope (made by a wider administrator) are neither shown to it nor touched.
 */
export async function saveUserDepts(ctx: AppContext, caller: Access, userId: number, deptIds: number[]): Promise<void> {
  await manageableUser(ctx, caller, userId);
  const wanted = [...new Set(deptIds)];
  for (const deptId of wanted) assertDeptInScope(caller.deptScope, deptId);
  if (wanted.length > 0) {
    const found = await ctx.db.selectFrom('sys_dept').select('deptId').where('deptId', 'in', wanted).execute();
    if (found.length !== wanted.length) throw notFound(m.deptNotFound);
  }
  const scope = caller.deptScope;
  await ctx.db.transaction().execute(async (trx) => {
    let clear = trx.deleteFrom('sys_user_dept').where('userId', '=', userId);
    if (scope !== 'all') clear = scope.length ? clear.where('deptId', 'in', scope) : clear.where('deptId', '=', -1);
    await clear.execute();
    if (wanted.length) await trx.insertInto('sys_user_dept').values(wanted.map((deptId) => ({ userId, deptId }))).execute();
  });
  await ctx.accessCache.invalidate(userId);
}

/** 强制下线: every session of the account ends, on every instance (sessions are shared). */
export async function forceOffline(ctx: AppContext, caller: Access, userName: string): Promise<number> {
  const target = await manageableUserByName(ctx, caller, userName);
  return ctx.sessions.revokeUser(target.userId);
}

/** 刷新缓存: the account's roles, menus and permissions are read again on its next request. */
export async function refreshAccessCache(ctx: AppContext, caller: Access, userName: string): Promise<void> {
  const target = await manageableUserByName(ctx, caller, userName);
  await ctx.accessCache.invalidate(target.userId);
}
