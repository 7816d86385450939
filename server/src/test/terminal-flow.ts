import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { messages, OrderStatus, TransType } from '@huiyun/contract';
import type { Database } from '../db/schema.ts';
import type { SimMachine } from '../../../tools/terminal-simulator/setup.ts';
import { payOnPage, retryWait, TerminalClient, type Backoff } from '../../../tools/terminal-simulator/terminal-client.ts';

// Machines selling over the terminal protocol against a server that may falter (a fault test), and the
// recount of the books afterwards. Every call is retried until it is answered, as the protocol says (its
// backoff, smaller: FAULT_TEST_BACKOFF unless given); the answers on the way are counted: 503 (a dependency
// away, the server says so) apart from anything else.

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Answers seen on the way: 503s, and failures of any other kind (a 5xx other than 503, no answer at all);
 * with `statuses`, every answer counted by its status.
 */
export type Faults = { unavailable: number; other: string[]; statuses?: Record<number, number> };

export const newFaults = (): Faults => ({ unavailable: 0, other: [] });

/** Fault tests try again soon: the first wait 0–50 ms, then every 50 ms. */
export const FAULT_TEST_BACKOFF: Backoff = { firstMs: 50, maxMs: 50 };

/** Calls until the server answers below 500, counting what came before. A generous timeout per call: nothing may hang. */
export async function untilAnswered<T extends { status: number }>(faults: Faults, call: () => Promise<T>, backoff = FAULT_TEST_BACKOFF): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await call();
      if (faults.statuses) faults.statuses[answer.status] = (faults.statuses[answer.status] ?? 0) + 1;
      if (answer.status < 500) return answer;
      if (answer.status === 503) faults.unavailable++;
      else faults.other.push(`HTTP ${answer.status}`);
    } catch (error) {
      faults.other.push(String((error as Error).cause ?? error));
    }
    await sleep(retryWait(attempt, backoff));
  }
}

/** The customer pays on the code URL's page (the simulator's or a fake gateway's); again after a failure: then it says paid. */
const pay = (faults: Faults, codeUrl: string, backoff: Backoff) => payOnPage(codeUrl, (call) => untilAnswered(faults, call, backoff));

export type Progress = { created: string[]; dispensed: number; failed: number };

/**
 * One machine's `purchases` (create, pay, wait until paid, report the dispense: a quarter fail); a share
 * `walkAway` of the customers leave before paying. Each call may take 15 s (the client's own timeout).
 */
export async function sell(server: string, machine: SimMachine, purchases: number, progress: Progress, faults: Faults, random: () => number, walkAway = 0, backoff = FAULT_TEST_BACKOFF) {
  const client = new TerminalClient(server, machine.machineNo, machine.key);
  const call = <T>(p: string, body: unknown) => untilAnswered(faults, () => client.call<T>(p, body, 15_000), backoff);
  for (let n = 0; n < purchases; n++) {
    const created = await call<{ orderNo: string; codeUrl: string }>('/order/create', { aisleNo: ['A1', 'A2', 'B1', 'B2'][n % 4], payType: machine.payType });
    if (!created.body.success) {
      expect([messages.terminal.orderInProgress, messages.terminal.dispenseInProgress]).toContain(created.body.msg);
      n--; // the order of an answer lost to a fault is settled by the next create
      await sleep(50);
      continue;
    }
    const { orderNo, codeUrl } = created.body.data!;
    progress.created.push(orderNo);
    if (random() < walkAway) continue;
    if (!(await pay(faults, codeUrl, backoff))) continue;
    let status = 10;
    for (let i = 0; i < 60 && status !== 2; i++) {
      status = (await call<{ orderStatus: number }>('/order/status', { orderNo, knownStatus: status, waitSeconds: 1 })).body.data?.orderStatus ?? status;
    }
    expect(status, `${orderNo} paid`).toBe(2);
    const success = random() >= 0.25;
    const reported = await call<{ orderStatus: number }>('/order/dispense', { orderNo, success, aisleStatus: 1 });
    expect(reported.body.success, reported.body.msg).toBe(true);
    if (success) progress.dispensed++;
    else progress.failed++;
  }
}

/** Waits until no refund is under way, none is due and nothing is reserved; answers how many orders are still open. */
export async function settledBooks(db: Kysely<Database>, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await db.selectFrom('pay_order').select('orderId')
      .where((eb) => eb.or([eb('orderStatus', 'in', [OrderStatus.refundCreated, OrderStatus.refunding]), eb('refundNeeded', '=', 1), eb('reservedAmount', '>', 0)]))
      .execute();
    if (open.length === 0 || Date.now() > until) return open.length;
    await sleep(200);
  }
}

/**
 * The recount of the machines named `prefix-…`: every order a machine was told of exists once, in a legal
 * state; as many dispensed and failed as the machines reported; failed dispenses refunded in full, nothing
 * reserved; each aisle's stock dropped by its dispensed orders exactly.
 */
export async function expectBooksExact(db: Kysely<Database>, prefix: string, progress: Progress) {
  const orders = await db.selectFrom('pay_order').selectAll().where('machineNo', 'like', `${prefix}-%`).execute();
  const sales = orders.filter((o) => o.transType === TransType.consume);
  const known = new Set(sales.map((o) => o.orderNo));
  for (const orderNo of progress.created) expect(known.has(orderNo), orderNo).toBe(true);
  expect(new Set(progress.created).size).toBe(progress.created.length);
  for (const o of sales) expect([OrderStatus.created, OrderStatus.processing, OrderStatus.dispensed, OrderStatus.dispenseFailed, OrderStatus.timedOut], o.orderNo).toContain(o.orderStatus);
  expect(sales.filter((o) => o.orderStatus === OrderStatus.dispensed)).toHaveLength(progress.dispensed);
  expect(sales.filter((o) => o.orderStatus === OrderStatus.dispenseFailed)).toHaveLength(progress.failed);
  for (const o of sales) {
    expect(o.reservedAmount, o.orderNo).toBe(0);
    expect(o.refundedAmount, o.orderNo).toBe(o.orderStatus === OrderStatus.dispenseFailed ? o.payAmount : 0);
  }
  const aisles = await db.selectFrom('pay_aisle').innerJoin('pay_machine', 'pay_machine.machineId', 'pay_aisle.machineId')
    .select(['pay_aisle.aisleId', 'pay_aisle.stock', 'pay_aisle.capacity']).where('pay_machine.machineNo', 'like', `${prefix}-%`).execute();
  for (const a of aisles) {
    expect(a.capacity - a.stock).toBe(sales.filter((o) => o.aisleId === a.aisleId && o.orderStatus === OrderStatus.dispensed).length);
  }
}
