// The payment gateway interface: what the order state machine asks of WeChat Pay, Alipay
// or the simulator. Amounts are integer fen. A gateway never sees the order table; the order module
// never sees a gateway's wire format.

import type { PayConfigCheckResult, PayConfigField, PayGateway } from '@huiyun/contract';
import { compiledOnce } from '../../../db/compiled-once.ts';
import type { Queryable } from '../../../db/schema.ts';
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

/**
 * A 支付配置 as the real gateways use it (config-loader.ts): the row's fields, and its secrets opened once
 * ('' = not set). A GatewayConfig too, so the simulator takes it as it is.
 */
export type PayAccount = GatewayConfig & {
  subMchId: string;
  signType: string;
  sellerUserId: string;
  certSerialNo: string;
  platformPubKeyId: string;
  platformPubKey: string;
  alipayPublicKey: string;
  secrets: {
    /** WeChat APIv2 key */
    partnerKey: string;
    certPassword: string;
    /** WeChat: the merchant API private key (PEM) */
    rsaKey: string;
    apiV3Key: string;
    /** Alipay: the application private key */
    appPrivateKey: string;
    /** WeChat v2 refunds: the merchant API certificate (PKCS#12 in base64, or PEM certificate + key); '' = none */
    apiCert: string;
  };
};

export type CreatePayment = { orderNo: string; amount: number; subject: string; expireAt: number; notifyUrl: string };

export type PaymentState =
  | { state: 'unpaid' }
  | { state: 'paid'; transId: string; amount: number; payTime: number }
  | { state: 'closed' }
  | { state: 'unknown' };

export type RefundState = { state: 'success' | 'processing' | 'failed' | 'unknown'; reason?: string };

/** A verified paid notification: what the order module cross-checks against its order. */
export type PaidNotification = { orderNo: string; transId: string; amount: number; mchId: string; appId: string; payTime: number };
/**
 * A verified notification that reports no payment (Alipay's TRADE_CLOSED after a full refund or a close):
 * acknowledged, and it changes no money.
 */
export type ClosedNotification = { closed: true; orderNo: string; transId: string; mchId: string; appId: string };
/** A verified refund notification (WeChat v2/v3 REFUND.*). */
export type RefundNotification = { refundNo: string; orderNo: string; gatewayRefundNo: string; amount: number; state: RefundState['state']; at?: number };
type Headers = Record<string, string | string[] | undefined>;

export interface PaymentGateway<C extends GatewayConfig = GatewayConfig> {
  readonly name: string;
  createPayment(config: C, input: CreatePayment): Promise<{ codeUrl: string }>;
  query(config: C, orderNo: string): Promise<PaymentState>;
  /** Closes an unpaid payment; answers what the gateway holds afterwards (a payment may have won the race). */
  close(config: C, orderNo: string): Promise<PaymentState>;
  /** notifyUrl: where the gateway tells the refund's outcome (gateways that do). */
  refund(config: C, input: { orderNo: string; refundNo: string; amount: number; notifyUrl?: string }): Promise<RefundState>;
  /** orderNo: the refunded order's number (Alipay asks by both). */
  queryRefund(config: C, refundNo: string, orderNo?: string): Promise<RefundState>;
  /** Which order a raw notification names, before its config (and key) is known; undefined if unreadable. */
  orderNoOf(rawBody: string): string | undefined;
  /**
   * Checks the signature of a raw notification (the bytes as received) with the config's key; throws
   * GatewayVerifyError when false.
   */
  verifyNotification(config: C, rawBody: string, headers: Headers): PaidNotification | ClosedNotification | Promise<PaidNotification | ClosedNotification>;
  /** The same for a refund notification (gateways that send them). */
  verifyRefundNotification?(config: C, rawBody: string, headers: Headers): Promise<RefundNotification>;
  /**
   * A refund notification that carries no signature (WeChat APIv2: only AES-ECB under a key derived from the
   * APIv2 key): its outcome is confirmed by queryRefund, never taken from the body.
   */
  readonly confirmsRefundByQuery?: boolean;
  /** The body a gateway expects as acknowledgement (and as refusal), and the HTTP status to answer with. */
  acknowledgement(ok: boolean, message: string): { contentType: string; body: string; status?: number };
  /** The gateway's bill of one Beijing day (YYYY-MM-DD); a day without trades is an empty bill. */
  downloadBill?(config: C, day: string): Promise<Bill>;
  /**
   * 支付配置 → 检测: one harmless signed call with the config's keys (a query for an order that cannot exist),
   * answering what it proved and, for each failure, a sentence naming the field to fix. Never throws for a
   * refusal or an unreachable gateway (that is a failed check); never puts a secret in its answer.
   */
  probe?(config: C): Promise<PayConfigCheckResult>;

}

export class GatewayVerifyError extends Error {}

/**
 * A call that never left this server: it failed here, before anything was sent (a key or certificate of its
 * 支付配置 does not load: `field`). Whatever it was for can be ended without asking the gateway: the gateway never
 * heard of it.
 */
export class GatewayNotSentError extends Error {
  readonly field: PayConfigField;
  constructor(field: PayConfigField, reason: string) {
    // the field and what the parser said, never the value
    super(`${field} does not load here: ${reason}`);
    this.field = field;
  }
}

/**
 * A key or certificate a call needs, loaded before anything is sent: every gateway goes through here, so a value
 * that does not load (a 支付配置 row written around the save's checks) is GatewayNotSentError, which its caller
 * may act on (a refund ends 退款失败), and never an error after the request left, which it may not.
 */
export function loadBeforeSending<T>(field: PayConfigField, load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof GatewayNotSentError) throw error;
    throw new GatewayNotSentError(field, error instanceof Error ? error.message : 'unreadable');
  }
}

/**
 * The gateways by pay_config.gateway: one for each of the contract's gateways (`PayGateway`, the 支付配置
 * dialog's choices), a Record the compiler holds complete, each taking the 支付配置 as config-loader.ts opens it.
 */
export type Gateways = { readonly [G in PayGateway]: PaymentGateway<PayAccount> & { readonly name: G } };

export class GatewayRegistry {
  private readonly gateways: { [G in PayGateway]: Gateways[G] };
  constructor(gateways: Gateways) {
    this.gateways = { ...gateways };
  }
  get(name: string): PaymentGateway<PayAccount> | undefined {
    return Object.hasOwn(this.gateways, name) ? this.gateways[name as PayGateway] : undefined;
  }
  all(): PaymentGateway<PayAccount>[] {
    return Object.values(this.gateways);
  }
  /** Tests: a gateway in place of the registry's one of its name (one pointed at a local fake). */
  replace<G extends PayGateway>(gateway: Gateways[G]): this {
    (this.gateways as Record<G, Gateways[G]>)[gateway.name as G] = gateway;
    return this;
  }
}
