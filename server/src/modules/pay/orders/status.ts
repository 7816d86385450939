import { fenToYuan, messages, TransType, type TerminalOrderStatus } from '@huiyun/contract';
import type { Selectable } from 'kysely';
import type { AppContext, KnownMachine } from '../../../context.ts';
import { compiledOnce } from '../../../db/compiled-once.ts';
import { AppError } from '../../../db/errors.ts';
import type { Database } from '../../../db/schema.ts';
import { draining, onDrain } from '../../../http/drain.ts';
import { moveClock, orderMovedSince, orderMoveOrTimeout } from './status-waiters.ts';

// A machine's view of its own orders: the answer it gets, and order/status (a long poll).

const t = messages.terminal;
export type Order = Selectable<Database['pay_order']>;

/** A refusal of a terminal call: its message, and 400 unless said otherwise. */
export const refuse = (message: string, status = 400) => new AppError(message, status);

const ownSaleOf = compiledOnce((db, v: { orderNo: string; machineNo: string }) => db
  .selectFrom('pay_order').selectAll().where('orderNo', '=', v.orderNo).where('machineNo', '=', v.machineNo).where('transType', '=', TransType.consume));

export function orderView(order: Order): TerminalOrderStatus {
  return {
    orderNo: order.orderNo, orderStatus: order.orderStatus, amount: fenToYuan(order.payAmount), payTime: order.payTime === null ? null : Number(order.payTime),
    expireAt: order.expireAt === null ? null : Number(order.expireAt), refundedAmount: fenToYuan(order.refundedAmount),
  };
}

export async function ownOrder(ctx: AppContext, machine: KnownMachine, orderNo: string): Promise<Order> {
  const [order] = await ownSaleOf(ctx.db, { orderNo, machineNo: machine.machineNo });
  if (!order) throw refuse(t.orderMissing, 404);
  return order;
}

/**
 * Without a wake, a long poll reads its order this often: a safety net. Every move made in this
 * process wakes its polls; one made in another instance (REDIS_URL) wakes them when its announcement
 * arrives (order/move-relay.ts), and an announcement lost on the way leaves them to this read. It was
 * every second with REDIS_URL before moves were announced; under overload, when notifications come
 * late, each waiting machine's read every second was most of a purchase's CPU (docs/performance.md
 * "Terminal flow").
 */
export const RECHECK_MS = 5_000;

/** The status of an own order; waits up to waitSeconds for it to differ from knownStatus. */
export async function orderStatus(ctx: AppContext, machine: KnownMachine, orderNo: string, knownStatus?: number, waitSeconds = 0, closed = () => false): Promise<TerminalOrderStatus> {
  let since = moveClock();
  let order = await ownOrder(ctx, machine, orderNo);
  const until = Date.now() + Math.min(waitSeconds, 30) * 1000;
  if (knownStatus === undefined || Date.now() >= until) return orderView(order);
  // a stopping instance (http/drain.ts) answers its long polls at once, with the status as it is
  let wake = () => {};
  const drainStart = new Promise<void>((resolve) => void (wake = resolve));
  const unsubscribe = onDrain(() => wake());
  try {
    while (order.orderStatus === knownStatus && Date.now() < until && !closed() && !draining()) {
      // a move between the read and this wait has already woken its polls: read again at once
      if (!orderMovedSince(order.orderId, since)) await Promise.race([orderMoveOrTimeout(order.orderId, Math.min(RECHECK_MS, until - Date.now())), drainStart]);
      since = moveClock();
      order = await ownOrder(ctx, machine, orderNo);
    }
  } finally {
    unsubscribe();
  }
  return orderView(order);
}

