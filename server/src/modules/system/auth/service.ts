import { randomBytes } from 'node:crypto';
import { AccountCode, LockStatus, messages, type CurrentUser, type LoginAnswer, type LoginRequest, type PasswordChangeRequest } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError } from '../../../http/errors.ts';
import { hashToken } from '../../../http/token.ts';
import { DUMMY_HASH, hashPassword, verifyPassword } from './password.ts';
import { beginLoginAttempt, loginSucceeded, releaseLoginAttempt } from './login-throttle.ts';
import { recordLogin, type ClientInfo } from './login-log.ts';

/** Logs the attempt (登录日志) whatever its outcome, then answers or refuses. */
export async function login(ctx: AppContext, input: LoginRequest, client: ClientInfo): Promise<LoginAnswer> {
  try {
    const answer = await attemptLogin(ctx, input, client);
    await recordLogin(ctx, { userName: input.userName, userId: answer.userId, deptId: answer.deptId, success: true, message: messages.login.success }, client);
    return { token: answer.token, userId: answer.userId, code: answer.code };
  } catch (error) {
    if (error instanceof AppError) await recordLogin(ctx, { userName: input.userName, success: false, message: error.message }, client);
    throw error;
  }
}

async function attemptLogin(ctx: AppContext, input: LoginRequest, client: ClientInfo): Promise<LoginAnswer & { deptId: number | null }> {
  const attempt = await beginLoginAttempt(ctx, input.userName, client.ip);
  const user = await ctx.db
    .selectFrom('sys_user as u')
    .innerJoin('sys_role as r', 'r.roleId', 'u.roleId')
    .select(['u.userId', 'u.userName', 'u.passwordHash', 'u.isLock', 'u.deptId', 'r.isAdmin'])
    .where('u.userName', '=', input.userName)
    .executeTakeFirst();
  // Verify against a dummy hash when the account is unknown, so timing does not tell which it was.
  const passwordOk = await verifyPassword(input.passwd, user?.passwordHash ?? DUMMY_HASH);
  // A failure stays counted (the attempt took its place before the check).
  if (!user || !passwordOk) throw new AppError(messages.login.badCredentials);
  // Told only to someone who knows the password, so the lock does not confirm that an account exists.
  if (user.isLock === LockStatus.locked) {
    await releaseLoginAttempt(ctx, attempt);
    throw new AppError(messages.login.locked);
  }
  await loginSucceeded(ctx, attempt);

  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  await ctx.sessions.create({
    tokenHash: hashToken(token),
    userId: user.userId,
    createdAt: now,
    lastSeenAt: now,
    idleMs: input.remember ? ctx.config.sessionRememberMs : ctx.config.sessionIdleMs,
    ip: client.ip.slice(0, 64),
    userAgent: client.userAgent.slice(0, 255),
  });
  return { token, userId: user.userId, code: user.isAdmin === 1 ? AccountCode.administrator : AccountCode.ordinary, deptId: user.deptId };
}

export async function logout(ctx: AppContext, token: string | undefined): Promise<void> {
  if (token) await ctx.sessions.revoke(hashToken(token));
}

export function describeCaller(caller: Access): CurrentUser {
  return {
    userId: caller.userId,
    userName: caller.userName,
    userRealName: caller.userRealName,
    code: caller.isAdmin ? AccountCode.administrator : AccountCode.ordinary,
    roleId: caller.roleId,
    roleName: caller.roleName,
    deptId: caller.deptId,
    deptName: caller.deptName,
    menus: caller.menus,
    permissions: [...caller.permissions].sort(),
  };
}

/** Changes the caller's own password (the body's userId is not trusted) and ends its other sessions. */
export async function changeOwnPassword(ctx: AppContext, caller: Access, currentTokenHash: string, input: PasswordChangeRequest): Promise<void> {
  const user = await ctx.db.selectFrom('sys_user').select('passwordHash').where('userId', '=', caller.userId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(input.oldPasswd, user.passwordHash))) throw new AppError(messages.password.oldWrong);
  await ctx.db
    .updateTable('sys_user')
    .set({ passwordHash: await hashPassword(input.passwd), editUser: caller.userName, editTime: ctx.now() })
    .where('userId', '=', caller.userId)
    .execute();
  await ctx.sessions.revokeUser(caller.userId, currentTokenHash);
}
