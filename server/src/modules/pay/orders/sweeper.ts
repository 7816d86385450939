import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import { messages, OrderStatus, TransType } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Database } from '../../../db/schema.ts';
import { timedJobRun } from '../../../db/job-runs.ts';
import { GatewayNotSentError } from '../gateways/index.ts';
import type { Log, PaymentRuntime } from './runtime.ts';
import { autoRefund, driveRefund } from './refund.ts';
import { settleUnpaid } from './create.ts';
import { transition } from './state-machine.ts';

// The order sweeper: unpaid orders (1 初始化 / 10 处理中) past expireAt are settled — the
// gateway is asked first (paid there → 已支付; else closed there → 订单超时). Several server instances may
// run it: a sweep claims its rows with a lease (claimBy/claimUntil) in one guarded UPDATE, so a row is
// handled by one sweep; a sweep that dies leaves its lease to run out and the row is claimed again.
// It also sweeps the terminal protocol's spent nonces, and refunds (refund.ts): orders marked
// refundNeeded get their automatic refund, and refunds left in 11/12 by a crash or a gateway that did
// not answer are asked about again (claimed the same way; an unanswered one waits for its lease).

/**
 * How long a sweep's lease lasts, and how long a refund in 11/12 is left to its request before the sweeper
 * takes it over: PAY_RECOVER_SECONDS (default 60).
 */
const recoverMsOf = (ctx: AppContext) => ctx.config.pay.recoverMs;

type Claim = { statuses: readonly number[]; due: 'expireAt' | 'updateTime'; before: number; limit: number };

/**
 * Leases up to `limit` rows in `statuses` whose `due` time is before `before` and whose lease is free, in
 * one guarded UPDATE (two sweeps never take the same row), and answers them.
 */
async function claimRows(ctx: AppContext, token: string, claim: Claim) {
  const now = ctx.now();
  // Both claims read (orderStatus, createTime, orderId): the statuses' ranges hold only the rows in them — the
  // unpaid orders (at most one a machine), the refunds under way (migration 0021). The statuses as
  // literals, so each claim is one prepared statement on PostgreSQL (pg-prepared.ts sends `in ($1, $2)` unnamed).
  const statuses = sql.join(claim.statuses.map((status) => sql.lit(status)));
  const due = sql`select "orderId" from pay_order where "orderStatus" in (${statuses}) and ${sql.ref(claim.due)} < ${claim.before}
    and ("claimUntil" is null or "claimUntil" < ${now}) order by ${sql.ref(claim.due)} limit ${claim.limit}`;
  // the claimed rows come back from the UPDATE itself: nothing indexes claimBy, and reading them by it scanned
  // the whole table (SQLite, 1,000,000 orders: 203 ms, on the server's thread, every sweep that claimed a row)
  const claimed = await sql<Selectable<Database['pay_order']>>`update pay_order set "claimBy" = ${token}, "claimUntil" = ${now + recoverMsOf(ctx)}
    where "orderId" in (${due}) and "orderStatus" in (${statuses}) and ("claimUntil" is null or "claimUntil" < ${now}) returning *`.execute(ctx.db);
  return claimed.rows;
}

/** Unpaid orders (1 初始化 / 10 处理中) past their expireAt. */
export const claimExpired = (ctx: AppContext, token: string, limit = 100) =>
  claimRows(ctx, token, { statuses: [OrderStatus.created, OrderStatus.processing], due: 'expireAt', before: ctx.now(), limit });

/** Refunds in 11/12 whose last change is older than PAY_RECOVER_SECONDS. */
export const claimStuckRefunds = (ctx: AppContext, token: string, limit = 100) =>
  claimRows(ctx, token, { statuses: [OrderStatus.refundCreated, OrderStatus.refunding], due: 'updateTime', before: ctx.now() - recoverMsOf(ctx), limit });

/**
 * Paid orders whose machine never reported the dispense within PAY_DISPENSE_TIMEOUT_SECONDS (it died,
 * or lost the order) count as 出货失败 and are marked for the automatic refund: the customer gets the
 * money back and the machine can sell again (one order at a time). A report arriving later is refused
 * (409 订单已上报为出货失败). Each move is the state machine's guarded UPDATE, so a report racing it wins or
 * loses cleanly.
 */
export async function failStaleDispenses(ctx: AppContext, limit = 100): Promise<number> {
  const now = ctx.now();
  const stale = await ctx.db.selectFrom('pay_order').select('orderId')
    .where('orderStatus', '=', sql.lit(OrderStatus.paid)).where('transType', '=', sql.lit(TransType.consume)).where('payTime', '<', now - ctx.config.pay.dispenseTimeoutMs)
    .orderBy('orderId').limit(limit).execute();
  let failed = 0;
  for (const { orderId } of stale) {
    const moved = await transition(ctx.db, orderId, 'dispenseFailed', now, { dispenseTime: now, dispenseMessage: messages.terminal.dispenseTimedOut, refundNeeded: 1 });
    if (moved.moved) failed++;
  }
  return failed;
}

export type SweepOptions = { limit?: number; log?: Log };

/** Automatic refunds of marked orders, then the stuck refunds this sweep claimed. */
export async function sweepRefunds(rt: PaymentRuntime, options: SweepOptions = {}) {
  const { ctx } = rt;
  const counts = { autoRefunds: 0, refundsClaimed: 0, refundsSettled: 0, refundsFailed: 0 };
  // refundNeeded = 1 as a literal: its partial index's condition (0015)
  const marked = await ctx.db.selectFrom('pay_order').select('orderId').where('refundNeeded', '=', sql.lit(1)).orderBy('orderId').limit(options.limit ?? 100).execute();
  for (const { orderId } of marked) {
    try {
      if (await autoRefund(rt, orderId, options.log)) counts.autoRefunds++;
    } catch (error) {
      counts.refundsFailed++;
      options.log?.error({ err: error, orderId }, 'automatic refund failed (tried again next sweep)');
    }
  }
  const stuck = await claimStuckRefunds(ctx, randomUUID(), options.limit);
  counts.refundsClaimed = stuck.length;
  for (const refund of stuck) {
    try {
      const after = await driveRefund(rt, refund, options.log);
      if (after.orderStatus === OrderStatus.refunded || after.orderStatus === OrderStatus.refundFailed) counts.refundsSettled++;
    } catch (error) {
      counts.refundsFailed++;
      options.log?.error({ err: error, refundNo: refund.orderNo }, 'refund sweep: asking the gateway failed (tried again when the lease runs out)');
    }
  }
  return counts;
}

/** One sweep: claim, settle each claimed order, release. Answers what happened. */
export async function sweepOrders(rt: PaymentRuntime, options: SweepOptions = {}) {
  const { ctx } = rt;
  const token = randomUUID();
  const counts = { claimed: 0, paid: 0, closed: 0, failed: 0, nonces: 0, dispenseTimeouts: 0 };
  const expired = await claimExpired(ctx, token, options.limit);
  counts.claimed = expired.length;
  for (const order of expired) {
    try {
      const status = await settleUnpaid(rt, order, options.log);
      if (status === OrderStatus.paid) counts.paid++;
      else if (status === OrderStatus.timedOut) counts.closed++;
    } catch (error) {
      counts.failed++;
      // a key of its 支付配置 that does not load: nothing was asked, and the order may be paid at the gateway (it was
      // created under the keys of then), so it waits for the 支付配置 to be fixed; a warning, not a stack each sweep
      if (error instanceof GatewayNotSentError) options.log?.warn({ orderNo: order.orderNo, reason: error.message }, 'order sweep: its 支付配置 cannot sign the query (tried again when the lease runs out)');
      else options.log?.error({ err: error, orderNo: order.orderNo }, 'order sweep: settling failed (tried again when the lease runs out)');
      continue;
    }
    await ctx.db.updateTable('pay_order').set({ claimBy: '', claimUntil: null }).where('orderId', '=', order.orderId).where('claimBy', '=', token).execute();
  }
  const nonces = await ctx.db.deleteFrom('pay_terminal_nonce').where('expireAt', '<', ctx.now()).executeTakeFirst();
  counts.nonces = Number(nonces.numDeletedRows);
  counts.dispenseTimeouts = await failStaleDispenses(ctx, options.limit);
  return { ...counts, ...(await sweepRefunds(rt, options)) };
}

export type OrderSweeper = { stop: () => Promise<void> };
export type SweeperOptions = { everyMs?: number; onSwept?: (c: Awaited<ReturnType<typeof sweepOrders>>) => void; onError?: (e: unknown) => void; log?: Log };

/** Sweeps every `everyMs` (default PAY_SWEEP_SECONDS) until stopped; a failed sweep goes to onError and runs again next turn. */
export function startOrderSweeper(rt: PaymentRuntime, options: SweeperOptions = {}): OrderSweeper {
  const { ctx } = rt;
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const sweep = () => {
    if (busy) return;
    busy = true;
    running = timedJobRun(ctx.db, 'orderSweep', ctx.now, () => sweepOrders(rt, { log: options.log })) // (its last run: 监控查询)
      .then((c) => options.onSwept?.(c), (e) => options.onError?.(e)).finally(() => void (busy = false));
  };
  // Its own timer, not db/periodic.ts: no sweep at start, and a turn is skipped while the last sweep runs.
  const timer = setInterval(sweep, options.everyMs ?? ctx.config.pay.sweepMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
      await rt.settled();
    },
  };
}
