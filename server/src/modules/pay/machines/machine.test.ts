import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, MachineStatus, messages, PayType } from '@huiyun/contract';
import { buildApp } from '../../../app.ts';
import { loadConfig } from '../../../config.ts';
import { companyWithAdmin } from '../../../test/companies.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { insertOrder } from '../../../test/orders.ts';
import { testDbKind } from '../../../test/test-database.ts';
import { openTerminalKey } from './terminal-key.ts';

const m = messages.machine;

let t: TestApp;
let token: string;
let otherToken: string;
let otherDeptId: number;
beforeAll(async () => {
  t = await startTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  ({ deptId: otherDeptId, token: otherToken } = await companyWithAdmin(t, '别家公司', 'OTHER-M', 'machine-other-admin'));
});
afterAll(async () => t?.close());

const save = (body: unknown, as = token) => t.call('POST', '/api/Machine/save', { token: as, body });
const list = (body: Record<string, unknown> = {}, as = token) => t.call('POST', '/api/Machine/list', { token: as, body: { page: 1, limit: 10, ...body } });
const machineCount = async () => Number((await t.ctx.db.selectFrom('pay_machine').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const storedKey = async (machineId: number) =>
  (await t.ctx.db.selectFrom('pay_machine').select('terminalKey').where('machineId', '=', machineId).executeTakeFirstOrThrow()).terminalKey;

describe('机器列表', () => {
  it('adds a machine with a terminal key shown once, stored sealed, never listed, exported or logged', async () => {
    const added = await save({ machineNo: 'T-1001', machineName: '一号机', address: '一楼', status: 1 });
    expect(added.body).toMatchObject({ success: true, msg: m.saved });
    const { machineId, terminalKey } = added.body.data as { machineId: number; terminalKey: string };
    expect(terminalKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const sealed = await storedKey(machineId);
    expect(sealed).toMatch(/^s1\./);
    expect(sealed).not.toContain(terminalKey);
    expect(openTerminalKey(t.ctx.secrets, sealed)).toBe(terminalKey);

    const listed = await list({ machineNo: 'T-1001' });
    expect(listed.body.total).toBe(1);
    expect(listed.body.data[0]).toMatchObject({
      machineId, machineNo: 'T-1001', machineName: '一号机', deptId: 1, deptName: '汇云演示公司', address: '一楼', status: 1,
      lastSeenAt: '', online: false, addUser: 'admin',
    });
    expect(listed.body.data[0].addTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(JSON.stringify(listed.body)).not.toContain(terminalKey);
    expect(JSON.stringify(listed.body)).not.toContain('terminalKey');

    const exported = await t.call('POST', '/api/Machine/export', { token, body: { machineNo: 'T-1001' } });
    expect(exported.status).toBe(200);
    expect(exported.raw.rawPayload.includes(Buffer.from(terminalKey))).toBe(false);

    const edited = await save({ machineId, machineNo: 'T-1001', machineName: '一号机（改）', address: '二楼', status: 0 });
    expect(edited.body).toMatchObject({ success: true, msg: m.saved, data: { machineId } });
    expect(edited.body.data.terminalKey).toBeUndefined();
    expect(await storedKey(machineId)).toBe(sealed); // editing keeps the key
    expect((await list({ machineNo: 'T-1001' })).body.data[0]).toMatchObject({ machineName: '一号机（改）', address: '二楼', status: 0 });

    const reset = await t.call('POST', '/api/Machine/resetKey', { token, body: { machineId } });
    expect(reset.body).toMatchObject({ success: true, msg: m.resetKeyOk, data: { machineId, machineNo: 'T-1001' } });
    const newKey = reset.body.data.terminalKey as string;
    expect(newKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newKey).not.toBe(terminalKey);
    expect(openTerminalKey(t.ctx.secrets, await storedKey(machineId))).toBe(newKey);

    const logs = await t.ctx.db.selectFrom('sys_oper_log').selectAll().where('module', '=', m.title).execute();
    expect(logs.map((l) => l.action)).toEqual(expect.arrayContaining([messages.common.actionSave, m.actionResetKey]));
    const logged = JSON.stringify(logs);
    expect(logged).toContain('T-1001');
    expect(logged).not.toContain(terminalKey);
    expect(logged).not.toContain(newKey);

    const deleted = await t.call('DELETE', `/api/Machine/delete?ids=${machineId}`, { token });
    expect(deleted.body).toMatchObject({ success: true, msg: m.deleted });
    expect((await list({ machineNo: 'T-1001' })).body.total).toBe(0);
  });

  it('answers each bad field its Chinese message and writes nothing', async () => {
    await save({ machineNo: 'DUP-1', machineName: '重复' });
    const before = await machineCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ machineName: 'x' }, m.machineNoRequired],
      [{ machineNo: 'has space', machineName: 'x' }, m.machineNoFormat],
      [{ machineNo: '编号', machineName: 'x' }, m.machineNoFormat],
      [{ machineNo: 'A'.repeat(33), machineName: 'x' }, m.machineNoFormat],
      [{ machineNo: 'OK-1' }, m.machineNameRequired],
      [{ machineNo: 'OK-1', machineName: '名'.repeat(65) }, m.nameTooLong],
      [{ machineNo: 'OK-1', machineName: 'x', address: '址'.repeat(256) }, m.addressTooLong],
      [{ machineNo: 'OK-1', machineName: 'x', status: 7 }, m.statusValue],
      [{ machineNo: 'OK-1', machineName: 'x', deptId: 999999 }, m.deptNotFound],
      [{ machineNo: 'DUP-1', machineName: '又一个' }, m.machineNoTaken],
      [{ machineId: 999999, machineNo: 'OK-2', machineName: 'x' }, messages.common.notFoundRecord],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await save(body);
      expect(status, JSON.stringify(body).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      expect(answer).toMatchObject({ success: false, msg: message, errorInfo: message });
    }
    const huge = await save({ machineNo: 'BIG-1', machineName: 'x'.repeat(10 * 1024 * 1024) });
    expect([huge.status, huge.body.msg]).toEqual([413, messages.common.bodyTooLarge]);
    expect(await machineCount()).toBe(before);
  });

  it('refuses to delete a machine with orders or terminal configs, all or none', async () => {
    const a = (await save({ machineNo: 'DEL-A', machineName: '有订单' })).body.data.machineId;
    const b = (await save({ machineNo: 'DEL-B', machineName: '无订单' })).body.data.machineId;
    await insertOrder(t.ctx.db, { machineNo: 'DEL-A' });
    const refused = await t.call('DELETE', `/api/Machine/delete?ids=${b},${a}`, { token });
    expect([refused.status, refused.body.msg]).toEqual([400, fill(m.hasOrders, { machineNo: 'DEL-A' })]);
    expect((await list({ machineNo: 'DEL-' })).body.total).toBe(2);
    // a machine number that orders name cannot change either
    expect((await save({ machineId: a, machineNo: 'DEL-A2', machineName: '改号' })).body.msg).toBe(m.machineNoLocked);

    const now = Date.now();
    await t.ctx.db.insertInto('pay_terminal_config').values({ deptId: 1, machineNo: 'DEL-B', payType: PayType.wechat, configId: 1, configName: 'x', addTime: now, editTime: now }).execute();
    expect((await t.call('DELETE', `/api/Machine/delete?ids=${b}`, { token })).body.msg).toBe(fill(m.hasTerminalConfigs, { machineNo: 'DEL-B' }));
    expect((await save({ machineId: b, machineNo: 'DEL-B', machineName: '换公司', deptId: otherDeptId })).body.msg).toBe(m.deptLocked);
    await t.ctx.db.deleteFrom('pay_terminal_config').where('machineNo', '=', 'DEL-B').execute();
    await t.call('POST', '/api/Aisle/createGrid', { token, body: { machineId: b, layers: 1, columns: 2, capacity: 5, price: '1' } });
    expect((await t.call('DELETE', `/api/Machine/delete?ids=${b}`, { token })).body.success).toBe(true);
    // its aisles went with it
    expect(await t.ctx.db.selectFrom('pay_aisle').select('aisleId').where('machineId', '=', b).execute()).toEqual([]);
    expect((await t.call('DELETE', `/api/Machine/delete?ids=999999`, { token })).body.msg).toBe(messages.common.notFoundRecord);
  });

  it('keeps each company to its own machines', async () => {
    const demo = (await list({ machineNo: 'DEMO-0001' })).body.data[0];
    expect(demo).toBeDefined();
    // the other company's administrator sees none of the demo company's machines …
    expect((await list({ machineNo: 'DEMO' }, otherToken)).body.total).toBe(0);
    // … and can change none of them
    const refusals = [
      await save({ machineNo: 'X-1', machineName: 'x', deptId: 1 }, otherToken),
      await save({ machineId: demo.machineId, machineNo: 'DEMO-0001', machineName: '抢走' }, otherToken),
      await t.call('DELETE', `/api/Machine/delete?ids=${demo.machineId}`, { token: otherToken }),
      await t.call('POST', '/api/Machine/status', { token: otherToken, body: { machineId: demo.machineId, status: 0 } }),
      await t.call('POST', '/api/Machine/resetKey', { token: otherToken, body: { machineId: demo.machineId } }),
      await t.call('POST', '/api/Aisle/grid', { token: otherToken, body: { machineId: demo.machineId } }),
      await t.call('POST', '/api/Aisle/restock', { token: otherToken, body: { machineId: demo.machineId } }),
    ];
    for (const { status, body } of refusals) expect([status, body.msg]).toEqual([403, messages.common.outOfScope]);
    expect((await list({ machineNo: 'DEMO-0001' })).body.data[0]).toMatchObject({ machineName: demo.machineName, status: demo.status });

    // its own machine lands in its own company without naming one
    const own = await save({ machineNo: 'OTHER-1', machineName: '别家机器' }, otherToken);
    expect(own.body.success).toBe(true);
    expect((await list({ machineNo: 'OTHER-1' }, otherToken)).body.data[0]).toMatchObject({ deptId: otherDeptId, deptName: '别家公司' });
    expect((await t.call('POST', '/api/Dept/choices', { token: otherToken, body: {} })).body.data).toEqual([{ deptId: otherDeptId, deptName: '别家公司' }]);
    const options = (await t.call('POST', '/api/Machine/options', { token: otherToken, body: { keyword: '' } })).body.data;
    expect(options.map((o: { machineNo: string }) => o.machineNo)).toEqual(['OTHER-1']);

    // an ordinary user has no machine screen
    await t.createUser({ userName: 'machine-ordinary' });
    const ordinary = await t.login('machine-ordinary', 'User@12345');
    expect((await list({}, ordinary)).body.msg).toBe(messages.common.forbidden);
  });

  it('filters by number, name and status; online means seen in the last 120 s', async () => {
    const on = (await save({ machineNo: 'SEEN-1', machineName: '刚上线' })).body.data.machineId;
    const off = (await save({ machineNo: 'SEEN-2', machineName: '早离线', status: MachineStatus.disabled })).body.data.machineId;
    const now = Date.now();
    await t.ctx.db.updateTable('pay_machine').set({ lastSeenAt: now - 60_000 }).where('machineId', '=', on).execute();
    await t.ctx.db.updateTable('pay_machine').set({ lastSeenAt: now - 121_000 }).where('machineId', '=', off).execute();
    const rows = (await list({ machineNo: 'seen-' })).body.data as { machineNo: string; online: boolean; lastSeenAt: string }[];
    expect(rows.map((r) => [r.machineNo, r.online])).toEqual([['SEEN-2', false], ['SEEN-1', true]]); // newest first
    expect(rows[0]!.lastSeenAt).toMatch(/^\d{4}-/);
    expect((await list({ machineNo: 'SEEN-', status: '0' })).body.data.map((r: { machineNo: string }) => r.machineNo)).toEqual(['SEEN-2']);
    expect((await list({ machineName: '刚上' })).body.data.map((r: { machineNo: string }) => r.machineNo)).toEqual(['SEEN-1']);
    const sorted = await list({ machineNo: 'SEEN-', sortField: 'machineNo', sortOrder: 'ascend' });
    expect(sorted.body.data.map((r: { machineNo: string }) => r.machineNo)).toEqual(['SEEN-1', 'SEEN-2']);

    const enabled = await t.call('POST', '/api/Machine/status', { token, body: { machineId: off, status: 1 } });
    expect(enabled.body).toMatchObject({ success: true, msg: m.statusChanged });
    expect((await list({ machineNo: 'SEEN-2' })).body.data[0].status).toBe(MachineStatus.enabled);
    expect((await t.call('POST', '/api/Machine/status', { token, body: { machineId: off, status: 3 } })).body.msg).toBe(m.statusValue);
  });
});

describe('the terminal key at rest', () => {
  it.skipIf(testDbKind() !== 'sqlite')('is nowhere in clear in the database file, whatever was done with the machine', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-machine-key-'));
    const config = loadConfig({ ADMIN_PASSWORD, DATA_DIR: dataDir, LOGIN_SLOWDOWN_MS: '0', LOG_LEVEL: 'silent' });
    const { app } = await buildApp(config, { logger: false });
    try {
      const call = async (method: 'POST' | 'DELETE', url: string, body?: object, token?: string) =>
        (await app.inject({ method, url, headers: token ? { token } : {}, ...(body ? { payload: body } : {}) })).json();
      const token = (await call('POST', '/sync/login', { userName: 'admin', passwd: ADMIN_PASSWORD })).data.token as string;
      const created = await call('POST', '/api/Machine/save', { machineNo: 'RAW-1', machineName: '落盘' }, token);
      const keys = [created.data.terminalKey as string];
      keys.push((await call('POST', '/api/Machine/resetKey', { machineId: created.data.machineId }, token)).data.terminalKey);
      await call('POST', '/api/Machine/save', { machineId: created.data.machineId, machineNo: 'RAW-1', machineName: '落盘（改）' }, token);
      await call('POST', '/api/Machine/list', { page: 1, limit: 10 }, token);
      await app.close();
      const files = fs.readdirSync(dataDir).filter((f) => f.startsWith('huiyun.db'));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const bytes = fs.readFileSync(path.join(dataDir, file));
        for (const key of keys) expect(bytes.includes(Buffer.from(key)), `${file} holds a terminal key`).toBe(false);
      }
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
