import { fenToYuan, fill, isOrderNo, messages, OrderStatus } from '@huiyun/contract';
import { compiledOnce } from '../../../db/compiled-once.ts';
import { sharedWrite } from '../../../db/shared-commit.ts';
import { GatewayVerifyError, type ClosedNotification, type PaidNotification, type PayAccount, type PaymentGateway } from '../gateways/index.ts';
import { recordAlarm } from '../alarms/index.ts';
import { accountOf } from './pay-account.ts';
import { refundSoon } from './refund.ts';
import type { Log, PaymentRuntime } from './runtime.ts';
import { payByNumber, transition } from './state-machine.ts';
import type { Order } from './status.ts';

// A gateway's paid notification: the door every gateway's notify route goes through.

const t = messages.terminal;

const orderByNo = compiledOnce((db, v: { orderNo: string }) => db.selectFrom('pay_order').selectAll().where('orderNo', '=', v.orderNo));

/** 详情 of a notification that does not fit its order: what differs, in the operator's words. */
function mismatchDetail(field: 'orderNo' | 'amount' | 'mchId' | 'appId', paid: number, order: number): string {
  const a = messages.payAlarm;
  if (field === 'amount') return fill(a.detailNotifyAmount, { paid: fenToYuan(paid), order: fenToYuan(order) });
  return fill(a.detailNotifyField, { field: { orderNo: a.notifyFieldOrderNo, mchId: a.notifyFieldMchId, appId: a.notifyFieldAppId }[field] });
}

export type NotifyAnswer = { ok: boolean; message: string };
export type NotifyHeaders = Record<string, string | string[] | undefined>;


/**
 * A paid notification: verified with the order's 支付配置, cross-checked (amount, merchant, app id, order
 * number), then 1/10 → 2 once; a repeat is acknowledged and changes nothing; a payment for a closed order
 * (5) is recorded for an automatic refund before it is acknowledged. `orderNoInPath`: the number of the
 * notify URL (/gateway/<gateway>/notify/<orderNo>); without it (NOTIFY_BODY_ROUTE), the body's (PaymentGateway.orderNoOf).
 * `configIdInPath`: the 支付配置 the URL names (notifyUrlOf, NOTIFY_CONFIG_ROUTE): then the common case — a first
 * notification that fits — is verified before anything is read and paid in one statement (paidByPath).
 */
export async function handlePaidNotification(rt: PaymentRuntime, gatewayName: string, rawBody: string, headers: NotifyHeaders, log?: Log, orderNoInPath?: string, configIdInPath?: number): Promise<NotifyAnswer> {
  const { ctx } = rt;
  const gateway = rt.gateways.get(gatewayName);
  if (!gateway) return { ok: false, message: fill(t.gatewayUnknown, { gateway: gatewayName.slice(0, 32) }) };
  const orderNo = orderNoInPath ?? gateway.orderNoOf(rawBody);
  const byPath = configIdInPath !== undefined && isOrderNo(orderNo) ? await paidByPath(rt, gateway, { gatewayName, orderNo, configId: configIdInPath, rawBody, headers, log }) : undefined;
  if (byPath?.answer) return byPath.answer;
  const order = isOrderNo(orderNo) ? (await orderByNo(ctx.db, { orderNo }))[0] : undefined;
  // Nothing reaches the database before the signature holds: anyone can send a notification, and order numbers
  // are no secret (every customer sees one). Unsigned garbage is logged, once a minute per kind (rt.strangers).
  if (!order) {
    rt.strangers.warn(log, 'unknownOrder', { orderNo: orderNo?.slice(0, 64) }, 'payment alarm: notification for an unknown order');
    return { ok: false, message: t.notifyUnknownOrder };
  }
  // verified already, under the 支付配置 the URL named, where that is the order's
  const before = byPath?.verified?.config.id === order.configId ? byPath.verified : undefined;
  const config = before?.config ?? await accountOf(rt, order, log);
  const verified = await verifiedWith(rt, { gatewayName, config, order, alarmOn: order, log }, (c) => before?.paid ?? gateway.verifyNotification(c, rawBody, headers));
  if (!verified.ok) return verified.answer;
  const paid = verified.value;
  // Alipay's TRADE_CLOSED after a full refund: acknowledged, and no money moves
  if ('closed' in paid) return { ok: true, message: 'closed: no payment, nothing changes' };
  const mismatch = paid.orderNo !== order.orderNo ? 'orderNo' : paid.amount !== order.payAmount ? 'amount' : accountMismatch(paid, verified.config);
  if (mismatch) {
    await recordAlarm(ctx, log, 'notifyMismatch', order, mismatchDetail(mismatch, paid.amount, order.payAmount));
    return { ok: false, message: fill(t.notifyMismatch, { field: mismatch }) };
  }
  const moved = await sharedWrite(ctx.db, (db) => transition(db, order.orderId, 'paid', ctx.now(), { transId: paid.transId, payTime: paid.payTime }));
  if (moved.moved) return { ok: true, message: 'paid' };
  if (moved.status === OrderStatus.timedOut && order.payTime === null) {
    // jeepay's hole: never acknowledge a payment the order does not show. Record it, mark for refund.
    // (Recorded once: a repeat after that — also after the refund cleared the mark — is only acknowledged.)
    const recorded = await transition(ctx.db, order.orderId, 'markLatePayment', ctx.now(), { transId: paid.transId, payTime: paid.payTime, refundNeeded: 1 });
    if (!recorded.moved) return { ok: false, message: 'retry' };
    await recordAlarm(ctx, log, 'latePayment', order, fill(messages.payAlarm.detailLatePayment, { transId: paid.transId }));
    refundSoon(rt, order.orderNo, log); // after the acknowledgement (the sweeper is the safety net)
    return { ok: true, message: 'recorded for refund' };
  }
  // already paid / dispensed / failed, or a payment after close already recorded: a repeat, acknowledged, nothing changes
  return { ok: true, message: 'repeat' };
}

type ByPath = { answer?: NotifyAnswer; verified?: { config: PayAccount; paid: PaidNotification | ClosedNotification } };

/**
 * A notification whose URL names the 支付配置 it is signed under: verified under it with no read of the
 * order (a forged one is refused before anything is read), then — when it says what the order's own URL
 * promised (this order number, this merchant and app) — paid by one guarded statement that holds the order to
 * that 支付配置 and that amount (state-machine.ts payByNumber). Answers what it could decide alone; otherwise
 * (a repeat, a payment after close, a mismatch, a 支付配置 gone or of another gateway) the verified notification
 * for handlePaidNotification to read the order and decide as for any notification.
 */
async function paidByPath(rt: PaymentRuntime, gateway: PaymentGateway, v: { gatewayName: string; orderNo: string; configId: number; rawBody: string; headers: NotifyHeaders; log: Log | undefined }): Promise<ByPath> {
  const { ctx } = rt;
  const config = await accountOf(rt, { orderNo: v.orderNo, configId: v.configId }, v.log);
  if (!config || config.gateway !== v.gatewayName) return {};
  // an order's notify URL names its own 支付配置: a body that does not verify under it is no notification of that order
  const checked = await verifiedOrWarned(rt, v.log, v.orderNo, () => gateway.verifyNotification(config, v.rawBody, v.headers));
  if (!checked.ok) return { answer: checked.answer };
  const paid = checked.value;
  const verified = { config, paid };
  if ('closed' in paid || paid.orderNo !== v.orderNo || accountMismatch(paid, config)) return { verified };
  const orderId = await sharedWrite(ctx.db, (db) => payByNumber(db, { orderNo: v.orderNo, configId: v.configId, payAmount: paid.amount, transId: paid.transId, payTime: paid.payTime, now: ctx.now() }));
  return orderId === undefined ? { verified } : { answer: { ok: true, message: 'paid' } };
}

type Verified<T> = { ok: true; value: T; config: PayAccount } | { ok: false; answer: NotifyAnswer };

/**
 * The part every notification door shares: the row's 支付配置 is there, the raw body verifies under it
 * (a refusal is only logged, once a minute per kind: nothing is written before a signature holds), and
 * the config names the gateway the notification came through (else an alarm on `alarmOn`).
 */
export async function verifiedWith<T>(rt: PaymentRuntime, v: { gatewayName: string; config: PayAccount | undefined; order: { orderNo: string; configId: number }; alarmOn: Order; log?: Log | undefined }, verify: (config: PayAccount) => T | Promise<T>): Promise<Verified<T>> {
  const { ctx } = rt;
  const { config, order, log } = v;
  if (!config) {
    rt.strangers.warn(log, 'configMissing', { orderNo: order.orderNo }, 'payment alarm: notification for an order whose 支付配置 is gone');
    return { ok: false, answer: { ok: false, message: fill(t.notifyMismatch, { field: 'gateway' }) } };
  }
  const checked = await verifiedOrWarned(rt, log, order.orderNo, () => verify(config));
  if (!checked.ok) return checked;
  const value = checked.value;
  // signed with the order's 支付配置, yet that config names another gateway: an operator must look
  if (config.gateway !== v.gatewayName) {
    await recordAlarm(ctx, log, 'configMismatch', v.alarmOn, fill(messages.payAlarm.detailConfig, { gateway: v.gatewayName, configId: order.configId }));
    return { ok: false, answer: { ok: false, message: fill(t.notifyMismatch, { field: 'gateway' }) } };
  }
  return { ok: true, value, config };
}

/** The notification's merchant or app id where it is not the 支付配置's; undefined when both fit. */
function accountMismatch(paid: PaidNotification, config: PayAccount): 'mchId' | 'appId' | undefined {
  return paid.mchId !== config.partner ? 'mchId' : paid.appId !== config.appid ? 'appId' : undefined;
}

/** `verify`'s answer; a refusal only logged (once a minute per kind: anyone can send one) and answered as a bad signature. */
async function verifiedOrWarned<T>(rt: PaymentRuntime, log: Log | undefined, orderNo: string, verify: () => T | Promise<T>): Promise<{ ok: true; value: T } | { ok: false; answer: NotifyAnswer }> {
  try {
    return { ok: true, value: await verify() };
  } catch (error) {
    rt.strangers.warn(log, 'badSignature', { orderNo, reason: error instanceof GatewayVerifyError ? error.message : 'unreadable notification' }, 'payment alarm: notification refused');
    return { ok: false, answer: { ok: false, message: t.notifyBadSignature } };
  }
}
