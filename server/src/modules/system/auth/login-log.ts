import { LogResult } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';

/** Where a login attempt came from, as 登录日志 records it. */
export type ClientInfo = { ip: string; userAgent: string };

/** 登录日志: every attempt, success or failure, with address and browser. Never the password. */
export async function recordLogin(
  ctx: AppContext,
  attempt: { userName: string; userId?: number; deptId?: number | null; success: boolean; message: string },
  client: ClientInfo,
): Promise<void> {
  await ctx.db
    .insertInto('sys_login_log')
    .values({
      userName: attempt.userName.slice(0, 64),
      userId: attempt.userId ?? null,
      deptId: attempt.deptId ?? null,
      ip: client.ip.slice(0, 64),
      userAgent: client.userAgent.slice(0, 255),
      success: attempt.success ? LogResult.success : LogResult.failure,
      message: attempt.message.slice(0, 255),
      loginTime: ctx.now(),
    })
    .execute();
}
