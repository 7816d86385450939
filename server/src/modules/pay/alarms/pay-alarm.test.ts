import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, OrderStatus, PayAlarmKind, PayType, RoleId, shanghaiDayStart } from '@huiyun/contract';
import { startTestApp, USER_PASSWORD, type TestApp } from '../../../test/harness.ts';
import { twoCompanies, type TwoCompanies } from '../../../test/companies.ts';
import { insertOrder } from '../../../test/orders.ts';
import { readXlsxExport } from '../../../test/xlsx-export.ts';
import { SIM_NOTIFY_PATH, type SimulatedPlatform } from '../gateways/index.ts';
import type { Payments } from '../orders/index.ts';

// 支付告警 (/pay/Alarm) on SQLite and (TEST_DATABASE_URL) PostgreSQL: the list and its filters, the data
// scope (a company administrator sees its own company's alarms; an unknown order's only the super
// administrator), the permission, bad input, and alarms written by the payment half itself.

const m = messages.payAlarm;
let t: TestApp;
let rt: Payments;
let sim: SimulatedPlatform;
let c: TwoCompanies;
let demoToken: string;

const HOUR = 3_600_000;
const day1 = shanghaiDayStart('2026-04-01')!;
const day2 = shanghaiDayStart('2026-04-02')!;

type Seed = { kind: string; orderNo: string; deptId: number; machineNo?: string; detail?: string; createTime: number };
const insertAlarm = (a: Seed) => t.ctx.db.insertInto('pay_alarm').values({ machineNo: 'PA-1', detail: '通知金额 0.01 元，订单金额 2.50 元', ...a }).execute();

beforeAll(async () => {
  t = await startTestApp();
  rt = t.payments;
  sim = rt.simulated;
  c = await twoCompanies(t, 'pa', '告警');
  await t.createUser({ userName: 'pa_demo', roleId: RoleId.demo, deptId: c.companyA });
  demoToken = await t.login('pa_demo', USER_PASSWORD);
  await insertAlarm({ kind: PayAlarmKind.notifyMismatch, orderNo: 'PA-A1', deptId: c.companyA, createTime: day1 + 9 * HOUR });
  await insertAlarm({ kind: PayAlarmKind.latePayment, orderNo: 'PA-A2', deptId: c.companyA, machineNo: 'PA-2', createTime: day1 + 10 * HOUR });
  await insertAlarm({ kind: PayAlarmKind.autoRefundFailed, orderNo: 'PA-B1', deptId: c.companyB, machineNo: 'PA-3', createTime: day2 + 1 * HOUR });
  await insertAlarm({ kind: PayAlarmKind.notifyMismatch, orderNo: 'PA-X1', deptId: 0, machineNo: '', createTime: day2 + 2 * HOUR }); // order unknown
  await insertAlarm({ kind: 'someFutureKind', orderNo: 'PA-A3', deptId: c.companyA, createTime: day2 + 3 * HOUR });
});
afterAll(async () => {
  await rt?.settled();
  await rt?.stop();
  await t?.close();
});

const list = (body: Record<string, unknown> = {}, as = c.admin) => t.call('POST', '/api/PayAlarm/list', { token: as, body: { page: 1, limit: 20, ...body } });
const orderNos = async (body: Record<string, unknown>, as = c.admin) => {
  const answer = await list(body, as);
  expect(answer.body.success, answer.body.msg).toBe(true);
  return (answer.body.data as { orderNo: string }[]).map((a) => a.orderNo).filter((no) => no.startsWith('PA-'));
};

describe('支付告警', () => {
  it('lists every alarm of the super administrator, newest first, with company and Shanghai times', async () => {
    const answer = await list();
    expect(answer.body.total).toBe(5);
    expect(answer.body.data.map((a: { orderNo: string }) => a.orderNo)).toEqual(['PA-A3', 'PA-X1', 'PA-B1', 'PA-A2', 'PA-A1']);
    expect(answer.body.data.find((a: { orderNo: string }) => a.orderNo === 'PA-A2')).toEqual({
      alarmId: expect.any(Number), kind: PayAlarmKind.latePayment, orderNo: 'PA-A2', machineNo: 'PA-2', deptId: c.companyA, deptName: '告警A公司',
      detail: '通知金额 0.01 元，订单金额 2.50 元', createTime: '2026-04-01 10:00:00',
    });
    expect(answer.body.data.find((a: { orderNo: string }) => a.orderNo === 'PA-X1')).toMatchObject({ deptId: 0, deptName: '' });
    expect(await orderNos({ sortField: 'createTime', sortOrder: 'ascend', limit: 2 })).toEqual(['PA-A1', 'PA-A2']);
    expect((await list({ limit: 2, page: 2 })).body).toMatchObject({ total: 5 });
  });

  it('filters by kind, order number, terminal, company and days, each exactly, and together', async () => {
    expect(await orderNos({ kind: PayAlarmKind.notifyMismatch })).toEqual(['PA-X1', 'PA-A1']);
    expect(await orderNos({ kind: PayAlarmKind.autoRefundFailed })).toEqual(['PA-B1']);
    expect(await orderNos({ orderNo: 'PA-A2' })).toEqual(['PA-A2']);
    expect(await orderNos({ orderNo: 'PA-A' })).toEqual([]); // exact, not a part
    expect(await orderNos({ machineNo: 'PA-3' })).toEqual(['PA-B1']);
    expect(await orderNos({ deptId: c.companyA })).toEqual(['PA-A3', 'PA-A2', 'PA-A1']);
    expect(await orderNos({ deptId: String(c.companyA), kind: PayAlarmKind.notifyMismatch })).toEqual(['PA-A1']);
    expect(await orderNos({ start: '2026-04-01', end: '2026-04-01' })).toEqual(['PA-A2', 'PA-A1']);
    expect(await orderNos({ start: '2026-04-02' })).toEqual(['PA-A3', 'PA-X1', 'PA-B1']);
    expect(await orderNos({ end: '2026-03-31' })).toEqual([]);
    expect(await orderNos({ kind: '', orderNo: '', machineNo: '', deptId: '', start: '', end: '' })).toHaveLength(5);
  });

  it("keeps a company administrator to its own company's alarms; an unknown order's alarm is the super administrator's only", async () => {
    expect(await orderNos({}, c.adminA)).toEqual(['PA-A3', 'PA-A2', 'PA-A1']);
    expect(await orderNos({}, c.adminB)).toEqual(['PA-B1']);
    expect(await orderNos({ orderNo: 'PA-X1' }, c.adminA)).toEqual([]);
    const foreign = await list({ deptId: c.companyB }, c.adminA);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ success: false, msg: messages.common.outOfScope });
    const depts = await t.call('POST', '/api/Dept/choices', { token: c.adminB, body: {} });
    expect(depts.body.data).toEqual([{ deptId: c.companyB, deptName: '告警B公司' }]);
    const scoped = await readXlsxExport((await t.call('POST', '/api/PayAlarm/export', { token: c.adminB, body: {} })).raw, m.title);
    expect(scoped.slice(1).map((r) => r[2])).toEqual(['PA-B1']);
  });

  it('refuses a caller without the code (an ordinary user, the demo role) and one without a session', async () => {
    for (const token of [c.userA, demoToken]) {
      for (const url of ['/api/PayAlarm/list', '/api/PayAlarm/export']) {
        const answer = await t.call('POST', url, { token, body: {} });
        expect(answer.status, url).toBe(403);
        expect(answer.body).toMatchObject({ success: false, msg: messages.common.forbidden });
      }
    }
    expect((await t.call('POST', '/api/PayAlarm/list', { body: {} })).status).toBe(401);
  });

  it('refuses bad input with a Chinese message naming the field, never a 500', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'nope' }, m.kindInvalid],
      [{ kind: 3 }, m.kindInvalid],
      [{ orderNo: 'O'.repeat(65) }, m.orderNoInvalid],
      [{ orderNo: 'a\u0000b' }, m.orderNoInvalid],
      [{ machineNo: "x' or 1=1" }, m.machineNoInvalid],
      [{ deptId: 'abc' }, m.deptInvalid],
      [{ deptId: -1 }, m.deptInvalid],
      [{ start: '2026-02-30' }, m.startInvalid],
      [{ end: '04/01/2026' }, m.endInvalid],
      [{ start: '2026-04-02', end: '2026-04-01' }, m.dateOrder],
    ];
    for (const [body, msg] of cases) {
      const answer = await list(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body, JSON.stringify(body)).toMatchObject({ success: false, msg });
    }
  });

  it('exports the filtered alarms with the kinds as labels', async () => {
    const rows = await readXlsxExport((await t.call('POST', '/api/PayAlarm/export', { token: c.admin, body: { deptId: c.companyA } })).raw, m.title);
    expect(rows[0]).toEqual([m.createTime, m.kind, m.orderNo, m.machineNo, m.deptName, m.detail]);
    expect(rows.slice(1).map((r) => [r[1], r[2]])).toEqual([['someFutureKind', 'PA-A3'], [m.kindLatePayment, 'PA-A2'], [m.kindNotifyMismatch, 'PA-A1']]);
  });
});

describe('alarms the payment half writes', () => {
  let configId: number;
  beforeAll(async () => {
    const now = Date.now();
    configId = (await t.ctx.db.insertInto('pay_config').values({ deptId: c.companyB, name: '告警-模拟网关', payType: PayType.wechat, gateway: 'simulator', partner: 'MCH-PA', appid: 'APP-PA', addTime: now, editTime: now })
      .returning('id').executeTakeFirstOrThrow()).id;
  });

  async function orderOfB(orderNo: string, status: number, extra: { refundNeeded?: number; paid?: boolean } = {}) {
    const now = Date.now();
    await insertOrder(t.ctx.db, {
      deptId: c.companyB, orderNo, transId: extra.paid ? `SIM-${orderNo}` : '', machineNo: 'PA-B-9', goodsName: '可乐', goodsPrice: 250, aisleNo: 'A1',
      orderStatus: status, mchId: 'MCH-PA', createTime: now, payTime: extra.paid ? now : null, configId, expireAt: now + 300_000, updateTime: now,
      refundNeeded: extra.refundNeeded ?? 0,
    });
    if (extra.paid) {
      await t.ctx.db.insertInto('pay_sim_payment').values({ orderNo, configId, amount: 250, mchId: 'MCH-PA', appId: 'APP-PA', notifyUrl: 'http://127.0.0.1/gateway/simulator/notify', status: 'paid', transId: `SIM-${orderNo}`, expireAt: now, createTime: now, payTime: now }).execute();
    }
  }

  it('shows a signed notification whose amount differs from the order to its company, with the terminal', async () => {
    const orderNo = `PAN${Date.now()}`;
    await orderOfB(orderNo, OrderStatus.processing);
    const raw = JSON.stringify({ orderNo, transId: 'SIM-WRONG', amount: 1, mchId: 'MCH-PA', appId: 'APP-PA', payTime: Date.now(), notifyId: 'n1' });
    const timestamp = String(Date.now());
    const notified = await t.app.inject({
      method: 'POST', url: SIM_NOTIFY_PATH, payload: raw,
      headers: { 'content-type': 'application/json', 'x-sim-timestamp': timestamp, 'x-sim-signature': sim.sign({ id: configId, partnerKey: '' }, timestamp, raw) },
    });
    expect(notified.statusCode).toBe(400);
    const seen = (await list({ orderNo }, c.adminB)).body.data;
    expect(seen).toMatchObject([{ kind: PayAlarmKind.notifyMismatch, orderNo, machineNo: 'PA-B-9', deptId: c.companyB, deptName: '告警B公司', detail: '通知金额 0.01 元，订单金额 2.50 元' }]);
    expect((await list({ orderNo }, c.adminA)).body.data).toEqual([]);
  });

  it('shows an automatic refund the gateway refused to the order’s company', async () => {
    const orderNo = `PAR${Date.now()}`;
    await orderOfB(orderNo, OrderStatus.dispenseFailed, { refundNeeded: 1, paid: true });
    sim.options.refundFails = true;
    try {
      await rt.sweepRefunds();
    } finally {
      sim.options.refundFails = false;
    }
    const seen = (await list({ orderNo, kind: PayAlarmKind.autoRefundFailed }, c.adminB)).body.data;
    expect(seen).toMatchObject([{ kind: PayAlarmKind.autoRefundFailed, orderNo, machineNo: 'PA-B-9', deptId: c.companyB }]);
    expect(seen[0].detail).toMatch(new RegExp(`^退款单 ${orderNo}R[0-9a-fA-F]+ 失败：`));
  });
});
