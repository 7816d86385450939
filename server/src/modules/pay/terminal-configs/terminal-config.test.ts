import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, messages } from '@huiyun/contract';
import { isUniqueViolation } from '../../../db/errors.ts';
import { sealPurpose } from '../../../infra/sealed-columns.ts';
import { saveTerminalConfig } from './service.ts';
import { twoCompanies } from '../../../test/companies.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

const m = messages.terminalConfig;
let t: TestApp;
let admin: string;
let adminA: string;
let adminB: string;
let userA: string;
let companyA: number;
let companyB: number;
let cashA: number;
let wechatA: number;
let cashB: number;

const addMachine = async (machineNo: string, deptId: number) => {
  const now = Date.now();
  await t.ctx.db.insertInto('pay_machine').values({
    machineNo, machineName: `机器${machineNo}`, deptId, terminalKey: t.ctx.secrets.seal(sealPurpose('pay_machine', 'terminalKey'), 'k'), addTime: now, editTime: now,
  }).execute();
};
const addConfig = async (token: string, body: Record<string, unknown>) => {
  const answer = await t.call('POST', '/api/Config/save', { token, body });
  expect(answer.body.success, answer.body.msg).toBe(true);
  return answer.body.data.id as number;
};

beforeAll(async () => {
  t = await startTestApp();
  ({ companyA, companyB, admin, adminA, adminB, userA } = await twoCompanies(t, 'tc', '终端'));
  await addMachine('TC-A-01', companyA);
  await addMachine('TC-A-02', companyA);
  await addMachine('TC-B-01', companyB);
  cashA = await addConfig(adminA, { name: 'A现金', payType: 1 });
  wechatA = await addConfig(adminA, { name: 'A微信模拟', payType: 3, gateway: 'simulator' });
  cashB = await addConfig(adminB, { name: 'B现金', payType: 1 });
});
afterAll(async () => t?.close());

const save = (token: string, body: Record<string, unknown>) => t.call('POST', '/api/MachineConfig/save', { token, body });
const list = (token: string, body: Record<string, unknown> = {}) => t.call('POST', '/api/MachineConfig/list', { token, body: { page: 1, limit: 50, ...body } });
const remove = (token: string, ids: string) => t.call('DELETE', `/api/MachineConfig/delete?ids=${ids}`, { token });
const count = async () => Number((await t.ctx.db.selectFrom('pay_terminal_config').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('终端支付配置', () => {
  it('adds, lists, edits, searches and deletes', async () => {
    const added = await save(adminA, { machineNo: 'TC-A-01', payType: 1, configId: cashA, configName: '现金支付', payOpen: 'T', posNo: 'POS-9' });
    expect(added.body).toMatchObject({ success: true, msg: m.saved });
    const tcId = added.body.data.tcId;
    const row = (await list(adminA, { machineNo: 'TC-A-01' })).body.data[0];
    expect(row).toMatchObject({
      tcId, deptId: companyA, deptName: '终端A公司', machineNo: 'TC-A-01', machineName: '机器TC-A-01', payType: 1, configId: cashA,
      configName: '现金支付', payConfigName: 'A现金', payOpen: 'T', posNo: 'POS-9', editUser: 'tc_adminA',
    });
    const edited = await save(adminA, { tcId: String(tcId), machineNo: 'TC-A-01', payType: 1, configId: cashA, configName: '现金', payOpen: 'N' });
    expect(edited.body.success).toBe(true);
    expect((await list(adminA, { machineNo: 'a-01' })).body.data[0]).toMatchObject({ tcId, configName: '现金', payOpen: 'N', posNo: '' });
    expect((await list(adminA, { machineNo: 'TC-A-02' })).body.total).toBe(0);
    expect((await remove(adminA, String(tcId))).body).toMatchObject({ success: true, msg: m.deleted });
    expect((await list(adminA, { machineNo: 'TC-A-01' })).body.total).toBe(0);
  });

  it('answers the SPEC texts and the binding rules in Chinese, writing nothing', async () => {
    const before = await count();
    const ok = { machineNo: 'TC-A-02', payType: 1, configId: cashA, configName: '现金', payOpen: 'T' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, machineNo: '' }, '请输入终端号'],
      [{ ...ok, payType: undefined }, '请选择支付方式'],
      [{ ...ok, payType: 7 }, '请选择支付方式'],
      [{ ...ok, payType: 0 }, '请选择支付方式'],
      [{ ...ok, configId: '' }, '请输入配置序号'],
      [{ ...ok, configId: 'abc' }, '请输入配置序号'],
      [{ ...ok, configName: ' ' }, '请输入显示名称'],
      [{ ...ok, payOpen: 'X' }, '请选择状态'],
      [{ ...ok, payOpen: undefined }, '请选择状态'],
      [{ ...ok, configName: 'x'.repeat(65) }, fill(m.tooLong, { label: m.configName })],
      [{ ...ok, machineNo: 'NO-SUCH' }, fill(m.machineNotFound, { machineNo: 'NO-SUCH' })],
      [{ ...ok, configId: cashB }, m.configOtherCompany],
      [{ ...ok, configId: 999999 }, m.configNotFound],
      [{ ...ok, configId: wechatA }, m.configPayType],
      [{ ...ok, machineNo: 'TC-B-01', configId: cashB }, messages.common.outOfScope],
      [{ ...ok, tcId: 999999 }, messages.common.notFoundRecord],
    ];
    for (const [body, message] of cases) {
      const answer = await save(adminA, body);
      expect(answer.body, JSON.stringify(body)).toMatchObject({ success: false, msg: message });
      expect(answer.status).toBeLessThan(500);
    }
    const huge = await t.call('POST', '/api/MachineConfig/save', { token: adminA, body: JSON.stringify({ ...ok, configName: 'x'.repeat(10 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    expect([huge.status, huge.body.msg]).toEqual([413, messages.common.bodyTooLarge]);
    expect(await count()).toBe(before);
  });

  it('keeps one row per machine and pay type, also when two saves race', async () => {
    const first = await save(adminA, { machineNo: 'TC-A-02', payType: 1, configId: cashA, configName: '现金', payOpen: 'T' });
    expect(first.body.success).toBe(true);
    const again = await save(adminA, { machineNo: 'TC-A-02', payType: 1, configId: cashA, configName: '现金2', payOpen: 'T' });
    expect(again.body.msg).toBe(fill(m.duplicate, { machineNo: 'TC-A-02' }));
    // Another pay type on the same machine is a row of its own.
    expect((await save(adminA, { machineNo: 'TC-A-02', payType: 3, configId: wechatA, configName: '微信', payOpen: 'T' })).body.success).toBe(true);
    // The unique index decides a race the check cannot see: the loser hears the same message.
    await t.ctx.db.deleteFrom('pay_terminal_config').where('machineNo', '=', 'TC-A-02').execute();
    const caller = { userName: 'race', deptScope: 'all' as const } as Parameters<typeof saveTerminalConfig>[1];
    const input = { machineNo: 'TC-A-02', payType: 1, configId: cashA, configName: '现金', payOpen: 'T' as const, posNo: '' };
    const results = await Promise.allSettled([saveTerminalConfig(t.ctx, caller, input), saveTerminalConfig(t.ctx, caller, input)]);
    expect(await count()).toBeGreaterThan(0);
    const rows = await t.ctx.db.selectFrom('pay_terminal_config').selectAll().where('machineNo', '=', 'TC-A-02').execute();
    expect(rows).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as Error).message).toBe(fill(m.duplicate, { machineNo: 'TC-A-02' }));
    // And straight into the table: the index refuses the second row.
    await expect(t.ctx.db.insertInto('pay_terminal_config').values({ ...input, deptId: companyA, addTime: 1, editTime: 1 }).execute()).rejects.toSatisfy(isUniqueViolation);
    await t.ctx.db.deleteFrom('pay_terminal_config').where('machineNo', '=', 'TC-A-02').execute();
  });

  it('never leaves a binding to a deleted config when a bind and a delete race', async () => {
    for (let i = 0; i < 8; i++) {
      const configId = await addConfig(adminA, { name: `竞争${i}`, payType: 9 });
      await Promise.allSettled([
        save(adminA, { machineNo: 'TC-A-02', payType: 9, configId, configName: '会员', payOpen: 'T' }),
        t.call('DELETE', `/api/Config/delete?ids=${configId}`, { token: adminA }),
      ]);
      const config = await t.ctx.db.selectFrom('pay_config').select('id').where('id', '=', configId).executeTakeFirst();
      const binding = await t.ctx.db.selectFrom('pay_terminal_config').select('tcId').where('configId', '=', configId).executeTakeFirst();
      expect(Boolean(config) || !binding, `round ${i}: a binding to a deleted config`).toBe(true);
      await t.ctx.db.deleteFrom('pay_terminal_config').where('machineNo', '=', 'TC-A-02').execute();
    }
  });

  it('keeps each company to its own bindings and offers only its machines and configs', async () => {
    const a = (await save(adminA, { machineNo: 'TC-A-01', payType: 1, configId: cashA, configName: 'A', payOpen: 'T' })).body.data.tcId;
    const b = (await save(adminB, { machineNo: 'TC-B-01', payType: 1, configId: cashB, configName: 'B', payOpen: 'T' })).body.data.tcId;
    const machinesOf = async (token: string) => (await list(token, { machineNo: 'TC-' })).body.data.map((r: { machineNo: string }) => r.machineNo).sort();
    expect(await machinesOf(adminA)).toEqual(['TC-A-01']);
    expect(await machinesOf(adminB)).toEqual(['TC-B-01']);
    expect(await machinesOf(admin)).toEqual(['TC-A-01', 'TC-B-01']);
    expect((await remove(adminA, `${a},${b}`)).body.msg).toBe(messages.common.outOfScope);
    expect((await save(adminA, { tcId: b, machineNo: 'TC-A-01', payType: 3, configId: wechatA, configName: 'x', payOpen: 'T' })).body.msg).toBe(messages.common.outOfScope);

    const machines = await t.call('POST', '/api/MachineConfig/machines', { token: adminA, body: { keyword: 'TC-' } });
    expect(machines.body.data.map((r: { machineNo: string }) => r.machineNo)).toEqual(['TC-A-01', 'TC-A-02']);
    expect((await t.call('POST', '/api/MachineConfig/machines', { token: admin, body: { keyword: 'TC-B' } })).body.data).toEqual([
      { machineNo: 'TC-B-01', machineName: '机器TC-B-01', deptId: companyB, deptName: '终端B公司' },
    ]);
    const configs = await t.call('POST', '/api/MachineConfig/configs', { token: adminA, body: { machineNo: 'TC-A-01', payType: 1 } });
    expect(configs.body.data.map((c: { id: number }) => c.id)).toEqual([cashA]);
    expect((await t.call('POST', '/api/MachineConfig/configs', { token: admin, body: { machineNo: 'TC-B-01', payType: 1 } })).body.data.map((c: { id: number }) => c.id)).toEqual([cashB]);
    expect((await t.call('POST', '/api/MachineConfig/configs', { token: adminA, body: { machineNo: 'TC-B-01', payType: 1 } })).body.msg).toBe(messages.common.outOfScope);
    expect((await t.call('POST', '/api/MachineConfig/configs', { token: adminA, body: { machineNo: 'TC-A-01' } })).body.msg).toBe('请选择支付方式');

    expect((await list(userA)).body.msg).toBe(messages.common.forbidden);
    expect((await remove(admin, `${a},${b}`)).body.success).toBe(true);
  });

  it('exports the list and logs every change', async () => {
    const tcId = (await save(adminA, { machineNo: 'TC-A-01', payType: 1, configId: cashA, configName: '导出', payOpen: 'N' })).body.data.tcId;
    const { raw } = await t.call('POST', '/api/MachineConfig/export', { token: adminA, body: { machineNo: 'TC-A' } });
    expect(raw.statusCode).toBe(200);
    expect(String(raw.headers['content-type'])).toContain('spreadsheetml');
    await remove(adminA, String(tcId));
    const logs = await t.ctx.db.selectFrom('sys_oper_log').select(['action', 'target']).where('module', '=', m.title).orderBy('operId', 'desc').limit(2).execute();
    expect(logs).toEqual([{ action: messages.common.actionDelete, target: `tcId ${tcId}` }, { action: messages.common.actionSave, target: 'TC-A-01 现金' }]);
  });
});
