import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, OrderStatus, PayType, ReconcileCategory, shanghaiDay, shanghaiDayStart, TransType, type ReconcileDiff, type ReconcileRun } from '@huiyun/contract';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { twoCompanies, type TwoCompanies } from '../../../test/companies.ts';
import { insertOrder } from '../../../test/orders.ts';
import { readXlsxExport } from '../../../test/xlsx-export.ts';
import { reconcileDeps } from './routes.ts';
import { reconcileDay } from './run.ts';
import { startReconcileJob } from './job.ts';
import { reconcileDb } from './tables.ts';

// 对账 on SQLite and (TEST_DATABASE_URL) PostgreSQL: a day with every kind of difference, made as orders and
// simulator payments with one side altered; midnight on both sides; the server's time zone playing no part;
// a re-run keeping notes; permissions, data scope, the operation log; bad input; the job's claim.

const m = messages.reconcile;
const HOUR = 3_600_000;
const D = '2026-03-10';
const D0 = shanghaiDayStart(D)!;
const NEXT = '2026-03-11';
const D1 = shanghaiDayStart(NEXT)!;

let t: TestApp;
let c: TwoCompanies;
let configA: number;
let configB: number;

const insertConfig = async (deptId: number, name: string) => (await t.ctx.db.insertInto('pay_config')
  .values({ deptId, name, payType: PayType.wechat, gateway: 'simulator', partner: 'MCH-R', addTime: 1, editTime: 1 }).returning('id').executeTakeFirstOrThrow()).id;

type Payment = { configId: number; deptId: number; orderNo: string; fen: number; at: number; ours?: { fen?: number; at?: number | null; status?: number } | null; gateway?: { fen?: number; at?: number } | null };
/** A paid sale on both sides, or one side altered or missing. */
async function sale(p: Payment): Promise<number | undefined> {
  let orderId: number | undefined;
  if (p.ours !== null) {
    const at = p.ours?.at === undefined ? p.at : p.ours.at;
    orderId = await insertOrder(t.ctx.db, {
      deptId: p.deptId, orderNo: p.orderNo, machineNo: 'RC-1', goodsPrice: p.fen, payAmount: p.ours?.fen ?? p.fen, orderStatus: p.ours?.status ?? OrderStatus.dispensed,
      createTime: p.at - 60_000, payTime: at, configId: p.configId,
    });
  }
  if (p.gateway !== null) {
    await t.ctx.db.insertInto('pay_sim_payment').values({
      orderNo: p.orderNo, configId: p.configId, amount: p.gateway?.fen ?? p.fen, notifyUrl: 'http://127.0.0.1/n', status: 'paid', transId: `SIM-${p.orderNo}`,
      expireAt: p.at + 300_000, createTime: p.at - 60_000, payTime: p.gateway?.at ?? p.at,
    }).execute();
  }
  return orderId;
}

type Refund = { configId: number; deptId: number; parentId: number; orderNo: string; refundNo: string; fen: number; at: number; status?: number; gateway?: boolean };
async function refund(r: Refund) {
  const status = r.status ?? OrderStatus.refunded;
  await insertOrder(t.ctx.db, {
    deptId: r.deptId, orderNo: r.refundNo, transType: TransType.refund, machineNo: 'RC-1', goodsPrice: r.fen, payAmount: -r.fen,
    orderStatus: status, createTime: r.at - 1000, payTime: status === OrderStatus.refunded ? r.at : null, configId: r.configId, parentId: r.parentId,
  });
  if (r.gateway !== false) await t.ctx.db.insertInto('pay_sim_refund').values({ refundNo: r.refundNo, orderNo: r.orderNo, amount: r.fen, status: 'success', createTime: r.at }).execute();
}

const orderSnapshot = () => t.ctx.db.selectFrom('pay_order').select(['orderNo', 'orderStatus', 'payAmount', 'payTime', 'refundedAmount']).orderBy('orderNo').execute();

beforeAll(async () => {
  t = await startTestApp();
  c = await twoCompanies(t, 'rc', '对账');
  configA = await insertConfig(c.companyA, '对账A配置');
  configB = await insertConfig(c.companyB, '对账B配置');
  const a = { configId: configA, deptId: c.companyA };
  const a1 = await sale({ ...a, orderNo: 'RC-A1', fen: 250, at: D0 + 10 * HOUR });
  await sale({ ...a, orderNo: 'RC-A2', fen: 300, at: D0 + 11 * HOUR, gateway: { fen: 299 } }); // 金额不一致 (2.99 vs 3.00, in fen)
  await sale({ ...a, orderNo: 'RC-A3', fen: 400, at: D0 + 12 * HOUR, ours: null }); // 通道有/平台无
  await sale({ ...a, orderNo: 'RC-A4', fen: 500, at: D0 + 13 * HOUR, gateway: null }); // 平台有/通道无
  await sale({ ...a, orderNo: 'RC-A5', fen: 150, at: D0 + 14 * HOUR, ours: { at: null, status: OrderStatus.timedOut } }); // 状态不一致
  await refund({ ...a, parentId: a1!, orderNo: 'RC-A1', refundNo: 'RC-R6', fen: 100, at: D0 + 15 * HOUR });
  const a7 = await sale({ ...a, orderNo: 'RC-A7', fen: 50, at: D0 + 9 * HOUR });
  await refund({ ...a, parentId: a7!, orderNo: 'RC-A7', refundNo: 'RC-R7', fen: 50, at: D0 + 16 * HOUR, status: OrderStatus.refundFailed }); // refund 状态不一致
  // midnight: the gateway took it at 23:59:59, we learnt it at 00:00:00.5 the next day — matched, on neither day a difference
  await sale({ ...a, orderNo: 'RC-M1', fen: 120, at: D1 + 500, gateway: { at: D1 - 1000 } });
  // 23:59:59.999 is the day's; 00:00:00.000 the next day's, on both sides
  await sale({ ...a, orderNo: 'RC-M2', fen: 100, at: D1 - 1 });
  await sale({ ...a, orderNo: 'RC-M3', fen: 70, at: D1 });
  await sale({ configId: configB, deptId: c.companyB, orderNo: 'RC-B1', fen: 999, at: D0 + 10 * HOUR });
});
afterAll(async () => {
  await t.payments.stop();
  await t?.close();
});

const run = (body: Record<string, unknown>, as = c.admin) => t.call('POST', '/api/Reconcile/run', { token: as, body });
const runs = async (body: Record<string, unknown> = {}, as = c.admin) => {
  const answer = await t.call('POST', '/api/Reconcile/list', { token: as, body: { page: 1, limit: 50, ...body } });
  expect(answer.status, answer.body.msg).toBe(200);
  return answer.body.data as ReconcileRun[];
};
const runOf = async (day: string, configId: number) => (await runs({ start: day, end: day })).find((r) => r.configId === configId)!;
const diffs = async (runId: number, as = c.admin, body: Record<string, unknown> = {}) => {
  const answer = await t.call('POST', '/api/Reconcile/diffList', { token: as, body: { runId, page: 1, limit: 50, ...body } });
  expect(answer.status, answer.body.msg).toBe(200);
  return answer.body.data as ReconcileDiff[];
};
const summary = (list: ReconcileDiff[]) => list.map((d) => `${d.category} ${d.kind} ${d.refundNo || d.orderNo} ${d.platformAmount}/${d.gatewayAmount}`).sort();

const expectedDay = [
  `${ReconcileCategory.amount} payment RC-A2 3.00/2.99`,
  `${ReconcileCategory.gatewayOnly} payment RC-A3 /4.00`,
  `${ReconcileCategory.platformOnly} payment RC-A4 5.00/`,
  `${ReconcileCategory.status} payment RC-A5 1.50/1.50`,
  `${ReconcileCategory.status} refund RC-R7 0.50/0.50`,
];

describe('对账', () => {
  it('finds every kind of difference of a day, in fen, with both sides, and never changes an order', async () => {
    const before = await orderSnapshot();
    const configs = (await t.ctx.db.selectFrom('pay_config').select('id').execute()).length; // the seed's demo config too
    const answer = await run({ day: D });
    expect(answer.body).toMatchObject({ success: true, msg: `对账完成：${configs} 个支付配置，5 条差异`, data: { runs: configs, diffs: 5 } });
    const a = await runOf(D, configA);
    // ours: A1 2.50 + A2 3.00 + A4 5.00 + A7 0.50 + M2 1.00 − R6 1.00; the gateway's: A1 A2 A3 A5 A7 M1 M2 − R6 − R7
    expect(a).toMatchObject({ result: 'different', platformCount: 6, platformAmount: '11.00', gatewayCount: 9, gatewayAmount: '12.19', diffCount: 5, unhandledCount: 5, configName: '对账A配置', deptName: '对账A公司', runBy: 'admin' });
    const list = await diffs(a.runId);
    expect(summary(list)).toEqual(expectedDay);
    expect(list.find((d) => d.orderNo === 'RC-A5')).toMatchObject({ platformStatus: '订单超时', gatewayStatus: '支付成功', gatewayTradeNo: 'SIM-RC-A5', gatewayTime: '2026-03-10 14:00:00' });
    expect(list.find((d) => d.refundNo === 'RC-R7')).toMatchObject({ orderNo: 'RC-A7', platformStatus: '退款失败', gatewayStatus: '退款成功' });
    expect(list.find((d) => d.orderNo === 'RC-A3')).toMatchObject({ platformStatus: '', platformAmount: '' });
    expect(await runOf(D, configB)).toMatchObject({ result: 'matched', platformCount: 1, gatewayCount: 1, platformAmount: '9.99', diffCount: 0 });
    expect(await orderSnapshot()).toEqual(before);
    expect(summary(await diffs(a.runId, c.admin, { category: ReconcileCategory.status }))).toHaveLength(2);
  });

  it('puts midnight on the right day on both sides and matches a payment that crossed it', async () => {
    await run({ day: NEXT, configId: configA });
    const next = await runOf(NEXT, configA);
    // M1 (ours at 00:00:00.5, the gateway's the day before: found in its bill of the day before) and M3 at 00:00:00.000
    expect(next).toMatchObject({ result: 'matched', platformCount: 2, platformAmount: '1.90', gatewayCount: 1, gatewayAmount: '0.70' });
  });

  it("is the same whatever the server's time zone", async () => {
    const tz = process.env.TZ;
    try {
      for (const zone of ['Pacific/Kiritimati', 'America/Los_Angeles', 'UTC']) {
        process.env.TZ = zone;
        await run({ day: D, configId: configA });
        const a = await runOf(D, configA);
        expect(a).toMatchObject({ platformCount: 6, gatewayCount: 9, diffCount: 5 });
        expect(summary(await diffs(a.runId))).toEqual(expectedDay);
      }
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('marks a difference handled with a note (operation log) and keeps it when a re-run finds it again', async () => {
    const a = await runOf(D, configA);
    const amountDiff = (await diffs(a.runId)).find((d) => d.orderNo === 'RC-A2')!;
    const handled = await t.call('POST', '/api/Reconcile/handle', { token: c.adminA, body: { diffId: amountDiff.diffId, note: '已与微信核实，少收1分' } });
    expect(handled.body).toMatchObject({ success: true, msg: m.handleDone });
    const log = await t.ctx.db.selectFrom('sys_oper_log').select(['module', 'action', 'target', 'success']).where('module', '=', m.title).where('action', '=', m.handle).execute();
    expect(log).toEqual([{ module: '对账', action: '标记处理', target: 'RC-A2 金额不一致：已与微信核实，少收1分', success: 1 }]);
    // the gateway's payment of A4 turns up: a re-run drops that difference and keeps A2's note
    await t.ctx.db.insertInto('pay_sim_payment').values({
      orderNo: 'RC-A4', configId: configA, amount: 500, notifyUrl: 'http://127.0.0.1/n', status: 'paid', transId: 'SIM-RC-A4', expireAt: D0, createTime: D0, payTime: D0 + 13 * HOUR,
    }).execute();
    expect((await run({ day: D, configId: configA })).body).toMatchObject({ success: true, data: { runs: 1, diffs: 4 } });
    const again = await runOf(D, configA);
    expect(again).toMatchObject({ runId: a.runId, diffCount: 4, unhandledCount: 3 });
    const list = await diffs(again.runId);
    expect(list.map((d) => d.orderNo)).not.toContain('RC-A4');
    expect(list.find((d) => d.orderNo === 'RC-A2')).toMatchObject({ handled: 1, handleNote: '已与微信核实，少收1分', handledBy: 'rc_adminA' });
    expect(await diffs(again.runId, c.admin, { handled: '0' })).toHaveLength(3);
  });

  it('exports the runs and a run\'s differences with labels', async () => {
    const a = await runOf(D, configA);
    const sheet = await readXlsxExport((await t.call('POST', '/api/Reconcile/diffExport', { token: c.admin, body: { runId: a.runId } })).raw, m.diffExportName);
    expect(sheet[0]).toContain(m.category);
    expect(sheet.slice(1).map((row) => `${row[0]} ${row[2]}`).sort()).toEqual(['平台有/通道无 RC-A4', '状态不一致 RC-A5', '状态不一致 RC-A7', '通道有/平台无 RC-A3', '金额不一致 RC-A2'].filter((x) => !x.includes('A4')).sort());
    const runSheet = await readXlsxExport((await t.call('POST', '/api/Reconcile/export', { token: c.adminB, body: {} })).raw, m.title);
    expect(runSheet.slice(1).map((row) => `${row[0]} ${row[1]} ${row[9]}`)).toEqual([`${D} 对账B配置 一致`]);
  });

  it('keeps each company administrator to its own companies, and a role without the codes out', async () => {
    expect((await runs({}, c.adminB)).map((r) => r.configName)).toEqual(['对账B配置']);
    const a = await runOf(D, configA);
    const someDiff = (await diffs(a.runId))[0]!;
    expect((await t.call('POST', '/api/Reconcile/diffList', { token: c.adminB, body: { runId: a.runId } })).status).toBe(403);
    expect((await t.call('POST', '/api/Reconcile/handle', { token: c.adminB, body: { diffId: someDiff.diffId, note: 'x' } })).status).toBe(403);
    expect((await run({ day: D, configId: configA }, c.adminB)).status).toBe(403);
    expect((await t.call('POST', '/api/Reconcile/configOptions', { token: c.adminB, body: {} })).body.data).toEqual([{ configId: configB, name: '对账B配置', gateway: 'simulator', deptName: '对账B公司' }]);
    // 对账 of all by company B's administrator runs B's config only
    expect((await run({ day: D }, c.adminB)).body).toMatchObject({ success: true, data: { runs: 1, diffs: 0 } });
    for (const [url, body] of [['/api/Reconcile/list', {}], ['/api/Reconcile/run', { day: D }], ['/api/Reconcile/handle', { diffId: someDiff.diffId, note: 'x' }], ['/api/Reconcile/diffList', { runId: a.runId }]] as const) {
      expect((await t.call('POST', url, { token: c.userA, body })).status, url).toBe(403);
    }
    expect((await diffs(a.runId)).find((d) => d.diffId === someDiff.diffId)).toMatchObject({ handled: someDiff.handled, handleNote: someDiff.handleNote });
  });

  it('with PAY_RECONCILE_TODAY (demos against the fakes) reconciles today so far; tomorrow stays refused', async () => {
    const today = shanghaiDay(t.ctx.now());
    const tomorrow = shanghaiDay(t.ctx.now() + 24 * HOUR);
    await sale({ configId: configB, deptId: c.companyB, orderNo: 'RC-T1', fen: 200, at: shanghaiDayStart(today)! + 1 });
    t.ctx.config.pay.reconcileToday = true;
    try {
      const answer = await run({ day: today, configId: configB });
      expect(answer.status, answer.body.msg).toBe(200);
      expect(await runOf(today, configB)).toMatchObject({ platformCount: 1, platformAmount: '2.00', gatewayCount: 1, gatewayAmount: '2.00' });
      expect((await run({ day: tomorrow, configId: configB })).body.msg).toBe(m.dayNotPast);
    } finally {
      t.ctx.config.pay.reconcileToday = false;
    }
  });

  it('answers bad input with a Chinese message, never a 5xx, and changes nothing', async () => {
    const before = await runs();
    const today = new Date(Date.now() + 8 * HOUR).toISOString().slice(0, 10);
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['/api/Reconcile/run', {}, 400, m.dayRequired],
      ['/api/Reconcile/run', { day: '2026-02-30' }, 400, m.dayInvalid],
      ['/api/Reconcile/run', { day: '10/03/2026' }, 400, m.dayInvalid],
      ['/api/Reconcile/run', { day: today }, 400, m.dayNotPast],
      ['/api/Reconcile/run', { day: D, configId: 'x' }, 400, m.configInvalid],
      ['/api/Reconcile/run', { day: D, configId: 99_999 }, 404, m.configMissing],
      ['/api/Reconcile/handle', { diffId: 99_999, note: '备注' }, 404, m.diffMissing],
      ['/api/Reconcile/handle', { diffId: 1, note: '  ' }, 400, m.noteRequired],
      ['/api/Reconcile/handle', { diffId: 1, note: '长'.repeat(201) }, 400, m.noteTooLong],
      ['/api/Reconcile/handle', { note: '备注' }, 400, m.diffRequired],
      ['/api/Reconcile/diffList', {}, 400, m.runRequired],
      ['/api/Reconcile/diffList', { runId: 99_999 }, 404, m.runMissing],
      ['/api/Reconcile/diffList', { runId: 1, category: 'other' }, 400, m.categoryInvalid],
      ['/api/Reconcile/list', { result: 'other' }, 400, m.resultInvalid],
      ['/api/Reconcile/list', { start: '2026-03-11', end: '2026-03-10' }, 400, m.dateOrder],
    ];
    for (const [url, body, status, msg] of cases) {
      const answer = await t.call('POST', url, { token: c.admin, body });
      expect({ url, body, status: answer.status, msg: answer.body.msg }).toEqual({ url, body, status, msg });
    }
    expect(await runs()).toEqual(before);
  });
});

describe('对账 runs claimed once', () => {
  it('lets one of two simultaneous runs of a (day, config) through; the job leaves a finished day alone', async () => {
    // a gateway whose bill comes when the test says: the first run holds its claim meanwhile
    let release!: () => void;
    let entered!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const inBill = new Promise<void>((resolve) => { entered = resolve; });
    const simulator = t.payments.gateways.get('simulator')!;
    const slow = { ...reconcileDeps(t.ctx, t.payments.gateways), gatewayOf: () => ({ ...simulator, name: 'simulator', downloadBill: async (config: never, day: string) => { entered(); await held; return simulator.downloadBill!(config, day); } }) as never };
    const day = '2026-03-12';
    const first = reconcileDay(slow, { day, configIds: [configA], by: 'one', mode: 'button' });
    await inBill; // the first has claimed its run and waits for the bill
    const second = await reconcileDay(slow, { day, configIds: [configA], by: 'two', mode: 'button' });
    expect(second).toMatchObject({ runs: 0, busy: 1 });
    expect((await run({ day, configId: configA })).body).toMatchObject({ success: false, msg: m.runBusy });
    release();
    expect(await first).toMatchObject({ runs: 1, busy: 0 });
    expect((await runs({ start: day, end: day })).filter((r) => r.configId === configA)).toMatchObject([{ runBy: 'one', result: 'matched' }]);
    const deps = reconcileDeps(t.ctx, t.payments.gateways);
    const configs = (await t.ctx.db.selectFrom('pay_config').select('id').execute()).length;
    expect(await reconcileDay(deps, { day, by: 'system', mode: 'job' })).toMatchObject({ runs: configs - 1, busy: 1 }); // the others were not run yet
    expect(await reconcileDay(deps, { day, by: 'system', mode: 'job' })).toMatchObject({ runs: 0, busy: configs });
    // the button runs a finished day again
    expect(await reconcileDay(deps, { day, configIds: [configA], by: 'three', mode: 'button' })).toMatchObject({ runs: 1, busy: 0 });
  });

  it('records a gateway without a bill as 失败 with the reason, and the other configs still run', async () => {
    const other = await t.ctx.db.insertInto('pay_config').values({ deptId: c.companyA, name: '无账单', payType: PayType.alipay, gateway: 'no_such_gateway', addTime: 1, editTime: 1 }).returning('id').executeTakeFirstOrThrow();
    const answer = await reconcileDay(reconcileDeps(t.ctx, t.payments.gateways), { day: '2026-03-13', configIds: [configA, other.id], by: 'x', mode: 'button' });
    expect(answer).toMatchObject({ runs: 2 });
    expect(await runOf('2026-03-13', other.id)).toMatchObject({ result: 'failed', message: m.noBill });
    expect(await runOf('2026-03-13', configA)).toMatchObject({ result: 'matched' });
  });

  it("runs yesterday's 对账 at start when today's PAY_RECONCILE_AT has passed, and waits for it when it has not", async () => {
    const configs = (await t.ctx.db.selectFrom('pay_config').select('id').execute()).length;
    const late = { ...reconcileDeps(t.ctx, t.payments.gateways), now: () => shanghaiDayStart('2026-03-15')! + 11 * HOUR };
    const done = await new Promise<{ day: string; runs: number }>((resolve) => {
      const job = startReconcileJob(late, '10:30', (answer) => void job.stop().then(() => resolve(answer)));
    });
    expect(done).toMatchObject({ day: '2026-03-14', runs: configs });
    expect((await runs({ start: '2026-03-14', end: '2026-03-14' })).map((r) => r.runBy)).toEqual(Array(configs).fill('system'));
    const early = { ...reconcileDeps(t.ctx, t.payments.gateways), now: () => shanghaiDayStart('2026-03-16')! + 10 * HOUR };
    const job = startReconcileJob(early, '10:30');
    await job.stop();
    expect(await runs({ start: '2026-03-15', end: '2026-03-15' })).toEqual([]);
  });

  it("lets a run whose lease ran out be taken over, and then drops the late run's outcome", async () => {
    let release!: () => void;
    let entered!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const inBill = new Promise<void>((resolve) => { entered = resolve; });
    // the stalled run's gateway answers an empty bill at last: had it been written, NEXT would show 平台有/通道无
    const stalled = { ...reconcileDeps(t.ctx, t.payments.gateways), gatewayOf: () => ({ name: 'simulator', downloadBill: async (_c: never, day: string) => { entered(); await held; return { day, rows: [] }; } }) as never };
    const first = reconcileDay(stalled, { day: NEXT, configIds: [configA], by: 'stalled', mode: 'button' });
    await inBill;
    await reconcileDb(t.ctx.db).updateTable('pay_reconcile_run').set({ leaseUntil: 1 }).where('day', '=', NEXT).where('configId', '=', configA).execute(); // (its lease ran out)
    expect(await reconcileDay(reconcileDeps(t.ctx, t.payments.gateways), { day: NEXT, configIds: [configA], by: 'takeover', mode: 'job' })).toMatchObject({ runs: 1, busy: 0 });
    release();
    await first;
    const next = await runOf(NEXT, configA);
    expect(next).toMatchObject({ runBy: 'takeover', result: 'matched', diffCount: 0, platformCount: 2 });
    expect(await diffs(next.runId)).toEqual([]);
  });

  it("matches a refund made through 交易订单's 退款 with the simulator's record of it (the refund path's own rows)", async () => {
    const configId = await insertConfig(c.companyA, '对账退款配置');
    const now = Date.now();
    const orderId = await sale({ configId, deptId: c.companyA, orderNo: `RC-RF${now}`, fen: 800, at: now });
    const refunded = await t.call('POST', '/api/Order/refund', { token: c.adminA, body: { orderId, amount: '3.00', reason: '对账测试', requestKey: `rc-${now}` } });
    expect(refunded.body, refunded.body.msg).toMatchObject({ success: true });
    // the days of the payment and of the refund (one day but at Beijing midnight); the button refuses today
    // (its bill is not whole), the service reconciles any day
    const times = await t.ctx.db.selectFrom('pay_order').select('payTime').where('configId', '=', configId).execute();
    const days = [...new Set(times.map((r) => shanghaiDay(Number(r.payTime))))];
    let platform = 0;
    for (const day of days) {
      expect(await reconcileDay(reconcileDeps(t.ctx, t.payments.gateways), { day, configIds: [configId], by: 'x', mode: 'button' })).toMatchObject({ runs: 1, diffs: 0 });
      const result = await runOf(day, configId);
      expect(result).toMatchObject({ result: 'matched' });
      expect(result.gatewayCount).toBe(result.platformCount);
      platform += result.platformCount;
    }
    expect(platform).toBe(2);
  });
});
