import { fill, messages } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../http/errors.ts';

// Login throttling. RuoYi and most consoles count failures per account only and lock
// the account: whoever hammers `admin` locks the real administrator out too, and a count that is read,
// then the password checked, then the count raised lets a burst sent at once through entirely. Here:
//
// - Every attempt takes its place in the counters BEFORE the password is checked (CounterStore.increment
//   is atomic in memory and in Redis), so of a burst of 40 only the first `lockoutAfter` are checked.
//   An attempt that succeeds, or that is refused unchecked, gives its place back: the counts are
//   failures (plus attempts in flight).
// - The attacker is locked, not the account: an ADDRESS with `ipLockoutAfter` failures is refused for
//   every account, and an (ACCOUNT, ADDRESS) pair with `lockoutAfter` failures is refused for that
//   account; the same account from another address is untouched.
// - The ACCOUNT across all addresses only slows down: after `slowdownAfter` failures each attempt on it
//   waits `slowdownMs` before its check. Only a spread attack (more than `accountLockoutAfter` failures,
//   which takes many addresses, each under its own locks) locks the account — and then not for the
//   addresses that logged in to it successfully lately (`KNOWN_ADDRESS_MS`), so the administrator at
//   his usual desk keeps working while new addresses are refused.
// Refusals answer one message (login.throttled) and tell nothing about the password or the account.

const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000;
const account = (userName: string) => userName.toLowerCase();
const ipKey = (ip: string) => `login-fail:ip:${ip}`;
const pairKey = (userName: string, ip: string) => `login-fail:pair:${account(userName)}|${ip}`;
const accountKey = (userName: string) => `login-fail:user:${account(userName)}`;
const knownKey = (userName: string, ip: string) => `login-ok:${account(userName)}|${ip}`;

/** An attempt that holds its place in the counters: a failure leaves it there; see loginSucceeded and releaseLoginAttempt. */
export type LoginAttempt = { keys: string[]; userName: string; ip: string };

/** Takes the attempt's place in every counter, then refuses it (giving the places back) or lets its password be checked. */
export async function beginLoginAttempt(ctx: AppContext, userName: string, ip: string): Promise<LoginAttempt> {
  const { lockoutAfter, ipLockoutAfter, accountLockoutAfter, lockoutMs, slowdownAfter, slowdownMs } = ctx.config.login;
  const now = ctx.now();
  const keys = [ipKey(ip), pairKey(userName, ip), accountKey(userName)];
  // Counters that cannot be read (Redis away) refuse the login: fail closed, never let tries through uncounted.
  const [byAddress, byPair, byAccount] = await Promise.all(keys.map((key) => ctx.counters.increment(key, lockoutMs, now))).catch(() => {
    throw new AppError(messages.login.throttleUnavailable, 503);
  });
  const refused = byAddress > ipLockoutAfter || byPair > lockoutAfter
    || (byAccount > accountLockoutAfter && (await ctx.counters.get(knownKey(userName, ip), now)) === 0);
  if (refused) {
    await releaseLoginAttempt(ctx, { keys, userName, ip });
    throw new AppError(fill(messages.login.throttled, { minutes: Math.ceil(lockoutMs / 60_000) }), 429);
  }
  if (byAccount > slowdownAfter && slowdownMs > 0) await new Promise((resolve) => setTimeout(resolve, slowdownMs));
  return { keys, userName, ip };
}

/**
 * The right password: the pair's failures are forgiven (not the address's: one good password does not
 * bless an IP, whose own attempt only is given back), the attempt leaves the account's count, and the
 * address becomes known to the account.
 */
export async function loginSucceeded(ctx: AppContext, attempt: LoginAttempt): Promise<void> {
  const now = ctx.now();
  const [address, pair, wholeAccount] = attempt.keys;
  await Promise.all([
    ctx.counters.release(address, now),
    ctx.counters.reset(pair),
    ctx.counters.release(wholeAccount, now),
    ctx.counters.increment(knownKey(attempt.userName, attempt.ip), KNOWN_ADDRESS_MS, now),
  ]);
}

/** An attempt that is not a failure (refused unchecked; the right password of a locked account): its places given back. */
export async function releaseLoginAttempt(ctx: AppContext, attempt: LoginAttempt): Promise<void> {
  const now = ctx.now();
  await Promise.all(attempt.keys.map((key) => ctx.counters.release(key, now)));
}
