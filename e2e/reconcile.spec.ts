import fs from 'node:fs';
import { expect, test, toast, uniqueName } from './fixtures.ts';
import { clickRowAction, dialog, openFromMenu, pickOption, rowOf } from './list-page.ts';
import { shanghaiTime, withSuiteDatabase } from './suite-database.ts';

// 对账 (/pay/Reconcile). A 支付配置 of this run's own on the simulator, with sales written straight into the
// suite's database on both sides (pay_order, and the simulator's books pay_sim_payment), one side altered:
// the screen's 对账 of that day finds the differences, shows both sides, marks one handled and exports them.

const run = uniqueName('r').replace(/[^A-Za-z0-9]/g, '').slice(-10).toUpperCase();
const no = (suffix: string) => `E2ER${run}${suffix}`;
const configName = `对账E2E-${run}`;
const DAY = '2025-08-01';

type Sale = { orderNo: string; ours?: number; gateway?: number; at: string };

function addSales(sales: Sale[]) {
  withSuiteDatabase((db) => {
    const { deptId } = db.prepare("select deptId from sys_dept where deptNo = 'DEMO'").get() as { deptId: number };
    const now = Date.now();
    const configId = Number(db.prepare("insert into pay_config (deptId, name, payType, gateway, addTime, editTime) values (?, ?, 3, 'simulator', ?, ?)")
      .run(deptId, configName, now, now).lastInsertRowid);
    const order = db.prepare(`insert into pay_order (deptId, orderNo, payType, transType, machineNo, goodsPrice, payAmount, orderStatus, createTime, payTime, configId)
      values (?, ?, 3, 1, 'E2E-R', ?, ?, 3, ?, ?, ?)`);
    const payment = db.prepare(`insert into pay_sim_payment (orderNo, configId, amount, notifyUrl, status, transId, expireAt, createTime, payTime)
      values (?, ?, ?, 'http://127.0.0.1/n', 'paid', ?, ?, ?, ?)`);
    for (const s of sales) {
      const at = shanghaiTime(s.at);
      if (s.ours !== undefined) order.run(deptId, s.orderNo, s.ours, s.ours, at - 60_000, at, configId);
      if (s.gateway !== undefined) payment.run(s.orderNo, configId, s.gateway, `SIM${s.orderNo}`, at + 300_000, at - 60_000, at);
    }
  });
}

test.beforeAll(() => {
  addSales([
    { orderNo: no('A'), ours: 350, gateway: 350, at: `${DAY} 09:00` },
    { orderNo: no('B'), ours: 300, gateway: 299, at: `${DAY} 10:00` },
    { orderNo: no('C'), gateway: 600, at: `${DAY} 23:59` },
  ]);
});

test.describe('对账', () => {
  test('runs a chosen day for one 支付配置, lists the differences with both sides, marks one handled and exports them', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto('/task/index');
    await openFromMenu(page, '支付管理', '对账');
    await expect(page).toHaveURL(/\/pay\/Reconcile$/);

    await page.getByRole('button', { name: '对账', exact: true }).click();
    const runDialog = dialog(page, '开始对账');
    await runDialog.getByLabel('对账日期').fill(DAY);
    await runDialog.getByLabel('对账日期').press('Tab'); // (Enter would submit the dialog)
    await pickOption(page, runDialog, '支付配置', configName);
    await runDialog.getByRole('button', { name: '开始对账' }).click();
    await expect(toast(page, '对账完成：1 个支付配置，2 条差异')).toBeVisible();
    await expect(runDialog).toBeHidden();

    const row = rowOf(page, configName);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(DAY);
    await expect(row).toContainText('6.50'); // ours: 3.50 + 3.00
    await expect(row).toContainText('12.49'); // the gateway's: 3.50 + 2.99 + 6.00
    await expect(row.locator('.ant-tag', { hasText: '有差异' })).toHaveClass(/ant-tag-red/);
    // fits 1366 px: no sideways scroll
    const content = page.locator('.ant-table-content').first();
    const { scrollWidth, clientWidth } = await content.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);

    await clickRowAction(page, row, '差异');
    const diffs = dialog(page, `对账差异（${DAY} ${configName}）`);
    await expect(diffs.locator('.ant-table-row')).toHaveCount(2);
    const amount = diffs.locator('.ant-table-row').filter({ hasText: no('B') });
    await expect(amount).toContainText('金额不一致');
    await expect(amount).toContainText('3.00');
    await expect(amount).toContainText('2.99');
    await expect(diffs.locator('.ant-table-row').filter({ hasText: no('C') })).toContainText('通道有/平台无');

    await clickRowAction(page, amount, '标记处理');
    const handle = dialog(page, '标记差异已处理');
    await handle.getByRole('button', { name: '保存' }).click();
    await expect(handle).toContainText('请填写处理备注');
    await handle.getByLabel('处理备注').fill('已核实：通道少收1分');
    await handle.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '已标记为已处理')).toBeVisible();
    await expect(amount).toContainText('已处理');
    await expect(amount).toContainText('已核实：通道少收1分');

    const downloading = page.waitForEvent('download');
    await diffs.getByRole('button', { name: '导出' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe('对账差异.xlsx');
    expect(fs.statSync(await file.path()).size).toBeGreaterThan(1000);

    await diffs.locator('.ant-modal-close').click();
    await expect(diffs).toBeHidden();
    await expect(rowOf(page, configName)).toContainText('未处理 1');
  });
});
