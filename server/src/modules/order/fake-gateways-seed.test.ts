import { afterAll, beforeAll, expect, it } from 'vitest';
import { OrderStatus } from '@huiyun/contract';
import { startFakeAlipay, type FakeAlipay } from '../../../../tools/fake-gateways/alipay.ts';
import { SEEDED_NAMES, seedPayConfigs } from '../../../../tools/fake-gateways/seed.ts';
import { startFakeWechatV2, type FakeWechatV2 } from '../../../../tools/fake-gateways/wechat-v2.ts';
import { startFakeWechatV3, type FakeWechatV3 } from '../../../../tools/fake-gateways/wechat-v3.ts';
import { prepareMachines } from '../../../../tools/terminal-simulator/setup.ts';
import { TerminalClient } from '../../../../tools/terminal-simulator/terminal-client.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { loadPayAccount } from '../gateway/config-loader.ts';
import { paymentRuntime } from './runtime.ts';

// The demo of README: `npm run fake-gateways -- --seed` writes the fakes' values into 支付配置 through the
// console API, a machine is bound to 微信支付 V3 (the fake), and one sale goes through it over loopback HTTP:
// the customer presses pay on the fake's page, the fake notifies the server, the machine sees 已支付.

let t: TestApp;
let url: string;
let fakes: { v3: FakeWechatV3; v2: FakeWechatV2; alipay: FakeAlipay };
beforeAll(async () => {
  fakes = { v3: await startFakeWechatV3(), v2: await startFakeWechatV2(), alipay: await startFakeAlipay() };
  t = await startTestApp({ WECHATPAY_BASE_URL: fakes.v3.baseUrl, ALIPAY_GATEWAY_URL: fakes.alipay.gatewayUrl });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await paymentRuntime(t.ctx).stop();
  await t?.close();
  await Promise.all([fakes?.v3.close(), fakes?.v2.close(), fakes?.alipay.close()]);
});

it('seeds the three 支付配置 (again on a second start: updated, not doubled) and sells once through WeChat V3', { timeout: 30_000 }, async () => {
  const admin = { server: url, admin: 'admin', password: ADMIN_PASSWORD };
  const ids = await seedPayConfigs(fakes, admin);
  expect(await seedPayConfigs(fakes, admin)).toEqual(ids);
  const rows = await t.ctx.db.selectFrom('pay_config').select(['id', 'name', 'gateway']).where('name', 'in', Object.values(SEEDED_NAMES)).orderBy('id').execute();
  expect(rows.map((r) => [r.gateway, r.id])).toEqual([['wechat_v3', ids.wechat_v3], ['wechat_v2', ids.wechat_v2], ['alipay', ids.alipay]]);
  // sealed as the dialog's save seals them, opened as the gateways take them
  const v3 = (await loadPayAccount(t.ctx.db, t.ctx.secrets, ids.wechat_v3))!;
  expect([v3.partner, v3.secrets.apiV3Key, v3.secrets.rsaKey]).toEqual([fakes.v3.account.mchid, fakes.v3.account.apiV3Key, fakes.v3.account.merchantPrivateKey.trim()]); // the save trims text
  expect((await loadPayAccount(t.ctx.db, t.ctx.secrets, ids.alipay))!.secrets.appPrivateKey).toBe(fakes.alipay.account.appPrivateKey.trim());

  const [machine] = await prepareMachines({ ...admin, count: 1, prefix: 'SEED' });
  await t.ctx.db.updateTable('pay_terminal_config').set({ configId: ids.wechat_v3 }).where('machineNo', '=', machine!.machineNo).execute();
  const client = new TerminalClient(url, machine!.machineNo, machine!.key);
  const created = await client.call<{ orderNo: string; codeUrl: string }>('/order/create', { aisleNo: 'A1', payType: 3 });
  expect(created.body.msg ?? '').toBe('');
  const { orderNo, codeUrl } = created.body.data!;
  expect(codeUrl).toBe(`${fakes.v3.baseUrl}/pay/${orderNo}`);
  // the customer presses pay on the fake's page: the fake notifies `http://127.0.0.1:<port>/gateway/wechat_v3/notify/<orderNo>`
  const page = await fetch(codeUrl, { method: 'POST' });
  expect(await page.text()).toContain('支付成功');
  const status = await client.call<{ orderStatus: number }>('/order/status', { orderNo });
  expect(status.body.data!.orderStatus).toBe(OrderStatus.paid);
});
