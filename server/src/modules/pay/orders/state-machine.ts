import { fill, messages, OrderStatus, orderStatusOptions } from '@huiyun/contract';
import { compiledOnce, compiledWrite } from '../../../db/compiled-once.ts';
import type { Database, Queryable } from '../../../db/schema.ts';
import { sql, type Updateable } from 'kysely';
import { orderMoved } from './status-waiters.ts';

// The order state machine (SPEC §3 statuses):
//   a sale:    1 初始化 → 10 处理中 (QR issued) → 2 已支付 → 3 出货成功 | 4 出货失败;   1/10 → 5 订单超时;
//              5 → 5 markLatePayment (a payment after close, recorded for the automatic refund);
//   a refund:  11 退款初始化 → 12 退款中 → 13 退款成功 | 14 退款失败 (its own row, refund.ts).
// Every transition is ONE guarded statement: UPDATE pay_order … WHERE orderId = ? AND orderStatus IN
// (<allowed from>); it moved iff one row was affected. A refused event changes nothing and says why.

export type OrderEvent = 'issueQr' | 'paid' | 'dispensed' | 'dispenseFailed' | 'close' | 'markLatePayment' | 'startRefund' | 'refundSucceeded' | 'refundFailed';

export const transitions: Record<OrderEvent, { from: readonly number[]; to: number }> = {
  issueQr: { from: [OrderStatus.created], to: OrderStatus.processing },
  paid: { from: [OrderStatus.created, OrderStatus.processing], to: OrderStatus.paid },
  dispensed: { from: [OrderStatus.paid], to: OrderStatus.dispensed },
  dispenseFailed: { from: [OrderStatus.paid], to: OrderStatus.dispenseFailed },
  close: { from: [OrderStatus.created, OrderStatus.processing], to: OrderStatus.timedOut },
  markLatePayment: { from: [OrderStatus.timedOut], to: OrderStatus.timedOut },
  startRefund: { from: [OrderStatus.refundCreated], to: OrderStatus.refunding },
  refundSucceeded: { from: [OrderStatus.refunding], to: OrderStatus.refunded },
  refundFailed: { from: [OrderStatus.refunding], to: OrderStatus.refundFailed },
};

/**
 * The moves a machine's long poll waits for (it polls an issued order until paid or closed,
 * docs/terminal-protocol.md §3): these are announced to other server instances too (order/move-relay.ts).
 * The others wake this process's polls only; a poll elsewhere sees them at its next read.
 */
const awaitedByMachines: ReadonlySet<OrderEvent> = new Set(['paid', 'close']);

export const saleStatuses = [OrderStatus.created, OrderStatus.processing, OrderStatus.paid, OrderStatus.dispensed, OrderStatus.dispenseFailed, OrderStatus.timedOut];
export const refundStatuses = [OrderStatus.refundCreated, OrderStatus.refunding, OrderStatus.refunded, OrderStatus.refundFailed];

export const statusLabel = (status: number) => orderStatusOptions.find((o) => o.value === status)?.label ?? String(status);

export function refusal(status: number, event: OrderEvent): string {
  return fill(messages.terminal.transitionRefused, { status: statusLabel(status), event: messages.terminal.events[event] });
}

export type TransitionResult = { moved: true; to: number } | { moved: false; status: number | undefined; reason: string };

/**
 * Applies one event to one order with one guarded UPDATE (plus the columns the event sets). When it did
 * not move, reads the status to say why. Side effects that must go with the move (stock − 1) are the
 * caller's, in the same transaction, only when moved.
 */
export async function transition(db: Queryable, orderId: number, event: OrderEvent, now: number, set: Updateable<Database['pay_order']> = {}): Promise<TransitionResult> {
  const rule = transitions[event];
  const given = Object.fromEntries(Object.entries(set).filter(([, value]) => value !== undefined)); // an undefined column is not set
  const changed = await transitionStatement(event, Object.keys(given).sort())(db, { ...given, orderId, updateTime: now });
  if (changed === 1) {
    announceMoved(orderId, event);
    return { moved: true, to: rule.to };
  }
  const [row] = await orderStatusOf(db, { orderId });
  return { moved: false, status: row?.orderStatus, reason: row ? refusal(row.orderStatus, event) : messages.terminal.orderMissing };
}

/**
 * For a statement that makes `event`'s move as a part of a larger one (its guard: `transitions[event].from`
 * in its WHERE): tells the waiting polls, as transition() does, once the order moved.
 */
export function announceMoved(orderId: number, event: OrderEvent): void {
  orderMoved(orderId, { announce: awaitedByMachines.has(event) });
}

type TransitionValues = Record<string, unknown> & { orderId: number; updateTime: number };
const transitionStatements = new Map<string, (db: Queryable, values: TransitionValues) => Promise<number>>();

/** The guarded UPDATE of an event that also sets `columns` (built once per event and columns: the callers' few combinations). */
function transitionStatement(event: OrderEvent, columns: readonly string[]) {
  const key = `${event} ${columns.join(' ')}`;
  let statement = transitionStatements.get(key);
  if (!statement) {
    const rule = transitions[event];
    statement = compiledWrite((db, v: TransitionValues) => db
      .updateTable('pay_order')
      .set({ ...Object.fromEntries(columns.map((column) => [column, v[column]])), orderStatus: rule.to, updateTime: v.updateTime })
      .where('orderId', '=', v.orderId)
      // the statuses as literals: one text per event, so PostgreSQL keeps it prepared (pg-prepared.ts names no `in ($1, $2)`)
      .where('orderStatus', 'in', rule.from.map((status) => sql.lit(status))));
    transitionStatements.set(key, statement);
  }
  return statement;
}

/**
 * 'paid' for the order numbered `orderNo`, in one guarded statement that also holds it to what the
 * notification says — its 支付配置 and its amount: answers the order's id when it moved, undefined when it did
 * not (a repeat, a payment after close, a mismatch, no such order: the caller reads the order to say which).
 */
export async function payByNumber(db: Queryable, v: { orderNo: string; configId: number; payAmount: number; transId: string; payTime: number; now: number }): Promise<number | undefined> {
  const [row] = await payByNumberStatement(db, { orderNo: v.orderNo, configId: v.configId, payAmount: v.payAmount, transId: v.transId, payTime: v.payTime, updateTime: v.now });
  if (row) announceMoved(row.orderId, 'paid');
  return row?.orderId;
}

const payByNumberStatement = compiledOnce((db, v: { orderNo: string; configId: number; payAmount: number; transId: string; payTime: number; updateTime: number }) => db
  .updateTable('pay_order')
  .set({ transId: v.transId, payTime: v.payTime, orderStatus: transitions.paid.to, updateTime: v.updateTime })
  .where('orderNo', '=', v.orderNo).where('configId', '=', v.configId).where('payAmount', '=', v.payAmount)
  .where('orderStatus', 'in', transitions.paid.from.map((status) => sql.lit(status)))
  .returning('orderId'));

const orderStatusOf = compiledOnce((db, v: { orderId: number }) => db.selectFrom('pay_order').select('orderStatus').where('orderId', '=', v.orderId));
