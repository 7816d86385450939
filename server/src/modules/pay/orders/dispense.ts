import { fill, MachineStatus, messages, OrderStatus, TransType, type TerminalDispense, type TerminalOrderStatus } from '@huiyun/contract';
import type { AppContext, KnownMachine } from '../../../context.ts';
import { sql, type QueryCreator } from 'kysely';
import { compiledOnce, compiledWrite } from '../../../db/compiled-once.ts';
import { dialectOf } from '../../../db/dialect.ts';
import type { Database } from '../../../db/schema.ts';
import { sharedTransaction } from '../../../db/shared-commit.ts';
import { refundSoon } from './refund.ts';
import type { Log, PaymentRuntime } from './runtime.ts';
import { announceMoved, statusLabel, transition, transitions } from './state-machine.ts';
import { orderView, ownOrder, refuse } from './status.ts';

// The machine's dispense result (docs/terminal-protocol.md §4).

const t = messages.terminal;

const takeOneFromAisle = compiledWrite((db, v: { aisleId: number; now: number }) => db
  .updateTable('pay_aisle').set((eb) => ({ stock: eb('stock', '-', 1), editTime: v.now })).where('aisleId', '=', v.aisleId).where('stock', '>', 0));

type Dispensed = { orderNo: string; machineNo: string; now: number; message: string };
const rule = transitions.dispensed;
/** 已支付 → 出货成功 of the machine's own sale (the guard of state-machine.ts), answering the order. */
const toDispensed = (db: QueryCreator<Database>, v: Dispensed) => db.updateTable('pay_order')
  .set({ orderStatus: sql.lit(rule.to), dispenseTime: v.now, dispenseMessage: v.message, updateTime: v.now })
  .where('orderNo', '=', v.orderNo).where('machineNo', '=', v.machineNo).where('transType', '=', sql.lit(TransType.consume))
  .where('orderStatus', 'in', rule.from.map((status) => sql.lit(status)))
  .returningAll();
const dispensedOrder = compiledOnce(toDispensed);
/** PostgreSQL: the move and the stock − 1 (never below 0) in ONE statement; `taken` 0 when the aisle was already empty. */
const dispensedWithStock = compiledOnce((db, v: Dispensed) => db
  .with('moved', (qc) => toDispensed(qc, v))
  .with('taken', (qc) => qc.updateTable('pay_aisle').set((eb) => ({ stock: eb('stock', '-', 1), editTime: v.now }))
    .where('aisleId', '=', (eb) => eb.selectFrom('moved').select('moved.aisleId')).where('stock', '>', 0).returning('aisleId'))
  .selectFrom('moved').selectAll('moved').select((eb) => eb.selectFrom('taken').select((e) => e.fn.countAll<number>().as('n')).as('taken')));

/**
 * A success reported for an order at 已支付 (every purchase's case): 已支付 → 出货成功 and the stock − 1, one
 * statement on PostgreSQL, one shared transaction on SQLite. Undefined when the order was not at 已支付
 * (the caller then reads it to say why or to answer a repeat).
 */
async function dispensePaid(ctx: AppContext, machine: KnownMachine, input: TerminalDispense, log?: Log): Promise<TerminalOrderStatus | undefined> {
  const v = { orderNo: input.orderNo, machineNo: machine.machineNo, now: ctx.now(), message: (input.message ?? '').slice(0, 255) };
  const [order] = dialectOf(ctx.db) === 'postgres'
    ? await dispensedWithStock(ctx.db, v)
    : await sharedTransaction(ctx.db, async (trx) => {
      const [row] = await dispensedOrder(trx, v);
      return row ? [{ ...row, taken: await takeOneFromAisle(trx, { aisleId: row.aisleId, now: v.now }) }] : [];
    });
  if (!order) return undefined;
  announceMoved(order.orderId, 'dispensed');
  if (Number(order.taken) !== 1) log?.warn({ orderNo: order.orderNo, aisleNo: order.aisleNo }, t.stockAlreadyZero);
  return orderView(order);
}

/**
 * The machine's dispense result, idempotent on orderNo: success → 3 with stock − 1 in the same
 * transaction (never below 0); failure → 4 and refundNeeded = 1. A repeat of the same result answers the
 * same; the opposite result for a reported order is refused.
 */
export async function reportDispense(rt: PaymentRuntime, machine: KnownMachine, input: TerminalDispense, log?: Log): Promise<TerminalOrderStatus> {
  const { ctx } = rt;
  const result = await recordDispense(ctx, machine, input, log);
  // a failed dispense is refunded in full at once, after the answer (the sweeper is the safety net)
  if (result.orderStatus === OrderStatus.dispenseFailed) refundSoon(rt, result.orderNo, log);
  return result;
}

async function recordDispense(ctx: AppContext, machine: KnownMachine, input: TerminalDispense, log?: Log): Promise<TerminalOrderStatus> {
  if (input.success && input.aisleStatus !== MachineStatus.disabled) {
    const dispensed = await dispensePaid(ctx, machine, input, log);
    if (dispensed) return dispensed;
  }
  // a failure, an aisle to disable, or an order not at 已支付 (a repeat, a conflict, not paid): read it first
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

