import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Page } from '@playwright/test';
import { BASE_URL, dataDirPointer, E2E_PORT } from './env.ts';
import { expect, loginThroughUi, test, tokenOf, uniqueName } from './fixtures.ts';
import { openFromMenu, pickOption, rowOf, rows } from './list-page.ts';
import { shanghaiTime } from './suite-database.ts';

// 支付告警 (/pay/Alarm). The payment half writes alarms (server/src/modules/pay/alarms/pay-alarm.test.ts
// drives that through a real notification and refund); this spec writes them straight into the suite's
// database, every order number and terminal carrying this run's mark.

const run = uniqueName('a').replace(/[^A-Za-z0-9]/g, '').slice(-10).toUpperCase();
const no = (suffix: string) => `E2EA${run}${suffix}`;
const machine = `E2EA-${run}`;

type Alarm = { deptNo?: string; kind: string; orderNo: string; detail: string; created: string; machineNo?: string };

function addAlarms(alarms: Alarm[]) {
  const dataDir = fs.readFileSync(dataDirPointer(E2E_PORT), 'utf8').trim();
  const db = new DatabaseSync(path.join(dataDir, 'huiyun.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const deptOf = db.prepare('select deptId from sys_dept where deptNo = ?');
    const insert = db.prepare('insert into pay_alarm (kind, orderNo, deptId, machineNo, detail, createTime) values (?, ?, ?, ?, ?, ?)');
    for (const a of alarms) {
      const deptId = a.deptNo === '' ? 0 : (deptOf.get(a.deptNo ?? 'DEMO') as { deptId: number }).deptId;
      insert.run(a.kind, a.orderNo, deptId, a.machineNo ?? machine, a.detail, shanghaiTime(a.created));
    }
  } finally {
    db.close();
  }
}

test.beforeAll(() => {
  addAlarms([
    { kind: 'notifyMismatch', orderNo: no('A'), detail: '通知金额 0.01 元，订单金额 3.50 元', created: '2025-07-01 09:00' },
    { kind: 'autoRefundFailed', orderNo: no('B'), detail: `${no('B')}R0001: 余额不足`, created: '2025-07-02 10:00' },
    { kind: 'latePayment', orderNo: no('C'), deptNo: '', detail: '订单超时关闭后收到支付（交易号 LATE1），已标记自动退款', created: '2025-07-02 11:00' },
  ]);
});

const form = (page: Page) => page.locator('form#payAlarm-search');

async function searchMachine(page: Page) {
  await form(page).getByRole('button', { name: '重置' }).click();
  await form(page).getByLabel('终端号', { exact: true }).fill(machine);
}

async function expectAlarms(page: Page, orderNos: string[]) {
  await expect(rows(page)).toHaveCount(orderNos.length);
  for (const [i, orderNo] of orderNos.entries()) await expect(rows(page).nth(i)).toContainText(orderNo);
}

test.describe('支付告警', () => {
  test('opens from 支付管理, lists alarms newest first with coloured kinds, fits 1366 px, and filters', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto('/task/index');
    await openFromMenu(page, '支付管理', '支付告警');
    await expect(page).toHaveURL(/\/pay\/Alarm$/);

    await searchMachine(page);
    await form(page).getByRole('button', { name: '查询' }).click();
    await expectAlarms(page, [no('C'), no('B'), no('A')]);
    const a = rowOf(page, no('A'));
    await expect(a.locator('.ant-tag', { hasText: '通知与订单不符' })).toHaveClass(/ant-tag-red/);
    await expect(rowOf(page, no('B')).locator('.ant-tag', { hasText: '自动退款失败' })).toHaveClass(/ant-tag-magenta/);
    await expect(rowOf(page, no('C')).locator('.ant-tag', { hasText: '关闭后到账' })).toHaveClass(/ant-tag-gold/);
    await expect(a).toContainText('2025-07-01 09:00:00');
    await expect(a).toContainText('通知金额 0.01 元，订单金额 3.50 元');
    await expect(a).toContainText('汇云演示公司');
    await expect(rowOf(page, no('C'))).toContainText('—'); // an unknown order's alarm: no company
    await expect(a.getByRole('button', { name: '复制' })).toBeVisible(); // the order number, to paste into 交易订单

    // fits: no sideways scroll, every header inside the window
    const content = page.locator('.ant-table-content').first();
    const { scrollWidth, clientWidth } = await content.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    const headers = await page.locator('.ant-table-thead th').evaluateAll((cells) => cells.map((cell) => ({ text: (cell.textContent ?? '').trim(), right: cell.getBoundingClientRect().right })));
    for (const header of headers) expect(header.right, `${header.text} is outside the window`).toBeLessThanOrEqual(1366);
    expect(headers.map((h) => h.text)).toEqual(expect.arrayContaining(['时间', '类型', '订单号', '终端号', '公司', '详情']));

    // 告警类型
    await searchMachine(page);
    await pickOption(page, form(page), '告警类型', '自动退款失败');
    await form(page).getByRole('button', { name: '查询' }).click();
    await expectAlarms(page, [no('B')]);

    // 订单号, exactly
    await form(page).getByRole('button', { name: '重置' }).click();
    await form(page).getByLabel('订单号', { exact: true }).fill(no('A'));
    await form(page).getByRole('button', { name: '查询' }).click();
    await expectAlarms(page, [no('A')]);

    // 时间范围: 2025-07-02 holds B and C
    await searchMachine(page);
    const [start, finish] = [form(page).getByPlaceholder('开始日期'), form(page).getByPlaceholder('结束日期')];
    await start.click();
    await start.fill('2025-07-02');
    await finish.click();
    await finish.fill('2025-07-02');
    await finish.press('Enter');
    await form(page).getByRole('button', { name: '查询' }).click();
    await expectAlarms(page, [no('C'), no('B')]);

    // 公司: the demo company's alarms only
    await searchMachine(page);
    await pickOption(page, form(page), '公司', '汇云演示公司', { search: true });
    await form(page).getByRole('button', { name: '查询' }).click();
    await expectAlarms(page, [no('B'), no('A')]);
  });

  test("a company administrator sees its own company's alarms only", async ({ adminPage: page, browser }) => {
    const token = await tokenOf(page);
    const deptNo = uniqueName('ALM').toUpperCase();
    const dept = await (await page.request.post('/api/Dept/save', { headers: { token }, data: { deptName: uniqueName('告警公司'), deptNo } })).json();
    expect(dept.success, dept.msg).toBe(true);
    addAlarms([{ kind: 'notifyMismatch', orderNo: no('D'), deptNo, detail: '通知的商户号与订单不符', created: '2025-07-03 08:00' }]);
    const userName = uniqueName('alarm');
    const saved = await (await page.request.post('/api/User/save', {
      headers: { token },
      data: { userName, userRealName: userName, roleId: 1, deptId: dept.data.deptId, userSex: '男', userMobile: '13800138000', userEmail: `${userName}@example.com` },
    })).json();
    expect(saved.success, saved.msg).toBe(true);

    const context = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN' });
    const operator = await context.newPage();
    await loginThroughUi(operator, { userName, password: saved.data.initialPassword });
    await openFromMenu(operator, '支付管理', '支付告警');
    await searchMachine(operator);
    await form(operator).getByRole('button', { name: '查询' }).click();
    await expectAlarms(operator, [no('D')]);
    await expect(form(operator).getByLabel('公司', { exact: true })).toHaveCount(0); // one company: no company filter
    await context.close();
  });
});

test('steps to the next page from the last row seen (keyset cursor), jumps and steps back by page number', async ({ adminPage: page }) => {
  const pager = `E2EP-${run}`;
  // 25 alarms a minute apart: newest first, P24 … P00
  addAlarms(Array.from({ length: 25 }, (_, i) => ({
    kind: 'latePayment', orderNo: no(`P${String(i).padStart(2, '0')}`), detail: '分页', machineNo: pager, created: `2025-08-01 10:${String(i).padStart(2, '0')}`,
  })));
  const expectPage = async (from: number, count: number) => {
    await expect(rows(page)).toHaveCount(count);
    for (let k = 0; k < count; k++) await expect(rows(page).nth(k)).toContainText(no(`P${String(from - k).padStart(2, '0')}`));
  };
  const listCall = () => page.waitForRequest((r) => r.url().endsWith('/api/PayAlarm/list') && r.method() === 'POST');
  await page.goto('/task/index');
  await openFromMenu(page, '支付管理', '支付告警');
  await form(page).getByLabel('终端号', { exact: true }).fill(pager);
  await form(page).getByRole('button', { name: '查询' }).click();
  await expectPage(24, 10);

  let call = listCall();
  await page.getByRole('button', { name: '下一页', exact: true }).click();
  expect((await call).postDataJSON()).toMatchObject({ page: 2, after: expect.any(String) });
  await expectPage(14, 10);

  call = listCall();
  await page.getByRole('button', { name: '上一页', exact: true }).click();
  expect((await call).postDataJSON().after).toBeUndefined();
  await expectPage(24, 10);

  call = listCall();
  await page.locator('.ant-pagination-item-3').click();
  expect((await call).postDataJSON()).toMatchObject({ page: 3 }); // page 1 → 3: a jump, read by offset
  expect((await call).postDataJSON().after).toBeUndefined();
  await expectPage(4, 5);
});
