import { randomHex } from '../../infra/random-hex.ts';
import { fenToYuan, fill, MachineStatus, messages, OrderStatus, TransType, type TerminalCreateOrder, type TerminalOrderCreated } from '@huiyun/contract';
import { sql, type Insertable } from 'kysely';
import type { AppContext, KnownMachine } from '../../context.ts';
import { compiledOnce } from '../../db/compiled-once.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Database, Queryable } from '../../db/schema.ts';
import { sharedTransaction } from '../../db/shared-commit.ts';
import type { PayAccount, PaymentGateway } from '../gateway/gateway.ts';
import { notifyUrlOf } from '../gateway/notify-paths.ts';
import { accountOf } from './pay-account.ts';
import { recordAlarm } from '../pay-alarm/record.ts';
import type { Log, PaymentRuntime } from './runtime.ts';
import { transition } from './state-machine.ts';
import { refuse, type Order } from './status.ts';

// Creating an order (issue 16 §2), and settling an unpaid one (ask the gateway first), which a create does
// to the machine's previous order and the sweeper to expired ones. Every move goes through state-machine.ts.

const t = messages.terminal;
export const ORDER_TTL_MS = 5 * 60_000;
/** A create repeating the machine's unpaid order (same aisle and pay type) this soon after it is a double tap (issue 30). */
export const DOUBLE_TAP_MS = 2_000;

export function newOrderNo(now: number): string {
  const d = new Date(now + 8 * 3_600_000).toISOString(); // Beijing time in the number
  return `T${d.slice(0, 19).replace(/\D/g, '')}${randomHex(5)}`;
}

// The statements of a purchase are built once (db/compiled-once.ts): building and compiling each anew was
// ~9 % of the server's CPU in the terminal bench (docs/performance.md "Terminal flow").
const aisleOf = compiledOnce((db, v: { machineId: number; aisleNo: string }) => db.selectFrom('pay_aisle').selectAll().where('machineId', '=', v.machineId).where('aisleNo', '=', v.aisleNo));
/** The 终端支付配置 of a machine and pay type, with its 支付配置, in one read. */
const openPayConfigOf = compiledOnce((db, v: { machineNo: string; payType: number }) => db
  .selectFrom('pay_terminal_config as tc').leftJoin('pay_config as c', 'c.id', 'tc.configId')
  .select(['c.id'])
  .where('tc.machineNo', '=', v.machineNo).where('tc.payType', '=', v.payType).where('tc.payOpen', '=', 'T'));
// written as the one-active-order index's own condition (literals, in its order), so both databases read that
// partial index: with bound values SQLite walked all of the machine's orders (pay_order_machine_time)
const activeOrderOf = compiledOnce((db, v: { machineNo: string }) => db
  .selectFrom('pay_order').selectAll().where('machineNo', '=', v.machineNo).where('transType', '=', sql.lit(TransType.consume))
  .where('orderStatus', 'in', [sql.lit(OrderStatus.created), sql.lit(OrderStatus.paid), sql.lit(OrderStatus.processing)]));
const insertSale = compiledOnce((db, v: Insertable<Database['pay_order']>) => db.insertInto('pay_order').values({
  deptId: v.deptId, orderNo: v.orderNo, payType: v.payType, transType: v.transType, machineNo: v.machineNo, goodsNo: v.goodsNo, goodsName: v.goodsName,
  goodsPrice: v.goodsPrice, payAmount: v.payAmount, aisleNo: v.aisleNo, orderStatus: v.orderStatus, mchId: v.mchId,
  createTime: v.createTime, payTime: v.payTime, configId: v.configId, aisleId: v.aisleId, expireAt: v.expireAt, updateTime: v.updateTime,
}).returning('orderId'));
export function gatewayOf(rt: PaymentRuntime, config: PayAccount): PaymentGateway<PayAccount> {
  const gateway = rt.gateways.get(config.gateway);
  if (!gateway) throw refuse(fill(t.gatewayUnknown, { gateway: config.gateway }));
  return gateway as PaymentGateway<PayAccount>;
}

/** Create an order for one aisle and pay type: checks, one insert (guarded by the one-active-order index), the QR. */
export async function createOrder(ctx: AppContext, rt: PaymentRuntime, machine: KnownMachine, input: TerminalCreateOrder, origin: string, log?: Log): Promise<TerminalOrderCreated> {
  const db = ctx.db;
  const [aisle] = await aisleOf(db, { machineId: machine.machineId, aisleNo: input.aisleNo });
  if (!aisle) throw refuse(fill(t.aisleMissing, { aisleNo: input.aisleNo }));
  if (aisle.status !== MachineStatus.enabled) throw refuse(fill(t.aisleDisabled, { aisleNo: input.aisleNo }));
  if (aisle.stock <= 0) throw refuse(fill(t.aisleEmpty, { aisleNo: input.aisleNo }));
  if (aisle.price <= 0) throw refuse(fill(t.aisleNoPrice, { aisleNo: input.aisleNo }));
  const [tc] = await openPayConfigOf(db, { machineNo: machine.machineNo, payType: input.payType });
  if (!tc) throw refuse(t.noPayConfig);
  if (tc.id === null) throw refuse(t.payConfigMissing);
  const config = await accountOf(ctx, rt, { orderNo: '', configId: tc.id }, log);
  if (!config) throw refuse(t.gatewayFailed, 502);
  const gateway = gatewayOf(rt, config);

  // one order at a time: a paid order waits for its dispense result; an unpaid one is settled first
  const [active] = await activeOrderOf(db, { machineNo: machine.machineNo });
  if (active?.orderStatus === OrderStatus.paid) throw refuse(t.dispenseInProgress, 409);
  // a double tap (the same aisle and pay type again at once) would close the QR code just shown: refused
  if (active && active.aisleNo === input.aisleNo && active.payType === input.payType && ctx.now() - Number(active.createTime) < DOUBLE_TAP_MS) throw refuse(t.orderInProgress, 409);
  if (active) {
    const settled = await settleUnpaid(ctx, rt, active, log);
    if (settled === OrderStatus.paid) throw refuse(t.dispenseInProgress, 409);
    if (settled !== OrderStatus.timedOut) throw refuse(t.orderInProgress, 409);
  }

  const now = ctx.now();
  const expireAt = now + ORDER_TTL_MS;
  const orderNo = newOrderNo(now);
  const insertOrder = async (q: Queryable) => (await insertSale(q, {
    deptId: machine.deptId, orderNo, payType: input.payType, transType: TransType.consume, machineNo: machine.machineNo, goodsNo: aisle.goodsNo, goodsName: aisle.goodsName,
    goodsPrice: aisle.price, payAmount: aisle.price, aisleNo: aisle.aisleNo, orderStatus: OrderStatus.created, mchId: config.partner,
    createTime: now, payTime: null, configId: config.id, aisleId: aisle.aisleId, expireAt, updateTime: now,
  }))[0]!.orderId;
  const payment = { orderNo, amount: aisle.price, subject: aisle.goodsName || aisle.aisleNo, expireAt, notifyUrl: notifyUrlOf(ctx.config.publicBaseUrl ?? origin, config.gateway, orderNo) };
  const created = (codeUrl: string): TerminalOrderCreated => ({ orderNo, codeUrl, amount: fenToYuan(aisle.price), expireAt });

  if (gateway.createPaymentIn) {
    // A gateway with its books in this database (the simulator): the order, its payment and → 10 in
    // one transaction, all or nothing, sharing its commit with the others of the moment (db/shared-commit.ts).
    const createIn = gateway.createPaymentIn.bind(gateway);
    try {
      return await sharedTransaction(db, async (trx) => {
        const orderId = await insertOrder(trx);
        const { codeUrl } = await createIn(trx, config, payment);
        await transition(trx, orderId, 'issueQr', now);
        return created(codeUrl);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw refuse(t.orderInProgress, 409);
      throw error;
    }
  }

  // A gateway elsewhere: the order is committed before it is asked, so a crash in between leaves an
  // order the sweeper settles (asking the gateway).
  let orderId: number;
  try {
    orderId = await insertOrder(db);
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse(t.orderInProgress, 409);
    throw error;
  }
  let codeUrl: string;
  try {
    ({ codeUrl } = await gateway.createPayment(config, payment));
  } catch (error) {
    log?.error({ err: error, orderNo }, 'gateway createPayment failed');
    await transition(db, orderId, 'close', ctx.now(), { closeTime: ctx.now() });
    throw refuse(t.gatewayFailed, 502);
  }
  await transition(db, orderId, 'issueQr', ctx.now());
  return created(codeUrl);
}

/**
 * An unpaid order past its time (or superseded): ask the gateway first. Paid there → 已支付; otherwise
 * close it at the gateway, then → 订单超时. Answers the order's status afterwards.
 */
export async function settleUnpaid(ctx: AppContext, rt: PaymentRuntime, order: Order, log?: Log): Promise<number> {
  const config = await accountOf(ctx, rt, order, log);
  const gateway = config && (rt.gateways.get(config.gateway) as PaymentGateway<PayAccount> | undefined);
  let state = gateway && config ? await gateway.query(config, order.orderNo) : ({ state: 'unknown' } as const);
  if (gateway && config && state.state !== 'paid') state = await gateway.close(config, order.orderNo);
  if (state.state === 'paid') {
    if (state.amount !== order.payAmount) {
      await recordAlarm(ctx, log, 'amountMismatch', order, fill(messages.payAlarm.detailQueryAmount, { paid: fenToYuan(state.amount), order: fenToYuan(order.payAmount) }));
    } else {
      await transition(ctx.db, order.orderId, 'paid', ctx.now(), { transId: state.transId, payTime: state.payTime });
    }
  } else {
    await transition(ctx.db, order.orderId, 'close', ctx.now(), { closeTime: ctx.now() });
  }
  const row = await ctx.db.selectFrom('pay_order').select('orderStatus').where('orderId', '=', order.orderId).executeTakeFirstOrThrow();
  return row.orderStatus;
}

