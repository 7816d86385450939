import { randomUUID } from 'node:crypto';
import { randomHex } from '../../infra/random-hex.ts';
import { fenToYuan, fill, MachineStatus, messages, OrderStatus, TransType, type PayAlarmKind, type TerminalCreateOrder, type TerminalDispense, type TerminalOrderCreated, type TerminalOrderStatus } from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { AppError, isUniqueViolation } from '../../db/errors.ts';
import type { Database, Queryable } from '../../db/schema.ts';
import { sql, type Insertable, type Selectable } from 'kysely';
import { compiledOnce, compiledWrite } from '../../db/compiled-once.ts';
import { dialectOf } from '../../db/dialect.ts';
import { sharedTransaction, sharedWrite } from '../../db/shared-commit.ts';
import type { GatewayConfig, PaymentGateway } from '../gateway/gateway.ts';
import { gatewayConfigOf, GatewayVerifyError } from '../gateway/gateway.ts';
import type { PaymentRuntime } from './runtime.ts';
import { statusLabel, transition } from './state-machine.ts';
import { moveClock, orderMovedSince, orderMoveOrTimeout } from './status-waiters.ts';

// The order core (issue 16 §2): create, paid notification, dispense result, and settling an unpaid order
// (ask the gateway first). Every status change goes through state-machine.ts's guarded UPDATE.

const t = messages.terminal;
export const ORDER_TTL_MS = 5 * 60_000;

type Order = Selectable<Database['pay_order']>;
export type TerminalMachine = { machineId: number; machineNo: string; deptId: number; status: number };
export type Log = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

const refuse = (message: string, status = 400) => new AppError(message, status);

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
  .select(['c.id', 'c.gateway', 'c.partner', 'c.appid', 'c.partnerKey'])
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
const orderByNo = compiledOnce((db, v: { orderNo: string }) => db.selectFrom('pay_order').selectAll().where('orderNo', '=', v.orderNo));
const ownSaleOf = compiledOnce((db, v: { orderNo: string; machineNo: string }) => db
  .selectFrom('pay_order').selectAll().where('orderNo', '=', v.orderNo).where('machineNo', '=', v.machineNo).where('transType', '=', TransType.consume));
const takeOneFromAisle = compiledWrite((db, v: { aisleId: number; now: number }) => db
  .updateTable('pay_aisle').set((eb) => ({ stock: eb('stock', '-', 1), editTime: v.now })).where('aisleId', '=', v.aisleId).where('stock', '>', 0));

export function gatewayOf(rt: PaymentRuntime, config: GatewayConfig): PaymentGateway {
  const gateway = rt.gateways.get(config.gateway);
  if (!gateway) throw refuse(fill(t.gatewayUnknown, { gateway: config.gateway }));
  return gateway;
}

/** An alarm row (支付告警) about an order: it carries the order's company and terminal (the screen's data scope). */
/** 详情 of a notification that does not fit its order: what differs, in the operator's words. */
function mismatchDetail(field: 'orderNo' | 'amount' | 'mchId' | 'appId', paid: number, order: number): string {
  const a = messages.payAlarm;
  if (field === 'amount') return fill(a.detailNotifyAmount, { paid: fenToYuan(paid), order: fenToYuan(order) });
  return fill(a.detailNotifyField, { field: { orderNo: a.notifyFieldOrderNo, mchId: a.notifyFieldMchId, appId: a.notifyFieldAppId }[field] });
}

export async function recordAlarm(ctx: AppContext, log: Log | undefined, kind: PayAlarmKind, order: Pick<Order, 'orderNo' | 'deptId' | 'machineNo'>, detail: string): Promise<void> {
  const orderNo = order.orderNo;
  log?.warn({ alarm: kind, orderNo, detail }, `payment alarm: ${kind}`);
  await ctx.db.insertInto('pay_alarm').values({
    kind, orderNo: orderNo.slice(0, 64), deptId: order.deptId, machineNo: order.machineNo.slice(0, 32), detail: detail.slice(0, 500), createTime: ctx.now(),
  }).execute();
}

export function orderView(order: Order): TerminalOrderStatus {
  return {
    orderNo: order.orderNo, orderStatus: order.orderStatus, amount: fenToYuan(order.payAmount), payTime: order.payTime === null ? null : Number(order.payTime),
    expireAt: order.expireAt === null ? null : Number(order.expireAt), refundedAmount: fenToYuan(order.refundedAmount),
  };
}

/** Create an order for one aisle and pay type: checks, one insert (guarded by the one-active-order index), the QR. */
export async function createOrder(ctx: AppContext, rt: PaymentRuntime, machine: TerminalMachine, input: TerminalCreateOrder, origin: string, log?: Log): Promise<TerminalOrderCreated> {
  const db = ctx.db;
  const [aisle] = await aisleOf(db, { machineId: machine.machineId, aisleNo: input.aisleNo });
  if (!aisle) throw refuse(fill(t.aisleMissing, { aisleNo: input.aisleNo }));
  if (aisle.status !== MachineStatus.enabled) throw refuse(fill(t.aisleDisabled, { aisleNo: input.aisleNo }));
  if (aisle.stock <= 0) throw refuse(fill(t.aisleEmpty, { aisleNo: input.aisleNo }));
  if (aisle.price <= 0) throw refuse(fill(t.aisleNoPrice, { aisleNo: input.aisleNo }));
  const [tc] = await openPayConfigOf(db, { machineNo: machine.machineNo, payType: input.payType });
  if (!tc) throw refuse(t.noPayConfig);
  if (tc.id === null) throw refuse(t.payConfigMissing);
  const config: GatewayConfig = { id: tc.id, gateway: tc.gateway!, partner: tc.partner!, appid: tc.appid!, partnerKey: tc.partnerKey! };
  const gateway = gatewayOf(rt, config);

  // one order at a time: a paid order waits for its dispense result; an unpaid one is settled first
  const [active] = await activeOrderOf(db, { machineNo: machine.machineNo });
  if (active?.orderStatus === OrderStatus.paid) throw refuse(t.dispenseInProgress, 409);
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
  const payment = { orderNo, amount: aisle.price, subject: aisle.goodsName || aisle.aisleNo, expireAt, notifyUrl: `${origin}/gateway/${config.gateway}/notify` };
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
  const config = await gatewayConfigOf(ctx.db, order.configId);
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

/** refundOrderNo: the order the notification marked for an automatic refund (a payment after close). */
export type NotifyAnswer = { ok: boolean; message: string; refundOrderNo?: string };

/**
 * A paid notification: verified with the order's 支付配置, cross-checked (amount, merchant, app id, order
 * number), then 1/10 → 2 once; a repeat is acknowledged and changes nothing; a payment for a closed order
 * (5) is recorded for an automatic refund before it is acknowledged.
 */
export async function handlePaidNotification(ctx: AppContext, rt: PaymentRuntime, gatewayName: string, rawBody: string, headers: Record<string, string | string[] | undefined>, log?: Log): Promise<NotifyAnswer> {
  const gateway = rt.gateways.get(gatewayName);
  if (!gateway) return { ok: false, message: 'unknown gateway' };
  const orderNo = gateway.orderNoOf(rawBody);
  const order = orderNo ? (await orderByNo(ctx.db, { orderNo }))[0] : undefined;
  // Unsigned garbage (unknown order, bad signature) is logged, not stored: anyone can send it, and a
  // table filled by strangers helps no one. What a gateway signed and still does not fit is an alarm row.
  if (!order) {
    log?.warn({ alarm: 'unknownOrder', orderNo: orderNo?.slice(0, 64) }, 'payment alarm: notification for an unknown order');
    return { ok: false, message: t.notifyUnknownOrder };
  }
  const config = await gatewayConfigOf(ctx.db, order.configId);
  if (!config || config.gateway !== gatewayName) {
    await recordAlarm(ctx, log, 'configMismatch', order, fill(messages.payAlarm.detailConfig, { gateway: gatewayName, configId: order.configId }));
    return { ok: false, message: fill(t.notifyMismatch, { field: 'gateway' }) };
  }
  let paid;
  try {
    paid = await gateway.verifyNotification(config, rawBody, headers);
  } catch (error) {
    log?.warn({ alarm: 'badSignature', orderNo: order.orderNo, reason: error instanceof GatewayVerifyError ? error.message : 'unreadable notification' }, 'payment alarm: notification refused');
    return { ok: false, message: t.notifyBadSignature };
  }
  if ('closed' in paid) return { ok: true, message: 'closed: no payment, nothing changes' };
  const mismatch = paid.orderNo !== order.orderNo ? 'orderNo' : paid.amount !== order.payAmount ? 'amount' : paid.mchId !== config.partner ? 'mchId' : paid.appId !== config.appid ? 'appId' : undefined;
  if (mismatch) {
    await recordAlarm(ctx, log, 'notifyMismatch', order, mismatchDetail(mismatch, paid.amount, order.payAmount));
    return { ok: false, message: fill(t.notifyMismatch, { field: mismatch }) };
  }
  const moved = await sharedWrite(ctx.db, (db) => transition(db, order.orderId, 'paid', ctx.now(), { transId: paid.transId, payTime: paid.payTime }));
  if (moved.moved) return { ok: true, message: 'paid' };
  if (moved.status === OrderStatus.timedOut) {
    // jeepay's hole: never acknowledge a payment the order does not show. Record it, mark for refund.
    const recorded = await ctx.db.updateTable('pay_order').set({ transId: paid.transId, payTime: paid.payTime, refundNeeded: 1, updateTime: ctx.now() })
      .where('orderId', '=', order.orderId).where('orderStatus', '=', OrderStatus.timedOut).executeTakeFirst();
    if (Number(recorded.numUpdatedRows) !== 1) return { ok: false, message: 'retry' };
    if (order.refundNeeded !== 1) await recordAlarm(ctx, log, 'latePayment', order, fill(messages.payAlarm.detailLatePayment, { transId: paid.transId }));
    return { ok: true, message: 'recorded for refund', refundOrderNo: order.orderNo };
  }
  // already paid / dispensed / failed: a repeat, acknowledged, nothing changes
  return { ok: true, message: 'repeat' };
}

async function ownOrder(ctx: AppContext, machine: TerminalMachine, orderNo: string): Promise<Order> {
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
export async function orderStatus(ctx: AppContext, machine: TerminalMachine, orderNo: string, knownStatus?: number, waitSeconds = 0, closed = () => false): Promise<TerminalOrderStatus> {
  let since = moveClock();
  let order = await ownOrder(ctx, machine, orderNo);
  const until = Date.now() + Math.min(waitSeconds, 30) * 1000;
  while (knownStatus !== undefined && order.orderStatus === knownStatus && Date.now() < until && !closed()) {
    // a move between the read and this wait has already woken its polls: read again at once
    if (!orderMovedSince(order.orderId, since)) await orderMoveOrTimeout(order.orderId, Math.min(RECHECK_MS, until - Date.now()));
    since = moveClock();
    order = await ownOrder(ctx, machine, orderNo);
  }
  return orderView(order);
}

/**
 * The machine's dispense result, idempotent on orderNo: success → 3 with stock − 1 in the same
 * transaction (never below 0); failure → 4 and refundNeeded = 1. A repeat of the same result answers the
 * same; the opposite result for a reported order is refused.
 */
export async function reportDispense(ctx: AppContext, machine: TerminalMachine, input: TerminalDispense, log?: Log): Promise<TerminalOrderStatus> {
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

const markSeen = compiledWrite((db, v: { machineId: number; now: number }) => db.updateTable('pay_machine').set({ lastSeenAt: v.now }).where('machineId', '=', v.machineId));

const storeAisleStock = compiledWrite((db, v: { machineId: number; aisleNo: string; stock: number; now: number }) => db
  .updateTable('pay_aisle').set({ reportedStock: v.stock, reportedAt: v.now }).where('machineId', '=', v.machineId).where('aisleNo', '=', v.aisleNo));

/**
 * The stock a machine reports for its aisles; answers how many aisles were stored (an unknown aisle matches
 * no row). PostgreSQL: one statement for them all — one update an aisle was a round trip each, and a fleet
 * of 10,000 machines beating every 60 s with ~30 aisles sends ~5,000 a second (a beat of 30 aisles: 6.0 →
 * 0.85 ms, the server's CPU 2.9 → 0.35 ms). SQLite: one update an aisle, built once (~105 µs a beat of 30,
 * against ~250 built per aisle): in-process statements cost no round trip, and an UPDATE … FROM json_each
 * there took ~310 µs.
 */
async function storeReportedStock(db: Queryable, machineId: number, now: number, aisles: ReadonlyMap<string, number>): Promise<number> {
  if (dialectOf(db) === 'postgres') {
    const updated = await sql`update "pay_aisle" as a set "reportedStock" = j."stock", "reportedAt" = ${now}
      from unnest(${[...aisles.keys()]}::varchar[], ${[...aisles.values()]}::integer[]) as j("aisleNo", "stock")
      where a."machineId" = ${machineId} and a."aisleNo" = j."aisleNo"`.execute(db);
    return Number(updated.numAffectedRows ?? 0);
  }
  let stored = 0;
  for (const [aisleNo, stock] of aisles) stored += await storeAisleStock(db, { machineId, aisleNo, stock, now });
  return stored;
}

/** Heartbeat: lastSeenAt now, and the stock the machine reports per aisle (unknown aisles are skipped; an aisle named twice: its last stock). */
export async function heartbeat(ctx: AppContext, machine: TerminalMachine, aisles: { aisleNo: string; stock: number }[]): Promise<{ serverTime: number; aisles: number }> {
  const now = ctx.now();
  const reported = new Map(aisles.map((a) => [a.aisleNo, a.stock]));
  const stored = await sharedTransaction(ctx.db, async (trx) => {
    await markSeen(trx, { machineId: machine.machineId, now });
    return reported.size > 0 ? storeReportedStock(trx, machine.machineId, now, reported) : 0;
  });
  return { serverTime: now, aisles: stored };
}

export const newClaimToken = () => randomUUID();
