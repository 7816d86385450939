import { describe, expect, it } from 'vitest';
import { messages, REFUND_KEY_PATTERN, TransType } from '@huiyun/contract';
import { ApiError } from '../../../api/client.ts';
import { canRefund, exceedsIssue, keepsKeyAfter, newRefundKey } from './refund.ts';

describe('退款 helpers', () => {
  it('makes keys the server takes, a new one each time', () => {
    const [a, b] = [newRefundKey(), newRefundKey()];
    expect(a).toMatch(REFUND_KEY_PATTERN);
    expect(a).not.toBe(b);
  });

  it('offers 退款 for consumption orders with something refundable only', () => {
    expect(canRefund({ transType: TransType.consume, refundableAmount: '0.01' })).toBe(true);
    expect(canRefund({ transType: TransType.consume, refundableAmount: '0.00' })).toBe(false);
    expect(canRefund({ transType: TransType.refund, refundableAmount: '0.00' })).toBe(false);
  });

  it('refuses an amount above the refundable one with the server’s text', () => {
    expect(exceedsIssue('2.01', '2.00')).toBe('退款金额超过可退金额（可退 2.00 元）');
    expect(exceedsIssue('2', '2.00')).toBeNull();
    expect(exceedsIssue('abc', '2.00')).toBeNull(); // the schema's format message says it
    expect(exceedsIssue(undefined, '2.00')).toBeNull();
    expect(messages.order.refundExceeds).toContain('{refundable}');
  });

  it('keeps the key when the outcome is unknown, renews it after an answer', () => {
    expect(keepsKeyAfter(new ApiError('x', 0))).toBe(true);
    expect(keepsKeyAfter(new ApiError('x', 502))).toBe(true);
    expect(keepsKeyAfter(new Error('x'))).toBe(true);
    expect(keepsKeyAfter(new ApiError('退款失败：x', 409))).toBe(false);
    expect(keepsKeyAfter(new ApiError('x', 400))).toBe(false);
  });
});
