import { fill, messages } from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';

// Repeated failures per account and per address: first slowed down, then refused for a while.
// A success clears the account's count (not the address's: one good password does not bless an IP).
const accountKey = (userName: string) => `login-fail:user:${userName.toLowerCase()}`;
const ipKey = (ip: string) => `login-fail:ip:${ip}`;

export async function checkLoginThrottle(ctx: AppContext, userName: string, ip: string): Promise<void> {
  const { lockoutAfter, ipLockoutAfter, lockoutMs, slowdownAfter, slowdownMs } = ctx.config.login;
  const now = ctx.now();
  const [accountFailures, ipFailures] = await Promise.all([
    ctx.counters.get(accountKey(userName), now),
    ctx.counters.get(ipKey(ip), now),
  ]);
  if (accountFailures >= lockoutAfter || ipFailures >= ipLockoutAfter) {
    throw new AppError(fill(messages.login.throttled, { minutes: Math.ceil(lockoutMs / 60_000) }), 429);
  }
  if (accountFailures >= slowdownAfter && slowdownMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, slowdownMs));
  }
}

export async function recordLoginFailure(ctx: AppContext, userName: string, ip: string): Promise<void> {
  const { lockoutMs } = ctx.config.login;
  const now = ctx.now();
  await Promise.all([
    ctx.counters.increment(accountKey(userName), lockoutMs, now),
    ctx.counters.increment(ipKey(ip), lockoutMs, now),
  ]);
}

export async function recordLoginSuccess(ctx: AppContext, userName: string): Promise<void> {
  await ctx.counters.reset(accountKey(userName));
}
