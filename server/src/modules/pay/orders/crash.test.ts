import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fenToYuan, messages, OrderStatus, TransType } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { serverOnTestDatabase, type ServerProcess } from '../../../test/server-process.ts';
import { newFaults, sell, settledBooks, sleep, untilAnswered, type Progress } from '../../../test/terminal-flow.ts';
import { prepareMachines } from '../../../../../tools/terminal-simulator/setup.ts';
import { SEEDED_NAMES, seedPayConfigs } from '../../../../../tools/fake-gateways/seed.ts';
import { startFakeWechatV3, type FakeWechatV3 } from '../../../../../tools/fake-gateways/wechat-v3.ts';

// The payment crash test: a real server process is killed with SIGKILL at three points
// while six machines sell over the terminal protocol (some dispenses fail: automatic refunds) and an
// operator refunds dispensed orders through /api/Order/refund, and is started again on the same
// database. Machines and the operator retry what got no answer, as the protocol says (a refund with
// the same key). Afterwards: every order in a legal state, refunded ≤ paid and refunded = Σ 退款成功 for
// every order, no reservation left, the gateway's books agree, and each aisle's stock moved exactly
// once per dispensed order. Once on the simulator gateway, and once (smaller) on a real gateway's fake,
// WeChat Pay APIv3 (tools/fake-gateways): its customer page, its notifications (sent again while the server
// is away, as WeChat does), its refunds.

const ADMIN = 'Admin@12345';

/** What the gateway holds of an order: refunded in success (fen), and whether it is paid there. */
type GatewayBooks = { refunded: (orderNo: string) => Promise<number>; paid: (orderNo: string) => Promise<boolean> };

const ignored = newFaults(); // (a server killed answers nothing for a while: counted by the outage test, not here)

async function console_<T>(server: ServerProcess, token: string, url: string, body: unknown) {
  return untilAnswered(ignored, async () => {
    const answer = await fetch(`${server.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
    return { status: answer.status, body: (await answer.json()) as { success: boolean; msg: string; data?: T } };
  });
}

type CrashProgress = Progress & { done: boolean };

/** The operator: refunds parts of dispensed orders, retrying a request without an answer with the same key. */
async function refundWhileSelling(db: Kysely<Database>, server: ServerProcess, token: string, progress: CrashProgress, random: () => number) {
  let answered = 0;
  while (!progress.done) {
    const candidates = await db.selectFrom('pay_order').select(['orderId', 'payAmount', 'refundedAmount', 'reservedAmount'])
      .where('transType', '=', TransType.consume).where('orderStatus', '=', OrderStatus.dispensed).where('machineNo', 'like', 'CRASH-%').execute();
    const open = candidates.filter((o) => o.payAmount - o.refundedAmount - o.reservedAmount > 0);
    if (open.length === 0) {
      await sleep(50);
      continue;
    }
    const order = open[Math.floor(random() * open.length)]!;
    const requestKey = randomBytes(10).toString('hex');
    const amount = fenToYuan(random() < 0.5 ? 100 : 150);
    // a double click now and then: the same key twice at once
    const sends = random() < 0.2 ? 2 : 1;
    await Promise.all(Array.from({ length: sends }, () => console_(server, token, '/api/Order/refund', { orderId: order.orderId, amount, reason: '崩溃测试', requestKey })));
    answered++;
  }
  return answered;
}

type Scenario = {
  name: string; machines: number; purchases: number;
  /** Starts the gateway's side; answers the server's settings, the 支付配置 to sell through, and the gateway's books. */
  start: () => Promise<{ env: Record<string, string>; config?: (server: string) => Promise<string>; books: (db: Kysely<Database>) => GatewayBooks; stop?: () => Promise<void> }>;
};

const simulator: Scenario = {
  name: 'the simulator gateway', machines: 6, purchases: 14,
  start: async () => ({
    env: {},
    books: (db) => ({
      refunded: async (orderNo) => (await db.selectFrom('pay_sim_refund').select(['amount', 'status']).where('orderNo', '=', orderNo).execute()).filter((g) => g.status === 'success').reduce((sum, g) => sum + g.amount, 0),
      paid: async (orderNo) => (await db.selectFrom('pay_sim_payment').select('status').where('orderNo', '=', orderNo).executeTakeFirst())?.status === 'paid',
    }),
  }),
};

const wechatV3: Scenario = {
  name: 'WeChat Pay APIv3 (its fake)', machines: 3, purchases: 8,
  start: async () => {
    const f: FakeWechatV3 = await startFakeWechatV3();
    return {
      env: { WECHATPAY_BASE_URL: f.baseUrl },
      config: async (server) => (await seedPayConfigs({ v3: f }, { server, admin: 'admin', password: ADMIN }), SEEDED_NAMES.wechat_v3),
      books: () => ({
        refunded: async (orderNo) => [...f.books.refunds.values()].filter((r) => r.orderNo === orderNo && r.status === 'SUCCESS').reduce((sum, r) => sum + r.amount, 0),
        paid: async (orderNo) => f.books.payments.get(orderNo)?.status === 'paid',
      }),
      stop: () => f.close(),
    };
  },
};

describe.each([simulator, wechatV3])('SIGKILL while selling and refunding through $name', (scenario) => {
  const MACHINES = scenario.machines;
  const PURCHASES = scenario.purchases;
  let db: Kysely<Database>;
  let server: ServerProcess;
  let close: (() => Promise<void>) | undefined;
  let gateway: Awaited<ReturnType<Scenario['start']>>;

  beforeAll(async () => {
    gateway = await scenario.start();
    ({ server, db, close } = await serverOnTestDatabase({ PAY_SWEEP_SECONDS: '1', PAY_RECOVER_SECONDS: '2', ...gateway.env }));
  }, 60_000);

  afterAll(async () => {
    await close?.();
    await gateway?.stop?.();
  });

  it('leaves every order legal, never refunds more than paid, and moves stock once per dispense', async () => {
    const config = await gateway.config?.(server.url);
    const machines = await prepareMachines({ server: server.url, admin: 'admin', password: ADMIN, count: MACHINES, prefix: 'CRASH', ...(config ? { config } : {}) });
    const books = gateway.books(db);
    const login = await console_<{ token: string }>(server, '', '/sync/login', { userName: 'admin', passwd: ADMIN });
    const token = login.body.data!.token;
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const progress: CrashProgress = { created: [], dispensed: 0, failed: 0, done: false };

    const selling = Promise.all(machines.map((m) => sell(server.url, m, PURCHASES, progress, ignored, random, 0.1))).finally(() => void (progress.done = true));
    const refunding = refundWhileSelling(db, server, token, progress, random);
    const kills: number[] = [];
    for (const share of [0.2, 0.45, 0.7]) {
      while (progress.created.length < MACHINES * PURCHASES * share && !progress.done) await sleep(10);
      if (progress.done) break;
      kills.push(progress.created.length);
      await server.kill();
      await sleep(100);
      await server.start();
    }
    await selling;
    const refundRequests = await refunding;
    expect(kills).toHaveLength(3); // all three kills landed mid-run
    expect(refundRequests).toBeGreaterThan(0);
    expect(await settledBooks(db)).toBe(0);

    const orders = await db.selectFrom('pay_order').selectAll().where('machineNo', 'like', 'CRASH-%').execute();
    const sales = orders.filter((o) => o.transType === TransType.consume);
    const refunds = orders.filter((o) => o.transType === TransType.refund);
    // nothing lost or doubled: every order a machine was told of exists, once
    const known = new Set(sales.map((o) => o.orderNo));
    for (const orderNo of progress.created) expect(known.has(orderNo), orderNo).toBe(true);
    expect(new Set(progress.created).size).toBe(progress.created.length);
    // legal states only; nothing paid is left undispensed (every machine reported)
    for (const o of sales) expect([OrderStatus.created, OrderStatus.processing, OrderStatus.dispensed, OrderStatus.dispenseFailed, OrderStatus.timedOut], o.orderNo).toContain(o.orderStatus);
    for (const r of refunds) expect([OrderStatus.refunded, OrderStatus.refundFailed], r.orderNo).toContain(r.orderStatus);
    expect(sales.filter((o) => o.orderStatus === OrderStatus.dispensed)).toHaveLength(progress.dispensed);
    expect(sales.filter((o) => o.orderStatus === OrderStatus.dispenseFailed)).toHaveLength(progress.failed);
    // the money: per order refunded = Σ 退款成功 ≤ paid, nothing reserved, failed dispenses given back in full
    for (const o of sales) {
      const mine = refunds.filter((r) => r.parentId === o.orderId);
      const succeeded = mine.filter((r) => r.orderStatus === OrderStatus.refunded).reduce((sum, r) => sum - r.payAmount, 0);
      expect(o.refundedAmount, o.orderNo).toBe(succeeded);
      expect(o.reservedAmount, o.orderNo).toBe(0);
      expect(o.refundedAmount, o.orderNo).toBeLessThanOrEqual(o.payAmount);
      expect(await books.refunded(o.orderNo), o.orderNo).toBe(succeeded);
      if (o.orderStatus === OrderStatus.dispenseFailed) expect(o.refundedAmount, o.orderNo).toBe(o.payAmount);
      // a payment the gateway holds is one the order shows
      if (o.payTime === null) expect(await books.paid(o.orderNo), o.orderNo).toBe(false);
    }
    expect(refunds.some((r) => r.remark === messages.order.autoRefundDispense)).toBe(progress.failed > 0);
    // stock: each aisle's drop equals its dispensed orders
    const aisles = await db.selectFrom('pay_aisle').innerJoin('pay_machine', 'pay_machine.machineId', 'pay_aisle.machineId')
      .select(['pay_aisle.aisleId', 'pay_aisle.stock', 'pay_aisle.capacity']).where('pay_machine.machineNo', 'like', 'CRASH-%').execute();
    for (const a of aisles) {
      expect(a.capacity - a.stock).toBe(sales.filter((o) => o.aisleId === a.aisleId && o.orderStatus === OrderStatus.dispensed).length);
    }
  }, 180_000);
});
