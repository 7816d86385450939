import { fill, messages } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../http/errors.ts';

// Activation throttling: /device/v1/activate took ~600 guesses per second from one
// address. Activations are limited per ADDRESS and per CODE through the counter store (shared through
// Redis when configured), each scope with two counters:
// - `held`: every attempt takes its place before the code is looked up (atomic, as the login's, so a
//   burst sent at once cannot all pass) and gives it back when it succeeds or is refused unchecked; what
//   stays are the failures, plus the attempts in flight;
// - `failed`: the failures alone.
// An attempt that finds `held` over the limit is refused unchecked: 429 when the failures alone reach
// the limit (locked for the rest of the window), else 503 "busy" — a fleet behind one address activating
// many devices at once holds places only while in flight, and a device retries a 5xx with backoff
// (docs/device-protocol.md), so successes never lock an address. So at most `limit` codes are checked
// and found wrong per address or code per window, however the guesses are sent. A code over its limit
// still activates the device it is bound to (a reinstalled app): guessing at a code does not lock its
// owner out. Refusals say nothing about the code.

type Scope = { held: string; failed: string; limit: number };

export type ActivationAttempt = { scopes: Scope[]; codeRefused: AppError | undefined };

const refusal = async (ctx: AppContext, scope: Scope, now: number): Promise<AppError> => {
  const minutes = Math.ceil(ctx.config.device.activateWindowMs / 60_000);
  return (await ctx.counters.get(scope.failed, now)) >= scope.limit
    ? new AppError(fill(messages.device.activateThrottled, { minutes }), 429)
    : new AppError(messages.device.activateBusy, 503);
};

/** Takes the attempt's places per address and per code; refuses at once when the address has none left. */
export async function beginActivation(ctx: AppContext, authCode: string, ip: string): Promise<ActivationAttempt> {
  const { activateIpLimit, activateCodeLimit, activateWindowMs } = ctx.config.device;
  const now = ctx.now();
  const scopes: Scope[] = [
    { held: `activate-held:ip:${ip}`, failed: `activate-fail:ip:${ip}`, limit: activateIpLimit },
    { held: `activate-held:code:${authCode}`, failed: `activate-fail:code:${authCode}`, limit: activateCodeLimit },
  ];
  const [byAddress, byCode] = await Promise.all(scopes.map((scope) => ctx.counters.increment(scope.held, activateWindowMs, now)));
  const attempt: ActivationAttempt = { scopes, codeRefused: byCode > activateCodeLimit ? await refusal(ctx, scopes[1], now) : undefined };
  if (byAddress > activateIpLimit) {
    const refused = await refusal(ctx, scopes[0], now);
    await releaseActivation(ctx, attempt);
    throw refused;
  }
  return attempt;
}

/** The code was unknown, bound to another device or expired: the places stay, and the failure is counted. */
export async function activationFailed(ctx: AppContext, attempt: ActivationAttempt): Promise<void> {
  const now = ctx.now();
  const { activateWindowMs } = ctx.config.device;
  await Promise.all(attempt.scopes.map((scope) => ctx.counters.increment(scope.failed, activateWindowMs, now)));
}

/** An attempt that is no failure (it bound the device, or was refused unchecked): its places given back. */
export async function releaseActivation(ctx: AppContext, attempt: ActivationAttempt): Promise<void> {
  const now = ctx.now();
  await Promise.all(attempt.scopes.map((scope) => ctx.counters.release(scope.held, now)));
}
