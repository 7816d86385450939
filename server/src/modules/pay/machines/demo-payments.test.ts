import { afterAll, beforeAll, expect, it } from 'vitest';
import { MachineStatus, PayType } from '@huiyun/contract';
import { seed } from '../../../seed.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { openTerminalKey } from './terminal-key.ts';
import { DEMO_GATEWAY, DEMO_PAY_CONFIG_NAME, demoMachines, seedDemoPayments } from './demo-payments.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const tables = ['pay_config', 'pay_machine', 'pay_aisle', 'pay_terminal_config'] as const;
const counts = () => Promise.all(tables.map(async (table) => Number((await t.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)));

it('gives a fresh installation a demo company with two machines, their aisles and a simulator pay config', async () => {
  const aisleCount = demoMachines.reduce((n, machine) => n + machine.layers * machine.columns, 0);
  expect(await counts()).toEqual([1, 2, aisleCount, 2]);
  const dept = await t.ctx.db.selectFrom('sys_dept').select('deptId').where('deptNo', '=', 'DEMO').executeTakeFirstOrThrow();

  const config = await t.ctx.db.selectFrom('pay_config').selectAll().executeTakeFirstOrThrow();
  expect(config).toMatchObject({ deptId: dept.deptId, name: DEMO_PAY_CONFIG_NAME, payType: PayType.wechat, gateway: DEMO_GATEWAY, partnerKey: '', apiV3Key: '', rsaKey: '' });
  expect(config.name).toContain('演示');

  const machines = await t.ctx.db.selectFrom('pay_machine').selectAll().orderBy('machineNo').execute();
  expect(machines.map((m) => m.machineNo)).toEqual(['DEMO-0001', 'DEMO-0002']);
  for (const machine of machines) {
    expect(machine).toMatchObject({ deptId: dept.deptId, status: MachineStatus.enabled });
    expect(machine.machineName).toContain('演示');
    expect(openTerminalKey(t.ctx.secrets, machine.terminalKey)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  }
  const terminal = await t.ctx.db.selectFrom('pay_terminal_config').selectAll().orderBy('machineNo').execute();
  expect(terminal.map((r) => [r.machineNo, r.payType, r.configId, r.configName, r.payOpen])).toEqual([
    ['DEMO-0001', PayType.wechat, config.id, DEMO_PAY_CONFIG_NAME, 'T'],
    ['DEMO-0002', PayType.wechat, config.id, DEMO_PAY_CONFIG_NAME, 'T'],
  ]);

  // the screens show it: 货道信息 of the first machine, priced in yuan, with goods and stock
  const token = await t.login('admin', ADMIN_PASSWORD);
  const grid = (await t.call('POST', '/api/Aisle/grid', { token, body: { machineId: machines[0]!.machineId } })).body.data;
  expect(grid.aisles).toHaveLength(12);
  expect(grid.aisles[0]).toMatchObject({ aisleNo: 'A1', goodsName: expect.stringContaining('演示'), price: expect.stringMatching(/^\d+\.\d\d$/), capacity: 10 });
  expect(grid.aisles.some((x: { stock: number; capacity: number }) => x.stock < x.capacity)).toBe(true);
});

it('adds nothing at a second start, and nothing to an installation that already has accounts', async () => {
  const before = await counts();
  await seed(t.ctx.db, { adminPassword: 'Other@123', dataDir: t.ctx.config.dataDir, log: () => {}, secrets: t.ctx.secrets });
  expect(await counts()).toEqual(before);

  // what an operator deleted does not come back at the next start
  await t.ctx.db.deleteFrom('pay_terminal_config').execute();
  await t.ctx.db.deleteFrom('pay_aisle').execute();
  await t.ctx.db.deleteFrom('pay_machine').execute();
  await t.ctx.db.deleteFrom('pay_config').execute();
  await seedDemoPayments(t.ctx.db, { box: t.ctx.secrets, deptId: 1 });
  expect(await counts()).toEqual([0, 0, 0, 0]);
});
