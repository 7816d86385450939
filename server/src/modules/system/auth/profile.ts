import { formatDateTime, LogResult, type UserProfile } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Access } from '../../../http/caller.ts';

/**
 * 个人中心: the caller's own account (name, phone, e-mail, company, role) and its last login before
 * the latest one, from 登录日志 — read-only; changes go through 用户管理 and 修改密码.
 */
export async function loadProfile(ctx: AppContext, caller: Access): Promise<UserProfile> {
  const user = await ctx.db
    .selectFrom('sys_user')
    .select(['userMobile', 'userEmail'])
    .where('userId', '=', caller.userId)
    .executeTakeFirstOrThrow();
  const previous = await ctx.db
    .selectFrom('sys_login_log')
    .select(['loginTime', 'ip'])
    .where('userId', '=', caller.userId)
    .where('success', '=', LogResult.success)
    .orderBy('loginTime', 'desc')
    .orderBy('infoId', 'desc')
    .limit(1)
    .offset(1)
    .executeTakeFirst();
  return {
    userId: caller.userId,
    userName: caller.userName,
    userRealName: caller.userRealName,
    userMobile: user.userMobile,
    userEmail: user.userEmail,
    deptName: caller.deptName,
    roleName: caller.roleName,
    lastLoginTime: previous ? formatDateTime(Number(previous.loginTime)) : '',
    lastLoginIp: previous?.ip ?? '',
  };
}
