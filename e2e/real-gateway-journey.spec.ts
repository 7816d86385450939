import fs from 'node:fs';
import { beijingDay } from '../tools/fake-gateways/books.ts';
import { startFakeWechat, type FakeWechat } from '../tools/fake-gateways/wechat.ts';
import { prepareMachines } from '../tools/terminal-simulator/setup.ts';
import { TerminalClient } from '../tools/terminal-simulator/terminal-client.ts';
import { ADMIN, BASE_URL, E2E_PORT, fakeWechatPortPointer } from './env.ts';
import { answerConfirm, expect, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { clickRowAction, dialog, openFromMenu, pickOption, rowOf, searchList } from './list-page.ts';
import { withSuiteDatabase } from './suite-database.ts';

// Real money, end to end: a 微信支付 V3 支付配置 filled in the console with the values of a local
// WeChat Pay fake (tools/fake-gateways, on the port the suite's server has as WECHATPAY_BASE_URL — e2e/server.ts),
// 检测 valid, bound to a machine in 终端支付配置; the machine (the terminal simulator's client) sells once, the customer
// pays on the fake's page, the fake notifies the server; a refund in 交易订单 reaches the fake; 对账 of the
// day finds the two sides agree.

const DAY_MS = 86_400_000;
let wechat: FakeWechat;

test.beforeAll(async () => {
  wechat = await startFakeWechat({ port: Number(fs.readFileSync(fakeWechatPortPointer(E2E_PORT), 'utf8')) });
});
test.afterAll(async () => wechat?.close());

/**
 * 对账 takes days gone by only (a gateway's bill of a day comes the next morning): the sale and its refund
 * are moved one day back on both sides — our orders and the fake's books — as if they had happened yesterday.
 */
function moveToYesterday(orderNo: string) {
  withSuiteDatabase((db) => {
    const { orderId } = db.prepare('select orderId from pay_order where orderNo = ?').get(orderNo) as { orderId: number };
    db.prepare('update pay_order set createTime = createTime - ?, payTime = payTime - ? where orderId = ? or parentId = ?').run(DAY_MS, DAY_MS, orderId, orderId);
  });
  const payment = wechat.v3.books.payments.get(orderNo)!;
  payment.createTime -= DAY_MS;
  payment.payTime! -= DAY_MS;
  for (const refund of wechat.v3.books.refunds.values()) if (refund.orderNo === orderNo) refund.time -= DAY_MS;
}

test('WeChat Pay V3 through its fake: configured and bound in the console, sold once, refunded in 交易订单, 对账 agrees', async ({ adminPage: page }) => {
  test.slow();
  const tag = uniqueName('RG').toUpperCase().replace(/[^A-Z0-9]/g, '').slice(-10);
  const configName = `微信V3-${tag}`;
  const account = wechat.v3.account;

  // 支付配置: the values the fake prints, pasted as an operator would, in the demo company (where the
  // machine will be); a second company makes the dialog ask which, whatever ran before
  const company = await page.request.post('/api/Dept/save', { headers: { token: await tokenOf(page) }, data: { deptName: uniqueName('e2e_rgdept'), deptNo: uniqueName('RGD') } });
  expect((await company.json()).success).toBe(true);
  await page.goto('/pay/Config');
  await page.getByRole('button', { name: '新增' }).click();
  const add = dialog(page, '新增支付配置');
  await pickOption(page, add, '所属公司', '汇云演示公司', { search: true });
  await add.getByLabel('配置名称', { exact: true }).fill(configName);
  await pickOption(page, add, '支付方式', '微信支付');
  await pickOption(page, add, '支付网关', '微信支付 V3');
  const fields: [string, string][] = [
    ['商户号', account.mchid], ['APPID', account.appid], ['回调地址', `${BASE_URL}/gateway/wechat_v3/notify`], ['商户证书序列号', account.certSerialNo],
    ['商户私钥', account.merchantPrivateKey], ['APIv3密钥', account.apiV3Key], ['平台公钥ID', account.platformPubKeyId], ['平台公钥', account.platformPublicKey],
  ];
  for (const [label, value] of fields) await add.getByLabel(label, { exact: true }).fill(value);
  await add.getByRole('button', { name: '保存' }).click();
  await expect(toast(page, '支付配置保存成功！')).toBeVisible();
  await expect(add).toBeHidden();

  // 检测 first: one signed query of an order that cannot exist, the answer verified with the 平台公钥 pasted
  await searchList(page, 'payConfig', '配置名称', configName);
  await clickRowAction(page, rowOf(page, configName), '检测');
  await expect(toast(page, '支付配置可用：商户号、商户私钥与商户证书序列号有效；应答签名已用平台公钥验证（微信支付公钥有效）')).toBeVisible();

  // a machine with its aisles (the terminal simulator's setup, through the console API), then bound in 终端支付配置
  const [machine] = await prepareMachines({ server: BASE_URL, admin: ADMIN.userName, password: ADMIN.password, count: 1, prefix: tag });
  const { machineNo, key } = machine!;
  await page.goto('/machine/MachineConfig');
  await searchList(page, 'terminalConfig', '终端号', machineNo);
  await clickRowAction(page, rowOf(page, machineNo), '编辑');
  const bind = dialog(page, '编辑终端支付配置');
  await pickOption(page, bind, '支付配置', configName);
  await bind.getByLabel('显示名称', { exact: true }).fill('微信支付');
  await bind.getByRole('button', { name: '保存' }).click();
  await expect(toast(page, '终端支付配置保存成功！')).toBeVisible();
  await expect(rowOf(page, machineNo)).toContainText(configName);

  // the sale: the machine asks for a code, the customer pays on the fake's page, the machine sees it paid
  const client = new TerminalClient(BASE_URL, machineNo, key);
  const created = await client.call<{ orderNo: string; codeUrl: string; amount: string }>('/order/create', { aisleNo: 'A1', payType: 3 });
  expect(created.body.success, created.body.msg).toBe(true);
  const { orderNo, codeUrl } = created.body.data!;
  expect(codeUrl).toBe(`${wechat.plainUrl}/pay/${orderNo}`);
  const customer = await page.context().newPage();
  await customer.goto(codeUrl);
  await expect(customer.locator('.amount')).toHaveText('¥ 2.50');
  await customer.getByRole('button', { name: '确认支付' }).click();
  await expect(customer.getByText('支付成功')).toBeVisible();
  const paid = await client.call<{ orderStatus: number }>('/order/status', { orderNo, knownStatus: 10, waitSeconds: 10 });
  expect(paid.body.data?.orderStatus).toBe(2);
  const dispensed = await client.call('/order/dispense', { orderNo, success: true, aisleStatus: 1 });
  expect(dispensed.body.success, dispensed.body.msg).toBe(true);

  // 退款 in 交易订单: it reaches the fake (its books, and its page shows it)
  await page.goto('/pay/Order');
  const search = page.locator('form#order-search');
  await search.getByLabel('订单号', { exact: true }).fill(orderNo);
  await search.getByRole('button', { name: '查询' }).click();
  await clickRowAction(page, rowOf(page, orderNo), '退款');
  const refund = dialog(page, '订单退款');
  await refund.getByLabel('退款金额').fill('1.00');
  await refund.getByLabel('退款原因').fill('顾客要求退款');
  await refund.getByRole('button', { name: '确认退款' }).click();
  await answerConfirm(page, '确定');
  await expect(toast(page, '退款成功')).toBeVisible();
  expect([...wechat.v3.books.refunds.values()].filter((r) => r.orderNo === orderNo).map((r) => [r.amount, r.status])).toEqual([[100, 'SUCCESS']]);
  await customer.reload();
  await expect(customer.getByText('已退款 ¥ 1.00')).toBeVisible();
  await customer.close();

  // 对账 of the day: both sides agree (1 payment 2.50, 1 refund 1.00: 1.50 on each side)
  moveToYesterday(orderNo);
  const day = beijingDay(Date.now() - DAY_MS);
  await page.goto('/task/index');
  await openFromMenu(page, '支付管理', '对账');
  await page.getByRole('button', { name: '对账', exact: true }).click();
  const run = dialog(page, '开始对账');
  await run.getByLabel('对账日期').fill(day);
  await run.getByLabel('对账日期').press('Tab');
  await pickOption(page, run, '支付配置', configName);
  await run.getByRole('button', { name: '开始对账' }).click();
  await expect(toast(page, '对账完成：1 个支付配置，0 条差异')).toBeVisible();
  const row = rowOf(page, configName);
  await expect(row).toContainText(day);
  await expect(row).toContainText('1.50');
  await expect(row.locator('.ant-tag', { hasText: '一致' })).toBeVisible();
  await expect(row).not.toContainText('有差异');
});
