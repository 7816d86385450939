import { fill, MachineStatus, messages, OrderStatus, type TerminalDispense, type TerminalOrderStatus } from '@huiyun/contract';
import type { AppContext, KnownMachine } from '../../context.ts';
import { compiledWrite } from '../../db/compiled-once.ts';
import { sharedTransaction } from '../../db/shared-commit.ts';
import type { Log } from './runtime.ts';
import { statusLabel, transition } from './state-machine.ts';
import { orderView, ownOrder, refuse } from './status.ts';

// The machine's dispense result (issue 16 §2, docs/terminal-protocol.md §4).

const t = messages.terminal;

const takeOneFromAisle = compiledWrite((db, v: { aisleId: number; now: number }) => db
  .updateTable('pay_aisle').set((eb) => ({ stock: eb('stock', '-', 1), editTime: v.now })).where('aisleId', '=', v.aisleId).where('stock', '>', 0));

/**
 * The machine's dispense result, idempotent on orderNo: success → 3 with stock − 1 in the same
 * transaction (never below 0); failure → 4 and refundNeeded = 1. A repeat of the same result answers the
 * same; the opposite result for a reported order is refused.
 */
export async function reportDispense(ctx: AppContext, machine: KnownMachine, input: TerminalDispense, log?: Log): Promise<TerminalOrderStatus> {
  const order = await ownOrder(ctx, machine, input.orderNo);
  const wanted = input.success ? OrderStatus.dispensed : OrderStatus.dispenseFailed;
  if (order.orderStatus === wanted) return orderView(order);
  if (order.orderStatus === OrderStatus.dispensed || order.orderStatus === OrderStatus.dispenseFailed) throw refuse(fill(t.dispenseConflict, { status: statusLabel(order.orderStatus) }), 409);
  if (order.orderStatus !== OrderStatus.paid) throw refuse(fill(t.dispenseNotPaid, { status: statusLabel(order.orderStatus) }), 409);
  const now = ctx.now();
  const message = (input.message ?? '').slice(0, 255);
  const result = await sharedTransaction(ctx.db, async (trx) => {
    const moved = input.success
      ? await transition(trx, order.orderId, 'dispensed', now, { dispenseTime: now, dispenseMessage: message })
      : await transition(trx, order.orderId, 'dispenseFailed', now, { dispenseTime: now, dispenseMessage: message, refundNeeded: 1 });
    if (!moved.moved) return moved;
    if (input.success) {
      const taken = await takeOneFromAisle(trx, { aisleId: order.aisleId, now });
      if (taken !== 1) log?.warn({ orderNo: order.orderNo, aisleNo: order.aisleNo }, t.stockAlreadyZero);
    }
    if (input.aisleStatus === MachineStatus.disabled) {
      await trx.updateTable('pay_aisle').set({ status: MachineStatus.disabled, editTime: now, editUser: 'terminal' }).where('aisleId', '=', order.aisleId).execute();
    }
    return moved;
  });
  if (result.moved) return orderView({ ...order, orderStatus: wanted });
  // another report of the same order won the race: the same result answers as a repeat
  const after = await ownOrder(ctx, machine, input.orderNo);
  if (after.orderStatus !== wanted) throw refuse(result.reason, 409);
  return orderView(after);
}

