import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fenToYuan, OrderStatus, TransType } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { serverOnTestDatabase, type ServerOnTestDatabase, type ServerProcess } from '../../../test/server-process.ts';
import { prepareMachines } from '../../../../../tools/terminal-simulator/setup.ts';
import { emptyStats, runTerminals } from '../../../../../tools/terminal-simulator/run-terminals.ts';
import { keptRollups, recountFromOrders } from './rollup-recount.ts';
import { rollupNames } from './rollup-tables.ts';

// The payment crash test's flow (order/crash.test.ts) with the rollups in view: machines sell over the terminal
// protocol (some walk away, some dispenses fail: automatic refunds), an operator refunds, and the server is
// killed with SIGKILL three times. At each kill (nothing writes then) and at the end, the rollups equal
// the orders counted again in TypeScript, to the fen: each count is in the transaction of its order change.

const ADMIN = 'Admin@12345';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// the server process and a connection to its database (sweepers every second, so the kills' leftovers settle)
let running: ServerOnTestDatabase | undefined;
beforeAll(async () => void (running = await serverOnTestDatabase({ PAY_SWEEP_SECONDS: '1', PAY_RECOVER_SECONDS: '2' })), 60_000);
afterAll(async () => running?.close());
const db = (): Kysely<Database> => running!.db;
const server = (): ServerProcess => running!.server;

async function expectRollupsRecount() {
  for (const table of rollupNames) expect(await keptRollups(db(), table)).toEqual(await recountFromOrders(db(), table));
}

/** Partial refunds of dispensed orders through /api/Order/refund while the machines sell; answers lost to a kill are fine. */
async function refundWhileSelling(token: string, selling: () => boolean) {
  let sent = 0;
  while (selling()) {
    const order = await db().selectFrom('pay_order').select(['orderId', 'payAmount', 'refundedAmount', 'reservedAmount'])
      .where('transType', '=', TransType.consume).where('orderStatus', '=', OrderStatus.dispensed).where('machineNo', 'like', 'ROLL-%')
      .where((eb) => eb(eb(eb('refundedAmount', '+', eb.ref('reservedAmount')), '+', 100), '<=', eb.ref('payAmount'))).executeTakeFirst();
    if (order) {
      const body = JSON.stringify({ orderId: order.orderId, amount: fenToYuan(100), reason: '汇总测试', requestKey: randomBytes(8).toString('hex') });
      await fetch(`${server().url}/api/Order/refund`, { method: 'POST', headers: { 'content-type': 'application/json', token }, body, signal: AbortSignal.timeout(5_000) })
        .then(() => sent++, () => {});
    }
    await sleep(80);
  }
  return sent;
}

describe('rollups through SIGKILL while selling and refunding', () => {
  it('equal the orders counted again at every kill and at the end', async () => {
    const machines = await prepareMachines({ server: server().url, admin: 'admin', password: ADMIN, count: 5, prefix: 'ROLL' });
    const login = await fetch(`${server().url}/sync/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName: 'admin', passwd: ADMIN }) });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    let seed = 11;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const stats = emptyStats(machines.length);
    let done = false;
    const selling = runTerminals({ server: server().url, machines, rate: Infinity, dispenseFail: 0.25, abandon: 0.1, random, stopped: () => done }, stats);
    const refunding = refundWhileSelling(token, () => !done);
    /** SIGKILL, the books compared while nothing writes, and the server started again (also when they differ). */
    const killAndRecount = async () => {
      await server().kill();
      try {
        await expectRollupsRecount();
      } finally {
        await server().start();
      }
    };
    for (const created of [12, 24, 36]) {
      while (stats.created < created) await sleep(10);
      await killAndRecount();
    }
    while (stats.created < 48) await sleep(10);
    done = true;
    await selling;
    expect(await refunding).toBeGreaterThan(0);
    await sleep(3_000); // the sweepers settle what the kills left (automatic refunds, recoveries)
    await killAndRecount();
    const orders = await db().selectFrom('pay_order').select(['transType', 'orderStatus']).where('machineNo', 'like', 'ROLL-%').execute();
    expect(orders.filter((o) => o.transType === TransType.consume).length).toBeGreaterThan(30);
    expect(orders.some((o) => o.transType === TransType.refund && o.orderStatus === OrderStatus.refunded)).toBe(true);
    await expectRollupsRecount();
  }, 180_000);
});
