import { afterAll, beforeAll, expect, it } from 'vitest';
import { OrderStatus } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../server/src/test/harness.ts';
import { prepareMachines } from './setup.ts';
import { TerminalClient } from './terminal-client.ts';
import { runTerminals } from './run-terminals.ts';
import { parseTerminalArgs } from './cli.ts';

// The terminal simulator against the real server over loopback HTTP: machines made through the console
// API, purchases end to end through the simulator gateway; afterwards a recount.

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await startTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.payments.simulated.options.duplicateRate = 0.2;
});
afterAll(async () => {
  await t.payments.stop();
  await t?.close();
});

it('sells end to end on 3 machines; stock moves once per dispensed order', { timeout: 60_000 }, async () => {
  const machines = await prepareMachines({ server: url, admin: 'admin', password: ADMIN_PASSWORD, count: 3, prefix: 'TSIM' });
  // run twice: the second run reuses the machines (new keys)
  const again = await prepareMachines({ server: url, admin: 'admin', password: ADMIN_PASSWORD, count: 3, prefix: 'TSIM' });
  expect(again.map((m) => m.machineNo)).toEqual(machines.map((m) => m.machineNo));
  let seed = 11;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const stats = await runTerminals({ server: url, machines: again, rate: Infinity, dispenseFail: 0.2, abandon: 0.2, purchases: 8, random });
  expect(stats.errors, stats.lastError).toBe(0);
  expect(stats.created).toBe(24 - stats.refused);
  expect(stats.paid).toBe(stats.dispensed + stats.failed);
  await t.payments.settled();
  const orders = await t.ctx.db.selectFrom('pay_order').selectAll().where('machineNo', 'like', 'TSIM-%').execute();
  const count = (s: number) => orders.filter((o) => o.orderStatus === s).length;
  expect(count(OrderStatus.dispensed)).toBe(stats.dispensed);
  expect(count(OrderStatus.dispenseFailed)).toBe(stats.failed);
  // every failed dispense refunded in full, automatically, and the machine saw it
  expect(orders.filter((o) => o.orderStatus === OrderStatus.dispenseFailed).every((o) => o.refundNeeded === 0 && o.refundedAmount === o.payAmount)).toBe(true);
  expect(stats.refunded).toBe(stats.failed);
  const refunds = await t.ctx.db.selectFrom('pay_order').select(['payAmount', 'orderStatus']).where('machineNo', 'like', 'TSIM-%').where('transType', '=', 2).execute();
  expect(refunds).toHaveLength(stats.failed);
  expect(refunds.every((r) => r.orderStatus === OrderStatus.refunded && r.payAmount < 0)).toBe(true);
  const aisles = await t.ctx.db.selectFrom('pay_aisle').innerJoin('pay_machine', 'pay_machine.machineId', 'pay_aisle.machineId')
    .select(['pay_aisle.stock', 'pay_aisle.capacity']).where('pay_machine.machineNo', 'like', 'TSIM-%').execute();
  const taken = aisles.reduce((sum, a) => sum + a.capacity - a.stock, 0);
  expect(taken).toBe(stats.dispensed);
  // every sale names its goods (数据可视化's goods top-10), as the aisles were given them
  expect(orders.filter((o) => o.transType === 1).every((o) => o.goodsName !== '')).toBe(true);
  expect(new Set(orders.map((o) => o.goodsName)).size).toBeGreaterThan(1);
});

it('long-polls over real HTTP: waits while nothing changes', async () => {
  const [machine] = await prepareMachines({ server: url, admin: 'admin', password: ADMIN_PASSWORD, count: 1, prefix: 'TPOLL' });
  const client = new TerminalClient(url, machine!.machineNo, machine!.key);
  const created = await client.call<{ orderNo: string }>('/order/create', { aisleNo: 'A1', payType: 3 });
  const started = Date.now();
  const polled = await client.call<{ orderStatus: number }>('/order/status', { orderNo: created.body.data!.orderNo, knownStatus: OrderStatus.processing, waitSeconds: 1 });
  expect(polled.body.data!.orderStatus).toBe(OrderStatus.processing);
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
});

it('reads its arguments', () => {
  expect(parseTerminalArgs(['--admin', 'admin:a:b', '--machines', '4', '--rate', '2', '--dispense-fail', '0.1'])).toMatchObject({ admin: 'admin', password: 'a:b', machines: 4, rate: 2, dispenseFail: 0.1, abandon: 0.1 });
  expect(parseTerminalArgs(['--admin', 'admin:x', '--config', '微信支付 V3（本地模拟）']).config).toBe('微信支付 V3（本地模拟）');
  expect(parseTerminalArgs(['--admin', 'admin:x'])).not.toHaveProperty('config');
  expect(() => parseTerminalArgs(['--admin', 'admin:x', '--abandon', '2'])).toThrow(/--abandon/);
  expect(() => parseTerminalArgs([])).toThrow(/--admin/);
});
