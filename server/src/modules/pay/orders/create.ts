import { randomHex } from '../../../infra/random-hex.ts';
import { fenToYuan, fill, MachineStatus, messages, OrderStatus, TransType, type TerminalCreateOrder, type TerminalOrderCreated } from '@huiyun/contract';
import { sql } from 'kysely';
import type { KnownMachine } from '../../../context.ts';
import { compiledOnce } from '../../../db/compiled-once.ts';
import { PoolBusyError } from '../../../db/connection-queue.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import { sharedWrite } from '../../../db/shared-commit.ts';
import { GatewayNotSentError, type PayAccount, type PaymentGateway, notifyUrlOf } from '../gateways/index.ts';
import { insertSaleOrder, type Sale } from './insert-sale.ts';
import { accountOf } from './pay-account.ts';
import { recordAlarm } from '../alarms/index.ts';
import type { Log, PaymentRuntime } from './runtime.ts';
import { transition } from './state-machine.ts';
import { refuse, type Order } from './status.ts';

// Creating an order, and settling an unpaid one (ask the gateway first), which a create does
// to the machine's previous order and the sweeper to expired ones. Every move goes through state-machine.ts.

const t = messages.terminal;
export const ORDER_TTL_MS = 5 * 60_000;
/** A create repeating the machine's unpaid order (same aisle and pay type) this soon after it is a double tap. */
export const DOUBLE_TAP_MS = 2_000;

export function newOrderNo(now: number): string {
  const d = new Date(now + 8 * 3_600_000).toISOString(); // Beijing time in the number
  return `T${d.slice(0, 19).replace(/\D/g, '')}${randomHex(5)}`;
}

// The statements of a purchase are built once (db/compiled-once.ts): building and compiling each anew was
// ~9 % of the server's CPU in the terminal bench (docs/performance.md "Terminal flow").
/**
 * What a create checks, in one read: the aisle; the machine's open 终端支付配置 of the pay type (tcId) with its
 * 支付配置 (configId); the machine's open sale, if any (active*). No row: no such aisle.
 */
export const saleContextOf = compiledOnce((db, v: { machineId: number; machineNo: string; aisleNo: string; payType: number }) => db
  .selectFrom('pay_aisle as a')
  .leftJoin('pay_terminal_config as tc', (j) => j.on('tc.machineNo', '=', v.machineNo).on('tc.payType', '=', v.payType).on('tc.payOpen', '=', 'T'))
  .leftJoin('pay_config as c', 'c.id', 'tc.configId')
  // written as the one-active-order index's own condition (literals, in its order), so both databases read that
  // partial index: with bound values SQLite walked all of the machine's orders (pay_order_machine_time)
  .leftJoin('pay_order as o', (j) => j.on('o.machineNo', '=', v.machineNo).on('o.transType', '=', sql.lit(TransType.consume))
    .on('o.orderStatus', 'in', [sql.lit(OrderStatus.created), sql.lit(OrderStatus.paid), sql.lit(OrderStatus.processing)]))
  .select(['a.aisleId', 'a.aisleNo', 'a.status', 'a.stock', 'a.price', 'a.goodsNo', 'a.goodsName', 'tc.tcId', 'c.id as configId',
    'o.orderId as activeId', 'o.orderStatus as activeStatus', 'o.aisleNo as activeAisleNo', 'o.payType as activePayType', 'o.createTime as activeCreateTime'])
  .where('a.machineId', '=', v.machineId).where('a.aisleNo', '=', v.aisleNo));
const orderById = compiledOnce((db, v: { orderId: number }) => db.selectFrom('pay_order').selectAll().where('orderId', '=', v.orderId));
export function gatewayOf(rt: PaymentRuntime, config: PayAccount): PaymentGateway<PayAccount> {
  const gateway = rt.gateways.get(config.gateway);
  if (!gateway) throw refuse(fill(t.gatewayUnknown, { gateway: config.gateway }));
  return gateway;
}

/** Create an order for one aisle and pay type: checks, one insert (guarded by the one-active-order index), the QR. */
export async function createOrder(rt: PaymentRuntime, machine: KnownMachine, input: TerminalCreateOrder, origin: string, log?: Log): Promise<TerminalOrderCreated> {
  const { ctx } = rt;
  const db = ctx.db;
  const [aisle] = await saleContextOf(db, { machineId: machine.machineId, machineNo: machine.machineNo, aisleNo: input.aisleNo, payType: input.payType });
  if (!aisle) throw refuse(fill(t.aisleMissing, { aisleNo: input.aisleNo }));
  if (aisle.status !== MachineStatus.enabled) throw refuse(fill(t.aisleDisabled, { aisleNo: input.aisleNo }));
  if (aisle.stock <= 0) throw refuse(fill(t.aisleEmpty, { aisleNo: input.aisleNo }));
  if (aisle.price <= 0) throw refuse(fill(t.aisleNoPrice, { aisleNo: input.aisleNo }));
  if (aisle.tcId === null) throw refuse(t.noPayConfig);
  if (aisle.configId === null) throw refuse(t.payConfigMissing);
  const config = await accountOf(rt, { orderNo: '', configId: aisle.configId }, log);
  if (!config) throw refuse(t.gatewayFailed, 502);
  const gateway = gatewayOf(rt, config);

  // one order at a time: a paid order waits for its dispense result; an unpaid one is settled first
  if (aisle.activeStatus === OrderStatus.paid) throw refuse(t.dispenseInProgress, 409);
  // a double tap (the same aisle and pay type again at once) would close the QR code just shown: refused
  if (aisle.activeId !== null && aisle.activeAisleNo === input.aisleNo && aisle.activePayType === input.payType && ctx.now() - Number(aisle.activeCreateTime) < DOUBLE_TAP_MS) {
    throw refuse(t.orderInProgress, 409);
  }
  const [active] = aisle.activeId === null ? [] : await orderById(db, { orderId: aisle.activeId });
  if (active) {
    let settled: number;
    try {
      settled = await settleUnpaid(rt, active, log);
    } catch (error) {
      // its 支付配置 cannot ask the gateway about it: it stays as it is (it may be paid there), and the machine waits
      if (error instanceof GatewayNotSentError) throw refuse(fill(t.payConfigKeyBroken, { label: messages.payConfig[error.field] }));
      throw error;
    }
    if (settled === OrderStatus.paid) throw refuse(t.dispenseInProgress, 409);
    if (settled !== OrderStatus.timedOut) throw refuse(t.orderInProgress, 409);
  }

  const now = ctx.now();
  const expireAt = now + ORDER_TTL_MS;
  const orderNo = newOrderNo(now);
  const sale: Sale = {
    deptId: machine.deptId, orderNo, payType: input.payType, transType: TransType.consume, machineNo: machine.machineNo, goodsNo: aisle.goodsNo, goodsName: aisle.goodsName,
    goodsPrice: aisle.price, payAmount: aisle.price, aisleNo: aisle.aisleNo, orderStatus: OrderStatus.created, mchId: config.partner,
    createTime: now, payTime: null, configId: config.id, aisleId: aisle.aisleId, expireAt, updateTime: now,
  };
  const payment = { orderNo, amount: aisle.price, subject: aisle.goodsName || aisle.aisleNo, expireAt, notifyUrl: notifyUrlOf(ctx.config.publicBaseUrl ?? origin, config.gateway, config.id, orderNo) };

  // the order is committed before the gateway is asked, so a crash in between leaves an order the sweeper
  // settles (asking the gateway)
  let orderId: number;
  try {
    orderId = await insertSaleOrder(db, sale);
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse(t.orderInProgress, 409);
    throw error;
  }
  let codeUrl: string;
  try {
    ({ codeUrl } = await gateway.createPayment(config, payment));
  } catch (error) {
    await transition(db, orderId, 'close', ctx.now(), { closeTime: ctx.now() });
    // this server's own database pool refused the call's bookkeeping (a gateway that keeps its books here: the
    // simulated platform): the server is busy, not the gateway — answered 503 like any other busy-pool refusal
    if (error instanceof PoolBusyError) throw error;
    // a key of the 支付配置 that does not load here: the operator's to fix, not the gateway's fault (nor a retry's)
    if (error instanceof GatewayNotSentError) {
      log?.warn({ orderNo, configId: config.id, reason: error.message }, 'createPayment not sent: a key of its 支付配置 does not load');
      throw refuse(fill(t.payConfigKeyBroken, { label: messages.payConfig[error.field] }));
    }
    log?.error({ err: error, orderNo }, 'gateway createPayment failed');
    throw refuse(t.gatewayFailed, 502);
  }
  await sharedWrite(db, (q) => transition(q, orderId, 'issueQr', ctx.now()));
  return { orderNo, codeUrl, amount: fenToYuan(aisle.price), expireAt };
}

/**
 * An unpaid order past its time (or superseded): ask the gateway first. Paid there → 已支付; otherwise
 * close it at the gateway, then → 订单超时. Answers the order's status afterwards.
 */
export async function settleUnpaid(rt: PaymentRuntime, order: Order, log?: Log): Promise<number> {
  const { ctx } = rt;
  const config = await accountOf(rt, order, log);
  const gateway = config && rt.gateways.get(config.gateway);
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

