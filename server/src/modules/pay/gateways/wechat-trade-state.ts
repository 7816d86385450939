import type { PaymentState } from './gateway.ts';

/** WeChat Pay's trade_state (APIv2 and APIv3 alike) as a PaymentState; `paid` reads the payment of a paid one. */
export function wechatTradeState(tradeState: unknown, paid: () => PaymentState): PaymentState {
  switch (tradeState) {
    case 'SUCCESS':
    case 'REFUND':
      return paid();
    case 'NOTPAY':
    case 'USERPAYING':
      return { state: 'unpaid' };
    case 'CLOSED':
    case 'REVOKED':
    case 'PAYERROR':
      return { state: 'closed' };
    default:
      return { state: 'unknown' };
  }
}
