import {
  describeUserAgent, formatDateTime, messages, onlineSortFields, RoleId,
  type OnlineListQuery, type OnlineSession, type OnlineSortField,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { assertDeptInScope, deptInScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { AppError, forbidden, notFound } from '../../../http/errors.ts';
import type { SessionRecord } from '../../../infra/session-store.ts';

const m = messages.monitor;

type SessionUser = { userId: number; userName: string; userRealName: string; roleId: number; deptId: number | null; deptName: string | null };

async function usersOf(ctx: AppContext, sessions: SessionRecord[]): Promise<Map<number, SessionUser>> {
  const userIds = [...new Set(sessions.map((s) => s.userId))];
  if (userIds.length === 0) return new Map();
  const users = await ctx.db
    .selectFrom('sys_user as u')
    .leftJoin('sys_dept as d', 'd.deptId', 'u.deptId')
    .select(['u.userId', 'u.userName', 'u.userRealName', 'u.roleId', 'u.deptId', 'd.deptName'])
    .where('u.userId', 'in', userIds)
    .execute();
  return new Map(users.map((u) => [u.userId, u]));
}

const includes = (value: string, part: string) => value.toLowerCase().includes(part.toLowerCase());

// One comparator per sortable field of the contract's list (onlineSortFields): the compiler keeps them in step.
const sorters: Record<OnlineSortField, (a: OnlineSession & { lastSeenMs: number; createdMs: number }, b: typeof a) => number> = {
  userName: (a, b) => a.userName.localeCompare(b.userName),
  ip: (a, b) => a.ip.localeCompare(b.ip),
  loginTime: (a, b) => a.createdMs - b.createdMs,
  lastSeenAt: (a, b) => a.lastSeenMs - b.lastSeenMs,
};

/**
 * 在线用户: the live sessions of accounts in the caller's scope, filtered, sorted and paged in
 * memory (sessions are few; they live in the session store, not in a table we can query).
 * A session whose account is gone is dropped: the next request through it ends it anyway.
 */
export async function listOnline(ctx: AppContext, caller: Access, query: OnlineListQuery, currentTokenHash: string | undefined) {
  const sessions = await ctx.sessions.listActive(ctx.now());
  const users = await usersOf(ctx, sessions);
  const rows = sessions.flatMap((s) => {
    const user = users.get(s.userId);
    if (!user || !deptInScope(caller.deptScope, user.deptId)) return [];
    if (query.userName && !includes(user.userName, query.userName) && !includes(user.userRealName, query.userName)) return [];
    if (query.ip && !includes(s.ip, query.ip)) return [];
    return [{
      sessionId: s.tokenHash,
      userId: user.userId,
      userName: user.userName,
      userRealName: user.userRealName,
      deptName: user.deptName ?? '',
      ip: s.ip,
      userAgent: s.userAgent,
      client: describeUserAgent(s.userAgent),
      loginTime: formatDateTime(s.createdAt),
      lastSeenAt: formatDateTime(s.lastSeenAt),
      expiresAt: formatDateTime(s.lastSeenAt + s.idleMs),
      current: s.tokenHash === currentTokenHash,
      lastSeenMs: s.lastSeenAt,
      createdMs: s.createdAt,
    }];
  });
  const sorter = (onlineSortFields as readonly string[]).includes(query.sortField) ? sorters[query.sortField as OnlineSortField] : undefined;
  if (sorter && query.sortOrder) {
    const sign = query.sortOrder === 'ascend' ? 1 : -1;
    rows.sort((a, b) => sign * sorter(a, b) || sign * a.sessionId.localeCompare(b.sessionId));
  } else {
    rows.sort((a, b) => b.lastSeenMs - a.lastSeenMs || a.sessionId.localeCompare(b.sessionId));
  }
  const start = (query.page - 1) * query.limit;
  const onePage = rows.slice(start, start + query.limit).map(({ lastSeenMs: _l, createdMs: _c, ...row }): OnlineSession => row);
  return { rows: onePage, total: rows.length, totalBounded: undefined, next: undefined }; // in memory: always exact, paged by number
}

/**
 * 强制下线 of one session: exactly that session ends, the account's other sessions stay. Refused for
 * the caller's own session (that is 退出登录), for accounts outside the caller's scope, and for the
 * super administrator unless the caller is one. Answers the account's name.
 */
export async function forceLogout(ctx: AppContext, caller: Access, sessionId: string, currentTokenHash: string | undefined): Promise<string> {
  if (sessionId === currentTokenHash) throw new AppError(m.cannotLogoutSelf);
  const session = (await ctx.sessions.listActive(ctx.now())).find((s) => s.tokenHash === sessionId);
  if (!session) throw notFound(m.sessionGone);
  const user = (await usersOf(ctx, [session])).get(session.userId);
  if (!user) {
    // The account is gone; only the super administrator may clear what is left of it.
    if (!caller.isSuperAdmin) throw forbidden(messages.common.outOfScope);
    await ctx.sessions.revoke(sessionId);
    return String(session.userId);
  }
  assertDeptInScope(caller.deptScope, user.deptId);
  if (user.roleId === RoleId.superAdmin && !caller.isSuperAdmin) throw forbidden(m.cannotLogoutSuperAdmin);
  await ctx.sessions.revoke(sessionId);
  return user.userName;
}
