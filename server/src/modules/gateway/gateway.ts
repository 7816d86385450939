// The payment gateway interface (issue 16 §4): what the order state machine asks of WeChat Pay, Alipay
// or the simulator. Amounts are integer fen. A gateway never sees the order table; the order module
// never sees a gateway's wire format.

import { compiledOnce } from '../../db/compiled-once.ts';
import type { Queryable } from '../../db/schema.ts';
import type { Bill } from './bill.ts';

/** The 支付配置 a payment runs on (pay_config), with its secrets still sealed. */
export type GatewayConfig = {
  id: number;
  gateway: string;
  partner: string;
  appid: string;
  /** sealed, '' = not set */
  partnerKey: string;
};

const configById = compiledOnce((db, v: { id: number }) => db.selectFrom('pay_config').select(['id', 'gateway', 'partner', 'appid', 'partnerKey']).where('id', '=', v.id));

/** The 支付配置 `id` (a statement built once: a purchase reads it twice). */
export async function gatewayConfigOf(db: Queryable, id: number): Promise<GatewayConfig | undefined> {
  return (await configById(db, { id }))[0];
}

export type CreatePayment = { orderNo: string; amount: number; subject: string; expireAt: number; notifyUrl: string };

export type PaymentState =
  | { state: 'unpaid' }
  | { state: 'paid'; transId: string; amount: number; payTime: number }
  | { state: 'closed' }
  | { state: 'unknown' };

export type RefundState = { state: 'success' | 'processing' | 'failed' | 'unknown'; reason?: string };

/** A verified paid notification: what the order module cross-checks against its order. */
export type PaidNotification = { orderNo: string; transId: string; amount: number; mchId: string; appId: string; payTime: number };

export interface PaymentGateway {
  readonly name: string;
  createPayment(config: GatewayConfig, input: CreatePayment): Promise<{ codeUrl: string }>;
  /**
   * Only a gateway whose books are in this database (the simulator): the same as createPayment, written
   * through `db` — the caller's transaction, so the order, its payment and its QR commit together.
   */
  createPaymentIn?(db: Queryable, config: GatewayConfig, input: CreatePayment): Promise<{ codeUrl: string }>;
  query(config: GatewayConfig, orderNo: string): Promise<PaymentState>;
  /** Closes an unpaid payment; answers what the gateway holds afterwards (a payment may have won the race). */
  close(config: GatewayConfig, orderNo: string): Promise<PaymentState>;
  refund(config: GatewayConfig, input: { orderNo: string; refundNo: string; amount: number }): Promise<RefundState>;
  queryRefund(config: GatewayConfig, refundNo: string): Promise<RefundState>;
  /** Which order a raw notification names, before its config (and key) is known; undefined if unreadable. */
  orderNoOf(rawBody: string): string | undefined;
  /** Checks the signature of a raw notification with the config's key; throws GatewayVerifyError when false. */
  verifyNotification(config: GatewayConfig, rawBody: string, headers: Record<string, string | string[] | undefined>): PaidNotification;
  /** The body a gateway expects as acknowledgement (and as refusal). */
  acknowledgement(ok: boolean, message: string): { contentType: string; body: string };
  /** The bill of a Beijing day 'YYYY-MM-DD' for 对账; a day with no bill is an empty bill. */
  downloadBill?(config: GatewayConfig, day: string): Promise<Bill>;
}

export class GatewayVerifyError extends Error {}

/** The gateways by pay_config.gateway. */
export class GatewayRegistry {
  private readonly gateways = new Map<string, PaymentGateway>();
  add(gateway: PaymentGateway): this {
    this.gateways.set(gateway.name, gateway);
    return this;
  }
  get(name: string): PaymentGateway | undefined {
    return this.gateways.get(name);
  }
}
