import { randomBytes } from 'node:crypto';

// What a fake gateway holds on its side: the payments (one per out_trade_no) and refunds (one per refund
// number), in memory. Amounts in integer fen, times epoch ms.

export type FakePayment = {
  orderNo: string; amount: number; subject: string; notifyUrl: string; appId: string; mchId: string;
  status: 'open' | 'paid' | 'closed'; transId: string; createTime: number; payTime?: number; refunded: number;
  /** Alipay: a precreate trade exists only once the buyer scanned */
  scanned: boolean;
};
export type FakeRefund = { refundNo: string; orderNo: string; amount: number; refundId: string; status: 'SUCCESS' | 'FAILED'; time: number; notifyUrl?: string };

export class FakeBooks {
  readonly payments = new Map<string, FakePayment>();
  readonly refunds = new Map<string, FakeRefund>();
  /** Tests: the next refunds are refused. */
  refuseRefunds = false;

  /** The same create retried answers the payment it made; the same order number with another amount, subject
   * or notify URL is refused (undefined), as the real services refuse it (they never answer the first one). */
  open(p: Omit<FakePayment, 'status' | 'transId' | 'refunded' | 'scanned'>): FakePayment | undefined {
    const known = this.payments.get(p.orderNo);
    if (known) return known.amount === p.amount && known.subject === p.subject && known.notifyUrl === p.notifyUrl ? known : undefined;
    const payment: FakePayment = { ...p, status: 'open', transId: '', refunded: 0, scanned: false };
    this.payments.set(p.orderNo, payment);
    return payment;
  }

  /** The customer paid: open → paid once (closed stays closed unless `afterClose`, a payment that raced the close). */
  pay(orderNo: string, transId: string, now: number, afterClose = false): FakePayment | undefined {
    const p = this.payments.get(orderNo);
    if (!p || p.status === 'paid' || (p.status === 'closed' && !afterClose)) return undefined;
    Object.assign(p, { status: 'paid', transId, payTime: now, scanned: true });
    return p;
  }

  /** A refund asked with a number already known answers that refund (the same request retried). */
  refund(input: { orderNo: string; refundNo: string; amount: number; notifyUrl?: string }, now: number): { refund?: FakeRefund; error?: string } {
    const known = this.refunds.get(input.refundNo);
    if (known) return known.orderNo === input.orderNo && known.amount === input.amount ? { refund: known } : { error: 'refund number reused with other values' };
    const p = this.payments.get(input.orderNo);
    if (!p || p.status !== 'paid') return { error: 'trade not paid' };
    if (this.refuseRefunds) return { error: 'refused (fake: refuseRefunds)' };
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0 || p.refunded + input.amount > p.amount) return { error: 'refund amount exceeds what is left' };
    p.refunded += input.amount;
    const refund: FakeRefund = { ...input, refundId: `${now}${randomBytes(6).toString('hex')}`, status: 'SUCCESS', time: now };
    this.refunds.set(input.refundNo, refund);
    return { refund };
  }
}

/** Beijing day (YYYY-MM-DD) of an epoch ms. */
export const beijingDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
export const beijingText = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
export const yuan = (fen: number) => `${Math.trunc(fen / 100)}.${String(Math.abs(fen) % 100).padStart(2, '0')}`;
export const randomDigits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join('');
