import type { AppContext } from '../../../context.ts';
import { loadPayAccount, PayAccountError } from './config-loader.ts';
import type { PayAccount } from './gateway.ts';

// A 支付配置 with its secrets opened is asked for on every order created and every notification (it was
// read and opened twice a purchase, docs/performance.md "Terminal flow"), and changes only by the 支付配置
// screen. Each instance keeps the opened accounts in ctx.payAccountCache (infra/invalidated-cache.ts): a
// save or delete drops the config's entry here and, through Redis, on every instance, once committed; a
// read under way while a save commits answers its caller but is not kept. So no secret is used after the
// save that replaced it (an announcement lost on the way: until the entry is CACHE_MAX_AGE_MS old).

/** The 支付配置 `id` with its secrets opened (loadPayAccount), from this instance's cache. Throws PayAccountError as it does. */
export async function payAccount(ctx: AppContext, id: number): Promise<PayAccount | undefined> {
  return (await ctx.payAccountCache.get(id, ctx.now(), () => loadPayAccount(ctx.db, ctx.secrets, id))) as PayAccount | undefined;
}

/** The same, or undefined when the config is gone or a secret does not open under this server's key ring (`onUnreadable` hears why). */
export async function readablePayAccount(ctx: AppContext, id: number, onUnreadable?: (error: PayAccountError) => void): Promise<PayAccount | undefined> {
  try {
    return await payAccount(ctx, id);
  } catch (error) {
    if (!(error instanceof PayAccountError)) throw error;
    onUnreadable?.(error);
    return undefined;
  }
}

/** After a 支付配置 write committed: every instance opens these configs anew. */
export async function payAccountsChanged(ctx: AppContext, ids: readonly number[]): Promise<void> {
  for (const id of new Set(ids)) await ctx.payAccountCache.invalidate(id);
}
