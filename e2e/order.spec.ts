import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Page } from '@playwright/test';
import { BASE_URL, dataDirPointer, E2E_PORT } from './env.ts';
import { answerConfirm, confirmDialog, expect, loginThroughUi, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { clickRowAction, dialog, pickOption, rowActionNames, rowOf, rows } from './list-page.ts';
import { shanghaiTime } from './suite-database.ts';

// 交易订单 (/pay/Order). No screen makes orders (the terminal protocol does), so this spec writes them
// straight into the suite's database, each number carrying this run's mark.

const URL = '/pay/Order';
const run = uniqueName('o').replace(/[^A-Za-z0-9]/g, '').slice(-10).toUpperCase();
const no = (suffix: string) => `E2E${run}${suffix}`;
const machine1 = `E2E-${run}-1`;
const machine2 = `E2E-${run}-2`;
const machine3 = `E2E-${run}-3`;
const machine4 = `E2E-${run}-4`;

/** parentNo: a refund row's order (earlier in the same call), whose refunded amount it adds to when 退款成功. */
type Row = { deptNo?: string; orderNo: string; machineNo: string; payType: number; transType: number; amount: number; status: number; transId: string; created: string; parentNo?: string };

function addOrders(orders: Row[]) {
  const dataDir = fs.readFileSync(dataDirPointer(E2E_PORT), 'utf8').trim();
  const db = new DatabaseSync(path.join(dataDir, 'huiyun.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const deptOf = db.prepare('select deptId from sys_dept where deptNo = ?');
    const insert = db.prepare(`insert into pay_order (deptId, orderNo, transId, payType, subPayType, transType, machineNo, goodsNo, goodsName,
      goodsPrice, payAmount, aisleNo, orderStatus, openId, mchId, subMchId, remark, createTime, payTime) values (?, ?, ?, ?, 0, ?, ?, 'G01', '矿泉水', 350, ?, 'A1', ?, 'oE2E', 'MCH-E2E', 'SUB-E2E', '端到端', ?, ?)`);
    for (const o of orders) {
      const created = shanghaiTime(o.created);
      // 已支付 (2) waits for its machine's dispense report: paid now, or the sweeper would count it as a
      // dispense never reported (PAY_DISPENSE_TIMEOUT_SECONDS) and refund it while the spec runs
      const paid = !o.transId ? null : o.status === 2 ? Date.now() : created + 5000;
      insert.run((deptOf.get(o.deptNo ?? 'DEMO') as { deptId: number }).deptId, o.orderNo, o.transId, o.payType, o.transType, o.machineNo, o.amount, o.status, created, paid);
      if (o.parentNo) {
        const parent = db.prepare('select orderId from pay_order where orderNo = ?').get(o.parentNo) as { orderId: number };
        db.prepare('update pay_order set parentId = ? where orderNo = ?').run(parent.orderId, o.orderNo);
        if (o.status === 13) db.prepare('update pay_order set refundedAmount = refundedAmount + ? where orderId = ?').run(-o.amount, parent.orderId);
      }
    }
  } finally {
    db.close();
  }
}

/**
 * A paid, dispensed order on a simulator 支付配置, with the simulator's own record of the payment, so
 * 退款 goes through the gateway as a terminal's order would.
 */
function addPaidSimulatorOrder(orderNo: string, machineNo: string, amount: number) {
  const dataDir = fs.readFileSync(dataDirPointer(E2E_PORT), 'utf8').trim();
  const db = new DatabaseSync(path.join(dataDir, 'huiyun.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const { deptId } = db.prepare("select deptId from sys_dept where deptNo = 'DEMO'").get() as { deptId: number };
    const now = Date.now();
    const config = db.prepare("select id from pay_config where gateway = 'simulator' order by id limit 1").get() as { id: number } | undefined;
    const configId = config?.id ?? Number(db.prepare(`insert into pay_config (deptId, name, payType, gateway, addUser, editUser, addTime, editTime)
      values (?, ?, 3, 'simulator', 'e2e', 'e2e', ?, ?)`).run(deptId, `E2E模拟网关${run}`, now, now).lastInsertRowid);
    db.prepare(`insert into pay_order (deptId, orderNo, transId, payType, subPayType, transType, machineNo, goodsNo, goodsName, goodsPrice, payAmount,
      aisleNo, orderStatus, openId, mchId, subMchId, remark, createTime, payTime, configId) values (?, ?, ?, 3, 0, 1, ?, 'G01', '矿泉水', ?, ?, 'A1', 3, 'oE2E', 'MCH-E2E', '', '', ?, ?, ?)`)
      .run(deptId, orderNo, `SIM${orderNo}`, machineNo, amount, amount, now - 60_000, now - 55_000, configId);
    db.prepare(`insert into pay_sim_payment (orderNo, configId, amount, notifyUrl, status, transId, expireAt, createTime, payTime)
      values (?, ?, ?, 'http://127.0.0.1/gateway/simulator/notify', 'paid', ?, ?, ?, ?)`).run(orderNo, configId, amount, `SIM${orderNo}`, now + 240_000, now - 60_000, now - 55_000);
  } finally {
    db.close();
  }
}

test.beforeAll(() => {
  addOrders([
    { orderNo: no('A'), machineNo: machine1, payType: 3, transType: 1, amount: 350, status: 3, transId: `WX${run}`, created: '2025-06-15 10:00' },
    { orderNo: no('A-R1'), machineNo: machine1, payType: 3, transType: 2, amount: -150, status: 13, transId: `WXR${run}`, created: '2025-06-15 11:00', parentNo: no('A') },
    { orderNo: no('B'), machineNo: machine2, payType: 2, transType: 1, amount: 1200, status: 2, transId: `ALI${run}`, created: '2025-06-16 09:00' },
    { orderNo: no('C'), machineNo: machine2, payType: 2, transType: 1, amount: 350, status: 7, transId: '', created: '2025-06-16 12:00' },
  ]);
});

const form = (page: Page) => page.locator('form#order-search');

async function search(page: Page, fields: Record<string, string>) {
  await form(page).getByRole('button', { name: '重置' }).click();
  for (const [label, value] of Object.entries(fields)) await form(page).getByLabel(label, { exact: true }).fill(value);
  await form(page).getByRole('button', { name: '查询' }).click();
}

async function expectOrders(page: Page, orderNos: string[]) {
  await expect(rows(page)).toHaveCount(orderNos.length);
  for (const orderNo of orderNos) await expect(rows(page).filter({ hasText: new RegExp(`${orderNo}(?!-)`) })).toHaveCount(1);
}

test.describe('交易订单', () => {
  test('lists orders with yuan amounts and coloured tags, fits 1366 px, and searches by each filter', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(URL);
    await expect(page.locator('.ant-breadcrumb')).toContainText('交易订单');

    await search(page, { 终端号: machine1 });
    await expectOrders(page, [no('A-R1'), no('A')]);
    const a = rowOf(page, no('A')).filter({ hasNotText: 'A-R1' });
    await expect(a).toContainText('¥3.50');
    await expect(a.locator('.ant-tag', { hasText: '微信支付' })).toHaveClass(/ant-tag-green/);
    await expect(a.locator('.ant-tag', { hasText: '出货成功' })).toHaveClass(/ant-tag-green/);
    await expect(rowOf(page, no('A-R1'))).toContainText('¥-1.50');
    await expect(rowOf(page, no('A-R1'))).toContainText('退款成功');
    await expect(a).toContainText('2025-06-15 10:00:00');

    // fits: no sideways scroll, the key columns and 操作 inside the window
    const content = page.locator('.ant-table-content').first();
    const { scrollWidth, clientWidth } = await content.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    const headers = await page.locator('.ant-table-thead th').evaluateAll((cells) =>
      cells.map((cell) => ({ text: (cell.textContent ?? '').trim(), left: cell.getBoundingClientRect().left, right: cell.getBoundingClientRect().right })));
    for (const [i, header] of headers.entries()) {
      expect(header.right, `${header.text} is outside the window`).toBeLessThanOrEqual(1366);
      const next = headers[i + 1];
      if (next) expect(header.right, `${next.text} covers ${header.text}`).toBeLessThanOrEqual(next.left + 1);
    }
    expect(headers.map((h) => h.text)).toEqual(expect.arrayContaining(['订单号', '终端号', '商品名称', '支付金额', '支付方式', '订单状态', '创建时间', '操作']));

    await search(page, { 订单号: no('B') });
    await expectOrders(page, [no('B')]);
    await search(page, { 订单号: `E2E${run}` }); // exact, not a part
    await expect(page.locator('.ant-table-tbody .ant-empty')).toBeVisible();
    await search(page, { 交易号: `ALI${run}` });
    await expectOrders(page, [no('B')]);

    await search(page, { 终端号: machine2 });
    await expectOrders(page, [no('C'), no('B')]);
    await expect(rowOf(page, no('C'))).toContainText('未知状态 7');
    await pickOption(page, form(page), '订单状态', '已支付');
    await form(page).getByRole('button', { name: '查询' }).click();
    await expectOrders(page, [no('B')]);

    await search(page, { 终端号: machine1 });
    await pickOption(page, form(page), '支付方式', '支付宝');
    await form(page).getByRole('button', { name: '查询' }).click();
    await expect(page.locator('.ant-table-tbody .ant-empty')).toBeVisible();

    // the day range: 2025-06-16 holds B and C only
    await search(page, { 终端号: machine2 });
    const [start, finish] = [form(page).getByPlaceholder('开始日期'), form(page).getByPlaceholder('结束日期')];
    await start.click();
    await start.fill('2025-06-15');
    await finish.click();
    await finish.fill('2025-06-15');
    await finish.press('Enter');
    await form(page).getByRole('button', { name: '查询' }).click();
    await expect(page.locator('.ant-table-tbody .ant-empty')).toBeVisible();
    await search(page, { 终端号: machine1 });
    await start.click();
    await start.fill('2025-06-15');
    await finish.click();
    await finish.fill('2025-06-15');
    await finish.press('Enter');
    await form(page).getByRole('button', { name: '查询' }).click();
    await expectOrders(page, [no('A-R1'), no('A')]);

    // the company: a caller seeing several companies picks one
    const deptName = uniqueName('订单公司');
    const deptNo = uniqueName('ORD').toUpperCase();
    const saved = await (await page.request.post('/api/Dept/save', { headers: { token: await tokenOf(page) }, data: { deptName, deptNo } })).json();
    expect(saved.success, saved.msg).toBe(true);
    addOrders([{ deptNo, orderNo: no('D'), machineNo: machine3, payType: 1, transType: 1, amount: 100, status: 3, transId: '', created: '2025-06-17 08:00' }]);
    await page.reload();
    await search(page, { 终端号: machine3 });
    await expectOrders(page, [no('D')]);
    await expect(rowOf(page, no('D'))).toContainText('现金');
    // however many companies earlier journeys made: the field is searched, not scrolled
    await pickOption(page, form(page), '所属公司', '汇云演示公司', { search: true });
    await form(page).getByRole('button', { name: '查询' }).click();
    await expect(page.locator('.ant-table-tbody .ant-empty')).toBeVisible();
    await pickOption(page, form(page), '所属公司', deptName, { search: true });
    await form(page).getByRole('button', { name: '查询' }).click();
    await expectOrders(page, [no('D')]);
  });

  test('详情 shows every field read-only and the order’s refunds; 导出 saves the filtered list', async ({ adminPage: page }) => {
    await page.goto(URL);
    await search(page, { 订单号: no('A') });
    await expectOrders(page, [no('A')]);
    await clickRowAction(page, rows(page).first(), '详情');
    const detail = dialog(page, '订单详情');
    await expect(detail).toBeVisible();
    const field = (label: string) => detail.locator('.order-detail .ant-descriptions-item-label', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::td[1]');
    await expect(field('订单号')).toHaveText(no('A'));
    await expect(field('交易号')).toHaveText(`WX${run}`);
    await expect(field('终端号')).toHaveText(machine1);
    await expect(field('支付方式')).toHaveText('微信支付');
    await expect(field('交易类型')).toHaveText('消费');
    await expect(field('订单状态')).toHaveText('出货成功');
    await expect(field('商品价格')).toHaveText('¥3.50');
    await expect(field('支付金额')).toHaveText('¥3.50');
    await expect(field('商品名称')).toHaveText('矿泉水');
    await expect(field('货道编号')).toHaveText('A1');
    await expect(field('商户号')).toHaveText('MCH-E2E');
    await expect(field('子商户号')).toHaveText('SUB-E2E');
    await expect(field('用户标识')).toHaveText('oE2E');
    await expect(field('备注')).toHaveText('端到端');
    await expect(field('所属公司')).toHaveText('汇云演示公司');
    await expect(field('创建时间')).toHaveText('2025-06-15 10:00:00');
    await expect(field('支付时间')).toHaveText('2025-06-15 10:00:05');
    await expect(field('已退金额')).toHaveText('¥1.50');
    await expect(field('可退金额')).toHaveText('¥2.00');
    await expect(detail.locator('input, textarea')).toHaveCount(0);
    const refund = detail.locator('.order-refunds .ant-table-row');
    await expect(refund).toHaveCount(1);
    await expect(refund).toContainText(no('A-R1'));
    await expect(refund).toContainText('¥-1.50');
    await expect(refund).toContainText('退款成功');
    await detail.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
    await expect(detail).toBeHidden();

    await search(page, { 终端号: machine2 });
    await expectOrders(page, [no('C'), no('B')]);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: '导出' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe('交易订单.xlsx');
    const saved = await file.path();
    expect(fs.statSync(saved).size).toBeGreaterThan(1000);
  });

  test('退款: part of a paid order through the dialog, then the rest; an amount above the refundable one is refused', async ({ adminPage: page }) => {
    const paid = no('R');
    addPaidSimulatorOrder(paid, machine4, 500);
    await page.goto(URL);
    await search(page, { 订单号: paid });
    await expectOrders(page, [paid]);
    const row = rowOf(page, paid);
    expect(await rowActionNames(page, row)).toEqual(['详情', '退款']);

    await clickRowAction(page, row, '退款');
    const refund = dialog(page, '订单退款');
    await expect(refund).toBeVisible();
    const shown = refund.locator('.refund-order');
    await expect(shown).toContainText(paid);
    await expect(shown).toContainText('支付金额¥5.00');
    await expect(shown).toContainText('已退金额¥0.00');
    await expect(shown).toContainText('可退金额¥5.00');
    const amount = refund.getByLabel('退款金额');
    const reason = refund.getByLabel('退款原因');
    const submit = refund.getByRole('button', { name: '确认退款' });
    await expect(amount).toHaveValue('5.00'); // all that is refundable
    // the contract's messages, before anything is sent
    await submit.click();
    await expect(refund.getByText('请输入退款原因')).toBeVisible();
    await amount.fill('5.01');
    await expect(refund.getByText('退款金额超过可退金额（可退 5.00 元）')).toBeVisible();
    await amount.fill('1.234');
    await expect(refund.getByText('退款金额须大于 0，最多两位小数')).toBeVisible();
    await amount.fill('0');
    await expect(refund.getByText('退款金额须大于 0，最多两位小数')).toBeVisible();

    // part of it: confirm first (取消 keeps the dialog), then 确定
    await amount.fill('2');
    await reason.fill('顾客投诉');
    await submit.click();
    await expect(confirmDialog(page)).toContainText('确认退款 2.00 元？');
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消')).toBeVisible();
    await expect(refund).toBeVisible();
    await submit.click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '退款成功')).toBeVisible();
    await expect(refund).toBeHidden();

    // the list: the refund row (its number is the order's with R…) and the order's refundable amount reduced
    await search(page, { 终端号: machine4 });
    await expect(rows(page)).toHaveCount(2);
    const refundRow = rows(page).filter({ hasText: `${paid}R` });
    await expect(refundRow).toContainText('¥-2.00');
    await expect(refundRow.locator('.ant-tag', { hasText: '退款成功' })).toBeVisible();
    expect(await rowActionNames(page, refundRow)).toEqual(['详情']);
    const order = rows(page).filter({ hasText: new RegExp(`${paid}(?!R)`) });
    await clickRowAction(page, order, '详情');
    const detail = dialog(page, '订单详情');
    const field = (label: string) => detail.locator('.order-detail .ant-descriptions-item-label', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::td[1]');
    await expect(field('已退金额')).toHaveText('¥2.00');
    await expect(field('可退金额')).toHaveText('¥3.00');
    const refunds = detail.locator('.order-refunds .ant-table-row');
    await expect(refunds).toHaveCount(1);
    await expect(refunds).toContainText('¥-2.00');
    await expect(refunds).toContainText('退款成功');
    await expect(refunds).toContainText('顾客投诉');
    await detail.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
    await expect(detail).toBeHidden();
    await clickRowAction(page, refundRow, '详情');
    await expect(field('原订单号')).toHaveText(paid);
    await expect(detail.locator('.order-refunds')).toHaveCount(0); // a refund has no refunds of its own
    await detail.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
    await expect(detail).toBeHidden();

    // the rest: the dialog offers 3.00; another operator refunds 1.00 meanwhile, so the server refuses 3.00
    // with its own text and the dialog stays open for a smaller amount
    await clickRowAction(page, order, '退款');
    await expect(refund).toBeVisible();
    await expect(refund.locator('.refund-order')).toContainText('可退金额¥3.00');
    await expect(amount).toHaveValue('3.00');
    await amount.fill('3.01');
    await expect(refund.getByText('退款金额超过可退金额（可退 3.00 元）')).toBeVisible();
    await amount.fill('3.00');
    const orderId = (await (await page.request.post('/api/Order/list', { headers: { token: await tokenOf(page) }, data: { page: 1, limit: 10, orderNo: paid } })).json()).data[0].orderId;
    const meanwhile = await (await page.request.post('/api/Order/refund', {
      headers: { token: await tokenOf(page) }, data: { orderId, amount: '1.00', reason: '另一位操作员', requestKey: `e2e${run}` },
    })).json();
    expect(meanwhile.msg).toBe('退款成功');
    await reason.fill('余下的');
    await submit.click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '退款金额超过可退金额（可退 2.00 元）')).toBeVisible();
    await expect(refund).toBeVisible();
    // the answer is lost on the way back (the server did refund): the retry sends the same key, so the
    // server answers the refund it made instead of making a second one
    await amount.fill('2.00');
    const keys: string[] = [];
    await page.route('**/api/Order/refund', async (route) => {
      keys.push(route.request().postDataJSON().requestKey);
      await route.fetch();
      await route.abort();
    }, { times: 1 });
    await submit.click();
    await expect(confirmDialog(page)).toContainText('确认退款 2.00 元？');
    await answerConfirm(page, '确定');
    await expect(toast(page, '退款请求未得到响应，请稍后重试（重试不会重复退款）')).toBeVisible();
    await expect(refund).toBeVisible();
    page.on('request', (request) => {
      if (request.url().endsWith('/api/Order/refund')) keys.push(request.postDataJSON().requestKey);
    });
    await submit.click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '该退款已提交过（退款成功），未重复退款')).toBeVisible();
    await expect(refund).toBeHidden();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    await expect(rows(page)).toHaveCount(4); // the order and three refunds: 2.00, 1.00, 2.00
    expect(await rowActionNames(page, order)).toEqual(['详情']); // nothing left to refund
  });

  test('an operator who may list orders but not refund them sees no 退款', async ({ adminPage: page, browser }) => {
    const paid = no('P');
    addPaidSimulatorOrder(paid, machine4, 300);
    await page.goto(URL);
    await search(page, { 订单号: paid });
    expect(await rowActionNames(page, rowOf(page, paid))).toEqual(['详情', '退款']); // the administrator may
    const token = await tokenOf(page);
    const api = async (url: string, data: unknown) => {
      const answer = await (await page.request.post(url, { headers: { token }, data })).json();
      expect(answer.success, answer.msg).toBe(true);
      return answer.data;
    };
    const tag = `e2eRefund${run}`;
    const roleId = Number((await api('/api/Role/save', { systemNo: 'huiyun', roleNo: tag, roleName: `订单查询${run}` })).roleId);
    const menus = (await api('/api/Module/list', {})) as { moduleId: number; moduleUrl: string; children: { moduleId: number; moduleUrl: string }[] }[];
    const moduleIdOf = (url: string) => menus.flatMap((g) => [g, ...g.children]).find((node) => node.moduleUrl === url)!.moduleId;
    await api('/api/RoleRight/save', { roleId, moduleIds: [moduleIdOf('/task/index'), moduleIdOf('/pay/Order')] });
    const listPermission = ((await api('/api/Permission/list', { page: 1, limit: 10, permission: 'pay:Order:list' })) as { permissionId: number; permission: string }[])
      .find((p) => p.permission === 'pay:Order:list')!;
    await api('/api/RolePermission/save', { roleId, permissionIds: [listPermission.permissionId] });
    const userName = `${tag}_u`;
    const saved = await api('/api/User/save', { userName, userRealName: userName, roleId, userSex: '女', userMobile: '13900139000', userEmail: `${userName}@example.com` });

    const context = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN' });
    const operator = await context.newPage();
    await loginThroughUi(operator, { userName, password: saved.initialPassword });
    await operator.goto(URL);
    await search(operator, { 订单号: paid });
    await expectOrders(operator, [paid]);
    expect(await rowActionNames(operator, rowOf(operator, paid))).toEqual(['详情']);
    await context.close();
  });
});
