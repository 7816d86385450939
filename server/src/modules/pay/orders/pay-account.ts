import { readablePayAccount, type PayAccount } from '../gateways/index.ts';
import type { Log, PaymentRuntime } from './runtime.ts';

/**
 * The order's 支付配置 with its secrets opened (gateway/config-loader.ts, kept by gateway/pay-account-cache.ts); undefined when it is gone or a
 * secret does not open under this server's key ring (logged, never the secret).
 */
export async function accountOf(rt: PaymentRuntime, order: { orderNo: string; configId: number }, log?: Log): Promise<PayAccount | undefined> {
  return readablePayAccount(rt.ctx, order.configId, (error) =>
    rt.strangers.warn(log, 'configUnreadable', { orderNo: order.orderNo, reason: error.message }, 'payment alarm: the order\'s 支付配置 does not open'));
}
