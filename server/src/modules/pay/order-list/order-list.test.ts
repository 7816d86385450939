import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, OrderStatus, PayType, RoleId, shanghaiDayStart, TransType } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { insertOrder, insertOrders, type OrderValues } from '../../../test/orders.ts';
import { readXlsxExport } from '../../../test/xlsx-export.ts';

const m = messages.order;

let t: TestApp;
let token: string;
let otherToken: string;
let otherDeptId: number;

const HOUR = 3_600_000;
const day1 = shanghaiDayStart('2026-03-01')!;
const day2 = shanghaiDayStart('2026-03-02')!;

/** An order of this file's screen: a 3.50 yuan cola of machine OL-1, with every column the list and sheet show. */
const insertListedOrder = (o: Partial<OrderValues> & Pick<OrderValues, 'orderNo' | 'createTime'>) => insertOrder(t.ctx.db, {
  machineNo: 'OL-1', goodsNo: 'G1', goodsName: '可乐', goodsPrice: 350, aisleNo: 'A1', openId: 'oOPEN', mchId: 'MCH1', subMchId: 'SUB1',
  payTime: o.createTime + 1000, ...o,
});

let paidId: number;
beforeAll(async () => {
  t = await startTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  otherDeptId = await t.createCompany('订单别家公司', 'OTHER-OL');
  await t.createUser({ userName: 'order-other-admin', roleId: RoleId.companyAdmin, deptId: otherDeptId });
  otherToken = await t.login('order-other-admin', 'User@12345');
  paidId = await insertListedOrder({ orderNo: 'OL20260301A', transId: 'WX-0001', payType: PayType.wechat, orderStatus: OrderStatus.dispensed, createTime: day1 + 10 * HOUR, refundedAmount: 150 });
  await insertListedOrder({ orderNo: 'OL20260301A-R1', parentId: paidId, transType: TransType.refund, payAmount: -150, orderStatus: OrderStatus.refunded, createTime: day1 + 11 * HOUR });
  await insertListedOrder({ orderNo: 'OL20260301B', transId: 'ALI-0002', payType: PayType.alipay, orderStatus: OrderStatus.paid, machineNo: 'OL-2', createTime: day1 + 12 * HOUR });
  await insertListedOrder({ orderNo: 'OL20260302C', payType: PayType.alipay, orderStatus: 7, machineNo: 'OL-2', createTime: day2 + 1 * HOUR, payTime: null });
  await insertListedOrder({ orderNo: 'OL20260302D', deptId: otherDeptId, machineNo: 'OL-9', createTime: day2 + 2 * HOUR });
});
afterAll(async () => t?.close());

const list = (body: Record<string, unknown> = {}, as = token) => t.call('POST', '/api/Order/list', { token: as, body: { page: 1, limit: 20, ...body } });
const orderNos = async (body: Record<string, unknown>, as = token) => {
  const answer = await list(body, as);
  expect(answer.body.success).toBe(true);
  return (answer.body.data as { orderNo: string }[]).map((o) => o.orderNo);
};

describe('交易订单', () => {
  it('lists every order of the super administrator, newest first, amounts in yuan, times in Shanghai', async () => {
    const answer = await list();
    expect(answer.body.total).toBe(5);
    expect((answer.body.data as { orderNo: string }[]).map((o) => o.orderNo)).toEqual(['OL20260302D', 'OL20260302C', 'OL20260301B', 'OL20260301A-R1', 'OL20260301A']);
    const paid = answer.body.data.find((o: { orderNo: string }) => o.orderNo === 'OL20260301A');
    expect(paid).toMatchObject({
      orderId: paidId, deptId: 1, deptName: '汇云演示公司', transId: 'WX-0001', payType: PayType.wechat, transType: TransType.consume,
      machineNo: 'OL-1', goodsNo: 'G1', goodsName: '可乐', goodsPrice: '3.50', payAmount: '3.50', aisleNo: 'A1', orderStatus: OrderStatus.dispensed,
      openId: 'oOPEN', mchId: 'MCH1', subMchId: 'SUB1', createTime: '2026-03-01 10:00:00', payTime: '2026-03-01 10:00:01',
      refundedAmount: '1.50', refundableAmount: '2.00', parentId: null, failReason: '',
    });
    expect(answer.body.data.find((o: { orderNo: string }) => o.orderNo === 'OL20260301A-R1')).toMatchObject({ payAmount: '-1.50', transType: TransType.refund, parentId: paidId, refundableAmount: '0.00' });
    expect(answer.body.data.find((o: { orderNo: string }) => o.orderNo === 'OL20260302C')).toMatchObject({ refundableAmount: '0.00' });
    expect(answer.body.data.find((o: { orderNo: string }) => o.orderNo === 'OL20260302C')).toMatchObject({ payTime: '', orderStatus: 7 });
    expect(await orderNos({ sortField: 'createTime', sortOrder: 'ascend', limit: 2 })).toEqual(['OL20260301A', 'OL20260301A-R1']);
  });

  it('filters by each field exactly, and by them together', async () => {
    expect(await orderNos({ orderNo: 'OL20260301B' })).toEqual(['OL20260301B']);
    expect(await orderNos({ orderNo: 'OL20260301' })).toEqual([]); // exact, not a part
    expect(await orderNos({ transId: 'ALI-0002' })).toEqual(['OL20260301B']);
    expect(await orderNos({ machineNo: 'OL-2' })).toEqual(['OL20260302C', 'OL20260301B']);
    expect(await orderNos({ payType: PayType.alipay })).toEqual(['OL20260302C', 'OL20260301B']);
    expect(await orderNos({ payType: String(PayType.alipay), orderStatus: String(OrderStatus.paid) })).toEqual(['OL20260301B']);
    expect(await orderNos({ orderStatus: OrderStatus.refunded })).toEqual(['OL20260301A-R1']);
    expect(await orderNos({ payType: '', orderStatus: '', machineNo: '', start: '', end: '' })).toHaveLength(5);
    expect(await orderNos({ deptId: otherDeptId })).toEqual(['OL20260302D']);
    expect(await orderNos({ start: '2026-03-01', end: '2026-03-01' })).toEqual(['OL20260301B', 'OL20260301A-R1', 'OL20260301A']);
    expect(await orderNos({ start: '2026-03-02' })).toEqual(['OL20260302D', 'OL20260302C']);
    expect(await orderNos({ end: '2026-02-28' })).toEqual([]);
  });

  it("keeps a company administrator to its own company's orders", async () => {
    expect(await orderNos({}, otherToken)).toEqual(['OL20260302D']);
    expect(await orderNos({ orderNo: 'OL20260301A' }, otherToken)).toEqual([]);
    const foreign = await list({ deptId: 1 }, otherToken);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ success: false, msg: messages.common.outOfScope });
    const detail = await t.call('POST', '/api/Order/detail', { token: otherToken, body: { orderId: paidId } });
    expect(detail.status).toBe(404);
    expect(detail.body.msg).toBe(m.notFound);
    const depts = await t.call('POST', '/api/Dept/choices', { token: otherToken, body: {} });
    expect(depts.body.data).toEqual([{ deptId: otherDeptId, deptName: '订单别家公司' }]);
  });

  it('refuses bad input with a message naming the field, never a 500', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ payType: 7 }, m.payTypeInvalid],
      [{ payType: 'wechat' }, m.payTypeInvalid],
      [{ orderStatus: 99 }, m.orderStatusInvalid],
      [{ orderStatus: 1.5 }, m.orderStatusInvalid],
      [{ machineNo: "x' or 1=1" }, m.machineNoInvalid],
      [{ machineNo: 'M'.repeat(33) }, m.machineNoInvalid],
      [{ orderNo: 'O'.repeat(65) }, m.orderNoInvalid],
      [{ transId: 'a\u0000b' }, m.transIdInvalid],
      [{ deptId: 'abc' }, m.deptInvalid],
      [{ start: '2026-02-30' }, m.startInvalid],
      [{ end: '03/01/2026' }, m.endInvalid],
      [{ start: '2026-03-02', end: '2026-03-01' }, m.dateOrder],
    ];
    for (const [body, msg] of cases) {
      const answer = await list(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body, JSON.stringify(body)).toMatchObject({ success: false, msg });
    }
    const detail = await t.call('POST', '/api/Order/detail', { token, body: { orderId: 'x' } });
    expect(detail.status).toBe(400);
    expect(detail.body.msg).toBe(m.orderRequired);
  });

  it('previews an order with every field and its refunds', async () => {
    const answer = await t.call('POST', '/api/Order/detail', { token, body: { orderId: paidId } });
    expect(answer.body.success).toBe(true);
    expect(answer.body.data.order).toMatchObject({ orderNo: 'OL20260301A', payAmount: '3.50', remark: '', deptName: '汇云演示公司' });
    expect(answer.body.data.refunds.map((r: { orderNo: string; payAmount: string }) => [r.orderNo, r.payAmount])).toEqual([['OL20260301A-R1', '-1.50']]);
    const other = (await list({ orderNo: 'OL20260301B' })).body.data[0].orderId as number;
    expect((await t.call('POST', '/api/Order/detail', { token, body: { orderId: other } })).body.data.refunds).toEqual([]);
    expect((await t.call('POST', '/api/Order/detail', { token, body: { orderId: 99_999_999 } })).status).toBe(404);
  });

  it('exports the filtered orders with labels and yuan amounts', async () => {
    const answer = await t.call('POST', '/api/Order/export', { token, body: { payType: PayType.alipay } });
    const rows = await readXlsxExport(answer.raw, m.title);
    expect(rows[0]).toEqual(expect.arrayContaining([m.orderNo, m.transId, m.machineNo, m.payType, m.payAmount, m.orderStatus]));
    expect(rows).toHaveLength(3);
    const header = rows[0] as string[];
    const b = rows.find((r) => r[header.indexOf(m.orderNo)] === 'OL20260301B')!;
    expect(b[header.indexOf(m.payType)]).toBe('支付宝');
    expect(b[header.indexOf(m.orderStatus)]).toBe('已支付');
    expect(b[header.indexOf(m.payAmount)]).toBe('3.50');
    expect(b[header.indexOf(m.transType)]).toBe(m.transConsume);
    const c = rows.find((r) => r[header.indexOf(m.orderNo)] === 'OL20260302C')!;
    expect(c[header.indexOf(m.orderStatus)]).toBe('未知状态 7');
    const scoped = await readXlsxExport((await t.call('POST', '/api/Order/export', { token: otherToken, body: {} })).raw);
    expect(scoped.slice(1).map((r) => r[0])).toEqual(['OL20260302D']);
  });

  it('streams an export larger than a page: every order once, newest first, ties by id (keyset across pages)', async () => {
    const base = day2 + 5 * HOUR;
    const rows = Array.from({ length: 4_500 }, (_, i) => ({
      orderNo: `BULK-${String(i).padStart(5, '0')}`, payType: PayType.cash, machineNo: 'BULK-1',
      createTime: base + Math.floor(i / 7) * 1000, payTime: null, // 7 orders a second: ties straddle every page
    }));
    await insertOrders(t.ctx.db, rows);
    const sheet = await readXlsxExport((await t.call('POST', '/api/Order/export', { token, body: { machineNo: 'BULK-1' } })).raw, m.title);
    const exported = sheet.slice(1).map((r) => r[0] as string);
    expect(exported).toHaveLength(4_500);
    expect(new Set(exported).size).toBe(4_500);
    // newest first; within a second, the later insert (higher id) first
    expect(exported).toEqual(rows.map((r) => r.orderNo).reverse());
    const ascending = await readXlsxExport((await t.call('POST', '/api/Order/export', { token, body: { machineNo: 'BULK-1', sortField: 'createTime', sortOrder: 'ascend' } })).raw);
    expect(ascending.slice(1).map((r) => r[0])).toEqual(rows.map((r) => r.orderNo));
    // a company outside the caller's scope is refused before any byte of a file
    const refused = await t.call('POST', '/api/Order/export', { token: otherToken, body: { deptId: 1 } });
    expect(refused.status).toBe(403);
    expect(refused.body.success).toBe(false);
  });

  it('is refused without the permission', async () => {
    expect((await t.call('POST', '/api/Order/list', { body: {} })).status).toBe(401);
  });
});
