import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, messages, type Aisle } from '@huiyun/contract';
import { companyWithAdmin } from '../../../test/companies.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';

const a = messages.aisle;

let t: TestApp;
let token: string;
let machineId: number;
beforeAll(async () => {
  t = await startTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  machineId = (await t.call('POST', '/api/Machine/save', { token, body: { machineNo: 'AISLE-1', machineName: '货道测试机' } })).body.data.machineId;
});
afterAll(async () => t?.close());

const call = (url: string, body: unknown) => t.call('POST', url, { token, body });
const grid = async (id = machineId) => (await call('/api/Aisle/grid', { machineId: id })).body.data as { machine: { machineNo: string }; aisles: Aisle[] };
const aisle = async (aisleNo: string) => (await grid()).aisles.find((x) => x.aisleNo === aisleNo)!;
const storedRows = async () => t.ctx.db.selectFrom('pay_aisle').selectAll().where('machineId', '=', machineId).orderBy('aisleId').execute();

describe('货道信息', () => {
  it('creates a grid of layers × columns, leaving existing cells alone', async () => {
    const first = await call('/api/Aisle/createGrid', { machineId, layers: 2, columns: 3, capacity: 8, price: '2.5' });
    expect(first.body).toMatchObject({ success: true, msg: fill(a.gridCreated, { created: 6, kept: 0 }) });
    const shown = await grid();
    expect(shown.machine.machineNo).toBe('AISLE-1');
    expect(shown.aisles.map((x) => x.aisleNo)).toEqual(['A1', 'A2', 'A3', 'B1', 'B2', 'B3']);
    expect(shown.aisles[0]).toMatchObject({ layer: 1, aisleColumn: 1, price: '2.50', capacity: 8, stock: 0, status: 1 });
    expect((await storedRows())[0]!.price).toBe(250);

    await call('/api/Aisle/save', { ...(await aisle('A1')), price: '9.99', stock: 3 });
    const second = await call('/api/Aisle/createGrid', { machineId, layers: 3, columns: 3, capacity: 5, price: '1' });
    expect(second.body.msg).toBe(fill(a.gridCreated, { created: 3, kept: 6 }));
    expect(await aisle('A1')).toMatchObject({ price: '9.99', stock: 3, capacity: 8 });
    expect(await aisle('C3')).toMatchObject({ price: '1.00', capacity: 5 });
    expect((await call('/api/Aisle/createGrid', { machineId, layers: 1, columns: 1, capacity: 5, price: '1' })).body.msg).toBe(a.gridNothingNew);
  });

  it('edits an aisle with the price in yuan, stored as whole fen', async () => {
    const b2 = await aisle('B2');
    const saved = await call('/api/Aisle/save', { ...b2, goodsNo: 'G-01', goodsName: '矿泉水', price: '3.5', capacity: 10, stock: 10 });
    expect(saved.body).toMatchObject({ success: true, msg: a.saved, data: { aisleId: b2.aisleId, aisleNo: 'B2' } });
    expect(await aisle('B2')).toMatchObject({ goodsNo: 'G-01', goodsName: '矿泉水', price: '3.50', capacity: 10, stock: 10 });
    const row = (await storedRows()).find((r) => r.aisleId === b2.aisleId)!;
    expect(row.price).toBe(350);
    await call('/api/Aisle/save', { ...b2, price: 0.29, capacity: 10, stock: 0 });
    expect((await storedRows()).find((r) => r.aisleId === b2.aisleId)!.price).toBe(29);

    // a new single aisle, and one on a taken cell
    const added = await call('/api/Aisle/save', { machineId, layer: 4, aisleColumn: 1, goodsName: '新品', price: '12', capacity: 6, stock: 6 });
    expect(added.body.data.aisleNo).toBe('D1');
    const taken = await call('/api/Aisle/save', { machineId, layer: 4, aisleColumn: 1, price: '1', capacity: 1, stock: 0 });
    expect(taken.body.msg).toBe(fill(a.aisleTaken, { aisleNo: 'D1' }));
  });

  it('refuses bad values with a message naming the field, writing nothing', async () => {
    const a1 = await aisle('A1');
    const before = JSON.stringify(await storedRows());
    const cases: [Record<string, unknown>, string][] = [
      [{ price: '1.234' }, a.priceFormat],
      [{ price: 1.234 }, a.priceFormat],
      [{ price: '-1' }, a.priceFormat],
      [{ price: '' }, a.priceRequired],
      [{ price: 'abc' }, a.priceFormat],
      [{ capacity: 5, stock: 6 }, a.stockOverCapacity],
      [{ stock: -1 }, a.stockRange],
      [{ capacity: 1000 }, a.capacityRange],
      [{ layer: 27 }, a.layerRange],
      [{ aisleColumn: 0 }, a.columnRange],
      [{ goodsNo: '含空格 1' }, a.goodsNoFormat],
      [{ goodsName: '名'.repeat(65) }, a.goodsNameTooLong],
      [{ status: 2 }, a.statusValue],
      [{ machineId: undefined }, messages.machine.machineRequired],
      [{ aisleId: 999999 }, messages.common.notFoundRecord],
    ];
    for (const [change, message] of cases) {
      const { status, body } = await call('/api/Aisle/save', { ...a1, ...change });
      expect(status, JSON.stringify(change)).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      expect(body).toMatchObject({ success: false, msg: message, errorInfo: message });
    }
    const grids: [Record<string, unknown>, string][] = [
      [{ layers: 0 }, a.layerRange],
      [{ columns: 100 }, a.columnRange],
      [{ price: '0.001' }, a.priceFormat],
      [{ capacity: -1 }, a.capacityRange],
    ];
    for (const [change, message] of grids) {
      expect((await call('/api/Aisle/createGrid', { machineId, layers: 1, columns: 1, capacity: 5, price: '1', ...change })).body.msg).toBe(message);
    }
    const huge = await call('/api/Aisle/save', { ...a1, goodsName: 'x'.repeat(10 * 1024 * 1024) });
    expect([huge.status, huge.body.msg]).toEqual([413, messages.common.bodyTooLarge]);
    expect(JSON.stringify(await storedRows())).toBe(before);
  });

  it('has the database keep 0 ≤ stock ≤ capacity and price ≥ 0 whatever the code does', async () => {
    const a1 = await aisle('A1');
    const update = (set: string) => sql`update pay_aisle set ${sql.raw(set)} where "aisleId" = ${a1.aisleId}`.execute(t.ctx.db);
    await expect(update('stock = capacity + 1')).rejects.toThrow();
    await expect(update('stock = -1')).rejects.toThrow();
    await expect(update('price = -1')).rejects.toThrow();
    expect(await aisle('A1')).toMatchObject({ stock: a1.stock, price: a1.price });
  });

  it('restocks one aisle or every enabled aisle of the machine, enables, disables and deletes', async () => {
    const a2 = await aisle('A2');
    const one = await call('/api/Aisle/restock', { machineId, aisleIds: [a2.aisleId] });
    expect(one.body).toMatchObject({ success: true, msg: fill(a.restocked, { count: 1 }) });
    expect((await aisle('A2')).stock).toBe(a2.capacity);

    const a3 = await aisle('A3');
    const disabled = await call('/api/Aisle/status', { aisleIds: [a3.aisleId], status: 0 });
    expect(disabled.body).toMatchObject({ success: true, msg: a.statusChanged });
    await call('/api/Aisle/restock', { machineId });
    const after = (await grid()).aisles;
    for (const x of after) {
      if (x.aisleNo === 'A3') expect(x).toMatchObject({ status: 0, stock: 0 });
      else expect(x.stock, x.aisleNo).toBe(x.capacity);
    }
    // restocking a full machine changes nothing
    expect((await call('/api/Aisle/restock', { machineId })).body.msg).toBe(fill(a.restocked, { count: 0 }));
    await call('/api/Aisle/status', { aisleIds: String(a3.aisleId), status: '1' });
    expect((await aisle('A3')).status).toBe(1);

    // another machine's aisle named with this machine is not found
    const other = (await t.call('POST', '/api/Machine/save', { token, body: { machineNo: 'AISLE-2', machineName: '另一台' } })).body.data.machineId;
    await call('/api/Aisle/createGrid', { machineId: other, layers: 1, columns: 1, capacity: 3, price: '1' });
    const otherAisle = (await grid(other)).aisles[0]!;
    expect((await call('/api/Aisle/restock', { machineId, aisleIds: [otherAisle.aisleId] })).body.msg).toBe(messages.common.notFoundRecord);
    expect((await call('/api/Aisle/save', { ...otherAisle, machineId, layer: 9, aisleColumn: 9 })).body.msg).toBe(messages.common.notFoundRecord);

    const c1 = await aisle('C1');
    const c2 = await aisle('C2');
    const refused = await t.call('DELETE', `/api/Aisle/delete?ids=${c1.aisleId},999999`, { token });
    expect(refused.body.msg).toBe(messages.common.notFoundRecord);
    expect(await aisle('C1')).toBeDefined();
    const deleted = await t.call('DELETE', `/api/Aisle/delete?ids=${c1.aisleId},${c2.aisleId}`, { token });
    expect(deleted.body).toMatchObject({ success: true, msg: a.deleted });
    expect((await grid()).aisles.map((x) => x.aisleNo)).not.toContain('C1');

    const logs = await t.ctx.db.selectFrom('sys_oper_log').select(['action', 'target']).where('module', '=', a.title).execute();
    expect(logs.map((l) => l.action)).toEqual(expect.arrayContaining([a.actionCreateGrid, a.actionRestock, a.actionStatus, messages.common.actionDelete, messages.common.actionSave]));
    expect(logs.some((l) => l.target.includes('AISLE-1:C1'))).toBe(true);
  });

  it('keeps another company out of the aisles', async () => {
    const { token: other } = await companyWithAdmin(t, '货道别家', 'OTHER-A', 'aisle-other');
    const a1 = await aisle('A1');
    const refusals = [
      await t.call('POST', '/api/Aisle/save', { token: other, body: { ...a1, stock: 0 } }),
      await t.call('POST', '/api/Aisle/createGrid', { token: other, body: { machineId, layers: 5, columns: 5, capacity: 1, price: '1' } }),
      await t.call('POST', '/api/Aisle/status', { token: other, body: { aisleIds: [a1.aisleId], status: 0 } }),
      await t.call('DELETE', `/api/Aisle/delete?ids=${a1.aisleId}`, { token: other }),
    ];
    for (const { status, body } of refusals) expect([status, body.msg]).toEqual([403, messages.common.outOfScope]);
    expect(await aisle('A1')).toEqual(a1);
  });
});
