import { fill, messages, TransType, yuanToFen, type Order } from '@huiyun/contract';
import { ApiError } from '../../../api/client.ts';

const m = messages.order;

/**
 * The idempotency key of one opening of the 退款 dialog (contract REFUND_KEY_PATTERN): 32 hex digits.
 * getRandomValues, not randomUUID: the console may be served over plain http, where randomUUID is missing.
 */
export function newRefundKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A consumption order with something left to give back (the server says how much: refundableAmount). */
export function canRefund(order: Pick<Order, 'transType' | 'refundableAmount'>): boolean {
  return order.transType === TransType.consume && (yuanToFen(order.refundableAmount) ?? 0) > 0;
}

/** refundExceeds when a well-formed amount is above the refundable one; the contract schema judges the form. */
export function exceedsIssue(amount: unknown, refundableAmount: string): string | null {
  if (typeof amount !== 'string' && typeof amount !== 'number') return null;
  const fen = yuanToFen(amount);
  const refundable = yuanToFen(refundableAmount) ?? 0;
  return fen !== undefined && fen > refundable ? fill(m.refundExceeds, { refundable: refundableAmount }) : null;
}

/**
 * After a failed 退款, may the dialog send the same key again? Only when the outcome is unknown (no
 * answer, or a server error): a retry must then find the refund made. A refusal or a 退款失败 (4xx) is
 * an answer: a failed refund has used the key, so a retry needs a new one to try again.
 */
export function keepsKeyAfter(error: unknown): boolean {
  return !(error instanceof ApiError && error.status >= 400 && error.status < 500);
}
