import { messages } from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../http/errors.ts';

async function userIdByName(ctx: AppContext, userName: string): Promise<number> {
  const user = await ctx.db.selectFrom('sys_user').select('userId').where('userName', '=', userName).executeTakeFirst();
  if (!user) throw notFound(messages.user.notFound);
  return user.userId;
}

/** 强制下线: every session of the account ends, on every instance (sessions are shared). */
export async function forceOffline(ctx: AppContext, userName: string): Promise<number> {
  return ctx.sessions.revokeUser(await userIdByName(ctx, userName));
}

/** 刷新缓存: the account's roles, menus and permissions are read again on its next request. */
export async function refreshAccessCache(ctx: AppContext, userName: string): Promise<void> {
  await ctx.accessCache.invalidate(await userIdByName(ctx, userName));
}
