import { afterAll, beforeAll, expect, it } from 'vitest';
import { OrderStatus, PayType, TransType } from '@huiyun/contract';
import { startFakeAlipay, type FakeAlipay } from '../../../../../tools/fake-gateways/alipay.ts';
import { SEEDED_NAMES, seedPayConfigs } from '../../../../../tools/fake-gateways/seed.ts';
import { startFakeWechat, type FakeWechat } from '../../../../../tools/fake-gateways/wechat.ts';
import { prepareMachines } from '../../../../../tools/terminal-simulator/setup.ts';
import { runTerminals } from '../../../../../tools/terminal-simulator/run-terminals.ts';
import { payOnPage } from '../../../../../tools/terminal-simulator/terminal-client.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { loadPayAccount, WechatV2Gateway } from '../gateways/index.ts';

// The demo of README: `npm run fake-gateways -- --seed` writes the fakes' values into 支付配置 through the
// console API (WeChat Pay V2 and V3 on one port, as on WeChat's one host), and `npm run terminal -- --config
// <name>` sells through each over loopback HTTP: the customer pays on the fake's page, the fake notifies the
// server, the machine sees 已支付 and dispenses; a failed dispense is refunded at the fake.

let t: TestApp;
let url: string;
let fakes: { wechat: FakeWechat; alipay: FakeAlipay };
beforeAll(async () => {
  fakes = { wechat: await startFakeWechat(), alipay: await startFakeAlipay() };
  // APIv3 over the port's plain HTTP (this in-process server does not trust the fake's CA); APIv2 over its
  // HTTPS with the CA given (the demo's server: the same HTTPS URL for both, NODE_EXTRA_CA_CERTS)
  t = await startTestApp({ WECHATPAY_BASE_URL: fakes.wechat.plainUrl, ALIPAY_GATEWAY_URL: fakes.alipay.gatewayUrl });
  t.payments.gateways.replace(new WechatV2Gateway({ baseUrl: fakes.wechat.baseUrl, tlsCa: fakes.wechat.caPem }));
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.payments.stop();
  await t?.close();
  await Promise.all([fakes?.wechat.close(), fakes?.alipay.close()]);
});

const admin = () => ({ server: url, admin: 'admin', password: ADMIN_PASSWORD });
const seeded = () => seedPayConfigs({ v3: fakes.wechat.v3, v2: fakes.wechat.v2, alipay: fakes.alipay }, admin());

it('seeds the three 支付配置 (again on a second start: updated, not doubled)', async () => {
  const ids = await seeded();
  expect(await seeded()).toEqual(ids);
  const rows = await t.ctx.db.selectFrom('pay_config').select(['id', 'name', 'gateway']).where('name', 'in', Object.values(SEEDED_NAMES)).orderBy('id').execute();
  expect(rows.map((r) => [r.gateway, r.id])).toEqual([['wechat_v3', ids.wechat_v3], ['wechat_v2', ids.wechat_v2], ['alipay', ids.alipay]]);
  // sealed as the dialog's save seals them, opened as the gateways take them
  const v3 = (await loadPayAccount(t.ctx.db, t.ctx.secrets, ids.wechat_v3!))!;
  expect([v3.partner, v3.secrets.apiV3Key, v3.secrets.rsaKey]).toEqual([fakes.wechat.v3.account.mchid, fakes.wechat.v3.account.apiV3Key, fakes.wechat.v3.account.merchantPrivateKey.trim()]); // the save trims text
  expect((await loadPayAccount(t.ctx.db, t.ctx.secrets, ids.alipay!))!.secrets.appPrivateKey).toBe(fakes.alipay.account.appPrivateKey.trim());
});

const cases = [
  { gateway: 'wechat_v3', payType: PayType.wechat, books: () => fakes.wechat.v3.books, prefix: 'DEMO3' },
  { gateway: 'wechat_v2', payType: PayType.wechat, books: () => fakes.wechat.v2.books, prefix: 'DEMO2' },
  { gateway: 'alipay', payType: PayType.alipay, books: () => fakes.alipay.books, prefix: 'DEMOA' },
] as const;

it.each(cases)('the terminal simulator sells through $gateway on its fake\'s page; failed dispenses are refunded at the fake', { timeout: 60_000 }, async ({ gateway, payType, books, prefix }) => {
  await seeded();
  const machines = await prepareMachines({ ...admin(), count: 2, prefix, config: SEEDED_NAMES[gateway] });
  expect(machines.map((m) => m.payType)).toEqual([payType, payType]);
  let seed = 5;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const stats = await runTerminals({ server: url, machines, rate: Infinity, dispenseFail: 0.4, abandon: 0.15, purchases: 4, random });
  expect(stats.errors, stats.lastError).toBe(0);
  expect(stats.paid).toBe(stats.dispensed + stats.failed);
  expect(stats.failed).toBeGreaterThan(0);
  expect(stats.refunded).toBe(stats.failed);
  await t.payments.settled();
  const orders = await t.ctx.db.selectFrom('pay_order').selectAll().where('machineNo', 'like', `${prefix}-%`).execute();
  const sales = orders.filter((o) => o.transType === TransType.consume);
  const paid = sales.filter((o) => o.payTime !== null);
  expect(paid).toHaveLength(stats.paid);
  // the fake holds each paid order, paid, and the refunds of the failed dispenses, in full
  for (const o of paid) expect(books().payments.get(o.orderNo), o.orderNo).toMatchObject({ status: 'paid', amount: o.payAmount });
  const failed = sales.filter((o) => o.orderStatus === OrderStatus.dispenseFailed);
  expect(failed).toHaveLength(stats.failed);
  const refundedAtFake = [...books().refunds.values()].filter((r) => failed.some((o) => o.orderNo === r.orderNo));
  expect(refundedAtFake.map((r) => r.amount).sort()).toEqual(failed.map((o) => o.payAmount).sort());
  expect(failed.every((o) => o.refundedAmount === o.payAmount)).toBe(true);
});

it('a page the fake does not hold, or one already paid, offers nothing to pay', async () => {
  expect(await payOnPage(`${fakes.wechat.plainUrl}/pay/T2026NOSUCHORDER0000000000`)).toBe(false);
  const done = [...fakes.wechat.v3.books.payments.values()].find((p) => p.status === 'paid')!;
  expect(await payOnPage(`${fakes.wechat.plainUrl}/pay/${done.orderNo}`)).toBe(false);
});
