import { randomHex } from '../../../infra/random-hex.ts';
import { fenToYuan, fill, messages, OrderStatus, TransType } from '@huiyun/contract';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../../context.ts';
import { AppError, isUniqueViolation } from '../../../db/errors.ts';
import { inDeptScope, type DeptScope } from '../../../db/scope.ts';
import type { Database, Queryable } from '../../../db/schema.ts';
import type { Log, PaymentRuntime } from './runtime.ts';
import { GatewayNotSentError, type RefundState, refundNotifyUrlOf } from '../gateways/index.ts';
import { accountOf } from './pay-account.ts';
import { recordAlarm } from '../alarms/index.ts';
import { statusLabel, transition } from './state-machine.ts';

// Refunds: 11 退款初始化 → 12 退款中 → 13 退款成功 | 14 退款失败, each its own pay_order row,
// moved by state-machine.ts's edges startRefund, refundSucceeded and refundFailed.
//
// Reserve before the gateway (dax-pay's rule): one transaction inserts the refund row and reserves its
// amount on the paid order with a guarded UPDATE — refunded + reserved + amount ≤ paid — and only after
// it commits is the gateway asked. Success moves the reservation into refundedAmount, failure releases
// it; both in one transaction with the refund row's own guarded move, so a crash leaves either the
// before or the after. Every SET is evaluated against the old row (PostgreSQL and SQLite both do so).
// A crash between the commit and the gateway's answer leaves the row in 11/12: the refund sweeper asks
// the gateway about it (refund numbers are idempotent at the gateway).

const m = messages.order;
type Order = Selectable<Database['pay_order']>;

/** Paid orders that may be refunded: paid, dispensed, dispense failed, and closed ones a late payment reached. */
const REFUNDABLE_FROM = [OrderStatus.paid, OrderStatus.dispensed, OrderStatus.dispenseFailed, OrderStatus.timedOut];

export type RefundInput = { orderId: number; amount: number; reason: string; requestKey: string };
export type RefundOutcome = { refund: Order; repeated: boolean };

export const refundableOf = (order: Pick<Order, 'transType' | 'payTime' | 'payAmount' | 'refundedAmount' | 'reservedAmount'>) =>
  order.transType === TransType.consume && order.payTime !== null ? order.payAmount - order.refundedAmount - order.reservedAmount : 0;

/** `<orderNo>R<8 hex>`: unique, and an order's refunds read as its own. */
export const newRefundNo = (orderNo: string) => `${orderNo}R${randomHex(4)}`;

export async function loadOrder(db: Queryable, orderId: number, scope: DeptScope = 'all'): Promise<Order | undefined> {
  return db.selectFrom('pay_order').selectAll().where('orderId', '=', orderId).where(inDeptScope('deptId', scope)).executeTakeFirst();
}

/** Why an order cannot give `amount` back now (undefined: it can, as far as this read shows). */
function refusalOf(order: Order, amount: number): string | undefined {
  if (order.transType !== TransType.consume) return m.refundNotConsume;
  if (order.payTime === null || !REFUNDABLE_FROM.includes(order.orderStatus as never)) return fill(m.refundNotPaid, { status: statusLabel(order.orderStatus) });
  const refundable = refundableOf(order);
  if (refundable <= 0) return m.refundNothingLeft;
  if (amount > refundable) return fill(m.refundExceeds, { refundable: fenToYuan(refundable) });
  return undefined;
}

class ReserveRefused extends Error {}

/**
 * Inserts the refund row (11) and reserves its amount on the order, in one transaction. A key already
 * used for this order answers the refund made with it (repeated), whatever the amount.
 */
async function reserveRefund(ctx: AppContext, order: Order, input: RefundInput, extra: { refundNeeded?: 0 } = {}): Promise<{ refund: Order; repeated: boolean }> {
  const now = ctx.now();
  try {
    const refund = await ctx.db.transaction().execute(async (trx) => {
      const row = await trx.insertInto('pay_order').values({
        deptId: order.deptId, orderNo: newRefundNo(order.orderNo), transId: '', payType: order.payType, subPayType: order.subPayType, transType: TransType.refund,
        machineNo: order.machineNo, goodsNo: order.goodsNo, goodsName: order.goodsName, goodsPrice: order.goodsPrice, payAmount: -input.amount,
        aisleNo: order.aisleNo, orderStatus: OrderStatus.refundCreated, openId: order.openId, mchId: order.mchId, subMchId: order.subMchId,
        remark: input.reason, createTime: now, payTime: null, configId: order.configId, aisleId: order.aisleId, updateTime: now,
        parentId: order.orderId, requestKey: input.requestKey,
      }).returningAll().executeTakeFirstOrThrow();
      const reserved = await trx.updateTable('pay_order')
        .set((eb) => ({ reservedAmount: eb('reservedAmount', '+', input.amount), updateTime: now, ...extra }))
        .where('orderId', '=', order.orderId)
        .where('transType', '=', TransType.consume)
        .where('payTime', 'is not', null)
        .where('orderStatus', 'in', REFUNDABLE_FROM)
        .where((eb) => eb(eb(eb('refundedAmount', '+', eb.ref('reservedAmount')), '+', input.amount), '<=', eb.ref('payAmount')))
        .executeTakeFirst();
      if (Number(reserved.numUpdatedRows) !== 1) throw new ReserveRefused();
      return row;
    });
    return { refund, repeated: false };
  } catch (error) {
    if (error instanceof ReserveRefused) {
      const now = (await loadOrder(ctx.db, order.orderId)) ?? order;
      throw new AppError(refusalOf(now, input.amount) ?? fill(m.refundExceeds, { refundable: fenToYuan(Math.max(0, refundableOf(now))) }), 409);
    }
    if (!isUniqueViolation(error)) throw error;
    const earlier = await ctx.db.selectFrom('pay_order').selectAll().where('parentId', '=', order.orderId).where('requestKey', '=', input.requestKey).executeTakeFirst();
    if (!earlier) throw error;
    return { refund: earlier, repeated: true };
  }
}

/**
 * Applies the gateway's answer about a refund in 12: success → 13 and reserved → refunded; failed → 14
 * and the reservation released; anything else leaves it in 12 for the sweeper. One transaction, guarded
 * by the refund row's status, so an answer is applied once however many times it arrives.
 */
export async function settleRefund(ctx: AppContext, refund: Order, state: RefundState): Promise<boolean> {
  if (state.state !== 'success' && state.state !== 'failed') return false;
  const amount = -refund.payAmount;
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    const released = { claimBy: '', claimUntil: null };
    const moved = state.state === 'success'
      ? await transition(trx, refund.orderId, 'refundSucceeded', now, { payTime: now, ...released })
      : await transition(trx, refund.orderId, 'refundFailed', now, { failReason: (state.reason ?? '').slice(0, 255), ...released });
    if (!moved.moved) return false;
    const parent = await trx.updateTable('pay_order')
      .set((eb) => ({
        reservedAmount: eb('reservedAmount', '-', amount),
        refundedAmount: state.state === 'success' ? eb('refundedAmount', '+', amount) : eb.ref('refundedAmount'),
        updateTime: now,
      }))
      .where('orderId', '=', refund.parentId!)
      .where('reservedAmount', '>=', amount)
      .executeTakeFirst();
    // a refund's reservation is always on its order; a row that says otherwise is a bug, not a state
    if (Number(parent.numUpdatedRows) !== 1) throw new Error(`refund ${refund.orderNo}: no reservation of ${amount} on order ${refund.parentId}`);
    return true;
  });
}

/**
 * Moves a refund 11 → 12 (guarded) and asks the gateway to pay it out; a refund already in 12 is asked
 * about first (its call may have reached the gateway before a crash) and sent again only when the gateway
 * does not know it. Answers the refund row afterwards.
 *
 * A refund whose gateway cannot be built (its 支付配置 gone, or naming a gateway this server does not have)
 * was never sent, so failing it is safe: it waits PAY_RECOVER_SECONDS (a server that has the gateway may
 * take it meanwhile), then ends 14 and releases its amount. So does, at once, a refund the gateway failed to
 * send from here (GatewayNotSentError: the merchant certificate does not load): the gateway never heard of it.
 * A gateway that throws otherwise may have taken the refund, so that one stays in 12 and is asked again. A
 * refund ending 14 with no operator watching (an automatic one, or one failed here) is an alarm.
 */
export async function driveRefund(rt: PaymentRuntime, refund: Order, log?: Log): Promise<Order> {
  const { ctx } = rt;
  const db = ctx.db;
  const parent = await loadOrder(db, refund.parentId!);
  const config = await accountOf(rt, refund, log);
  const gateway = config && rt.gateways.get(config.gateway);
  let state: RefundState = { state: 'unknown' };
  if (refund.orderStatus === OrderStatus.refundCreated) {
    if (!(await transition(db, refund.orderId, 'startRefund', ctx.now())).moved) return (await loadOrder(db, refund.orderId))!;
  } else if (refund.orderStatus !== OrderStatus.refunding) {
    return refund;
  }
  const unbuildable = !config || !parent || !gateway;
  let unsent = false;
  let sending = false;
  if (unbuildable) {
    if (ctx.now() - Number(refund.createTime) >= ctx.config.pay.recoverMs) state = { state: 'failed', reason: m.gatewayUnavailable };
    else log?.warn({ refundNo: refund.orderNo, gateway: config?.gateway }, 'refund: no gateway for its 支付配置 (failed after PAY_RECOVER_SECONDS)');
  } else {
    try {
      if (refund.orderStatus === OrderStatus.refunding) state = await gateway.queryRefund(config, refund.orderNo, parent.orderNo);
      // the outcome is notified when this server has a public address (else the refund sweeper asks)
      const base = ctx.config.publicBaseUrl;
      const notifyUrl = base ? refundNotifyUrlOf(base, config.gateway, refund.orderNo) : undefined;
      sending = state.state === 'unknown';
      if (sending) state = await gateway.refund(config, { orderNo: parent.orderNo, refundNo: refund.orderNo, amount: -refund.payAmount, ...(notifyUrl ? { notifyUrl } : {}) });
    } catch (error) {
      // failed before leaving (a refund already in 12 was asked about first: the gateway does not know it)
      unsent = sending && error instanceof GatewayNotSentError;
      if (unsent) {
        const { field, message } = error as GatewayNotSentError;
        log?.warn({ refundNo: refund.orderNo, configId: config.id, reason: message }, 'refund not sent: it failed here, before the gateway (ends 退款失败)');
        state = { state: 'failed', reason: fill(m.refundNotSent, { label: messages.payConfig[field] }) };
      } else if (error instanceof GatewayNotSentError) {
        // a refund in 12 that cannot be asked about: it may have left under the 支付配置's keys of then, so it stays
        // 退款中 until the key loads again; a fault of the config, not of the gateway
        log?.warn({ refundNo: refund.orderNo, configId: config.id, reason: error.message }, 'refund: its 支付配置 cannot sign the query (stays 退款中)');
        state = { state: 'unknown' };
      } else {
        log?.error({ err: error, refundNo: refund.orderNo }, 'gateway refund failed (the refund sweeper asks again)');
        state = { state: 'unknown' };
      }
    }
  }
  return settleRefundWatched(ctx, refund, parent, state, log, unbuildable || unsent);
}

/**
 * settleRefund, then the refund row afterwards; a refund that ended 14 with no operator watching (an
 * automatic one, or `unwatched`) is an alarm.
 */
export async function settleRefundWatched(ctx: AppContext, refund: Order, parent: Order | undefined, state: RefundState, log?: Log, unwatched = false): Promise<Order> {
  const settled = await settleRefund(ctx, refund, state);
  const after = (await loadOrder(ctx.db, refund.orderId))!;
  const auto = refund.requestKey === AUTO_REFUND_KEY;
  if (settled && after.orderStatus === OrderStatus.refundFailed && (auto || unwatched)) {
    const detail = fill(messages.payAlarm.detailAutoRefundFailed, { refundNo: after.orderNo, reason: after.failReason });
    await recordAlarm(ctx, log, auto ? 'autoRefundFailed' : 'refundFailed', parent ?? refund, detail);
  }
  return after;
}

/** 退款 from the console: checks, reserve, then the gateway. The caller's scope limits which orders it can name. */
export async function refundOrder(rt: PaymentRuntime, scope: DeptScope, input: RefundInput, log?: Log): Promise<RefundOutcome> {
  const { ctx } = rt;
  const order = await loadOrder(ctx.db, input.orderId, scope);
  if (!order) throw new AppError(m.notFound, 404);
  const known = order.transType === TransType.consume
    ? await ctx.db.selectFrom('pay_order').selectAll().where('parentId', '=', order.orderId).where('requestKey', '=', input.requestKey).executeTakeFirst()
    : undefined;
  if (known) return { refund: known, repeated: true };
  const refused = refusalOf(order, input.amount);
  if (refused) throw new AppError(refused, 409);
  const reserved = await reserveRefund(ctx, order, input);
  const refund = reserved.repeated ? reserved.refund : await driveRefund(rt, reserved.refund, log);
  return { refund, repeated: reserved.repeated };
}

/**
 * The automatic refund's key: ':' lies outside REFUND_KEY_PATTERN, so no console request can take it (a console
 * refund keyed 'auto-refund' once did, and the dispense failure after it gave back only that refund's amount).
 */
export const AUTO_REFUND_KEY = 'auto:remainder';

/**
 * The automatic full refund of an order marked refundNeeded (dispense failure, a payment after close).
 * The key is fixed, so two sweeps (or two servers) make one refund; the mark is cleared in the reserve
 * transaction. Nothing left to refund (an operator was quicker) just clears the mark.
 */
export async function autoRefund(rt: PaymentRuntime, orderId: number, log?: Log): Promise<Order | undefined> {
  const { ctx } = rt;
  const order = await loadOrder(ctx.db, orderId);
  if (!order || order.refundNeeded !== 1) return undefined;
  const amount = refundableOf(order);
  if (amount <= 0 || refusalOf(order, amount)) {
    await ctx.db.updateTable('pay_order').set({ refundNeeded: 0 }).where('orderId', '=', orderId).where('refundNeeded', '=', 1).execute();
    return undefined;
  }
  const reason = order.orderStatus === OrderStatus.timedOut ? m.autoRefundLate : m.autoRefundDispense;
  let reserved;
  try {
    reserved = await reserveRefund(ctx, order, { orderId, amount, reason, requestKey: AUTO_REFUND_KEY }, { refundNeeded: 0 });
  } catch (error) {
    if (error instanceof AppError) return undefined; // the order changed under us: the next sweep reads it again
    throw error;
  }
  if (reserved.repeated) {
    await ctx.db.updateTable('pay_order').set({ refundNeeded: 0 }).where('orderId', '=', orderId).execute();
    return reserved.refund;
  }
  return driveRefund(rt, reserved.refund, log);
}

/** After a dispense failure or a late payment: the automatic refund right away, after the answer (the sweeper is the safety net). */
export function refundSoon(rt: PaymentRuntime, orderNo: string, log?: Log): void {
  const { ctx } = rt;
  rt.later(async () => {
    const order = await ctx.db.selectFrom('pay_order').select('orderId').where('orderNo', '=', orderNo).where('refundNeeded', '=', 1).executeTakeFirst();
    if (order) await autoRefund(rt, order.orderId, log);
  }, (error) => log?.error({ err: error, orderNo }, 'automatic refund failed (the sweeper tries again)'));
}
