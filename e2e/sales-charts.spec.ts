import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Page } from '@playwright/test';
import { dataDirPointer, E2E_PORT } from './env.ts';
import { expect, test, uniqueName } from './fixtures.ts';
import { openFromMenu, pickOption } from './list-page.ts';

// 数据可视化 (/charts/statistics) at 1366×768. Orders of a terminal of this run are written straight into the
// suite's database as the payment half writes them (the rollups follow by trigger: server tests cover that);
// the screen, filtered to that terminal, shows them.

const run = uniqueName('c').replace(/[^A-Za-z0-9]/g, '').slice(-10).toUpperCase();
const machine = `E2EC-${run}`;

function addSales() {
  const dataDir = fs.readFileSync(dataDirPointer(E2E_PORT), 'utf8').trim();
  const db = new DatabaseSync(path.join(dataDir, 'huiyun.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const now = Date.now();
    const deptId = (db.prepare("select deptId from sys_dept where deptNo = 'DEMO'").get() as { deptId: number }).deptId;
    db.prepare('insert into pay_machine (machineNo, machineName, deptId, terminalKey, lastSeenAt, addTime, editTime) values (?, ?, ?, ?, null, ?, ?)').run(machine, '图表测试机', deptId, 'k', now, now);
    const order = db.prepare(`insert into pay_order (deptId, orderNo, payType, transType, machineNo, goodsName, goodsPrice, payAmount, orderStatus, createTime, payTime, parentId, requestKey)
      values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const sale = (suffix: string, payType: number, goods: string, fen: number, paid: boolean) =>
      Number(order.run(deptId, `E2EC${run}${suffix}`, payType, 1, machine, goods, fen, fen, paid ? 3 : 5, now - 60_000, paid ? now - 30_000 : null, null, '').lastInsertRowid);
    const first = sale('1', 3, '可乐', 300, true);
    sale('2', 2, '雪碧', 500, true);
    sale('3', 3, '可乐', 400, false); // walked away: a click, no sale
    order.run(deptId, `E2EC${run}1R`, 3, 2, machine, '可乐', 300, -100, 13, now - 20_000, now - 10_000, first, 'e2e');
  } finally {
    db.close();
  }
}

test.beforeAll(addSales);

const filters = (page: Page) => page.locator('form.sales-charts-filters');
const chart = (page: Page, name: string) => page.locator(`.sales-chart[data-chart="${name}"]`);

test.describe('数据可视化', () => {
  test('shows a terminal\'s sales from its orders: cards, charts, ranks, save-as-image, the 日/月/年 switch and an empty period', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    // the chart library comes after the figures: the cards and tables never wait for it
    const order: string[] = [];
    page.on('request', (request) => { if (/\/assets\/EChart-/.test(request.url())) order.push('chart library asked'); });
    page.on('requestfinished', (request) => { if (request.url().includes('/api/Charts/statistics')) order.push('figures came'); });
    await page.goto('/task/index');
    await openFromMenu(page, '统计分析', '数据可视化');
    await expect(page).toHaveURL(/\/charts\/statistics$/);
    await expect(page.getByText('该页面将在后续版本中上线')).toHaveCount(0);

    await pickOption(page, filters(page), '终端', machine, { search: true });
    await filters(page).getByRole('button', { name: '查询' }).click();
    // today: 3.00 + 5.00 paid, 1.00 refunded; 2 sales
    const today = page.locator('.sales-card-today');
    await expect(today.locator('.ant-statistic').first()).toContainText('7.00');
    await expect(today.locator('.ant-statistic').nth(1)).toContainText('2');
    await expect(page.locator('.sales-top-machines tbody tr').first()).toContainText(machine);
    await expect(page.locator('.sales-top-machines tbody tr').first()).toContainText('图表测试机');
    await expect(page.locator('.sales-top-goods tbody tr')).toHaveCount(2);
    await expect(page.locator('.sales-top-goods tbody tr').first()).toContainText('雪碧');
    for (const name of ['销售笔数', '销售额', '点击量', '支付方式占比（金额）', '支付方式占比（笔数）']) {
      await expect(chart(page, name).locator('canvas')).toBeVisible();
      await expect(chart(page, name)).toHaveAttribute('data-empty', 'false');
    }
    expect(order.slice(0, 2)).toEqual(['figures came', 'chart library asked']);
    // save-as-image: the toolbox's icon, drawn on the canvas at the chart's top right (EChart.tsx: right 8), downloads the chart as a PNG
    const amountBox = (await chart(page, '销售额').boundingBox())!;
    const saving = page.waitForEvent('download');
    const icon = { x: amountBox.x + amountBox.width - 27, y: amountBox.y + 26 };
    await page.mouse.move(icon.x, icon.y);
    await page.mouse.click(icon.x, icon.y);
    const image = await saving;
    expect(image.suggestedFilename()).toBe('销售额.png');
    expect(fs.readFileSync(await image.path()).subarray(1, 4).toString()).toBe('PNG');
    await page.mouse.move(0, 0);

    // fits 1366 px: nothing sideways
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1366);

    // what a click is
    await page.locator('.sales-chart-tip').nth(1).hover();
    await expect(page.getByRole('tooltip')).toContainText('点击量：终端创建的订单数');
    await page.mouse.move(0, 0);
    await expect(page.getByRole('tooltip')).toBeHidden();

    // 月, 年
    for (const view of ['月', '年']) {
      await page.locator('.sales-charts-granularity').getByText(view, { exact: true }).click();
      await expect(chart(page, '销售额')).toHaveAttribute('data-empty', 'false');
    }

    // resizes with the window
    const wide = (await chart(page, '销售额').locator('canvas').boundingBox())!.width;
    await page.setViewportSize({ width: 1100, height: 768 });
    await expect.poll(async () => (await chart(page, '销售额').locator('canvas').boundingBox())!.width).toBeLessThan(wide);
    await page.setViewportSize({ width: 1366, height: 768 });

    // an empty period: drawn, with 暂无数据, no error
    await page.locator('.sales-charts-granularity').getByText('日', { exact: true }).click();
    const [start, finish] = [filters(page).getByPlaceholder('开始日期'), filters(page).getByPlaceholder('结束日期')];
    await start.click();
    await start.fill('2001-01-01');
    await finish.click();
    await finish.fill('2001-01-31');
    await finish.press('Enter');
    await filters(page).getByRole('button', { name: '查询' }).click();
    await expect(chart(page, '销售笔数')).toHaveAttribute('data-empty', 'true');
    await expect(chart(page, '销售笔数').locator('canvas')).toBeVisible();
    await expect(page.locator('.sales-top-machines')).toContainText('暂无数据');
  });

  test.describe('without its chart library', () => {
    const chartLibrary = /\/assets\/EChart-[^/]*\.js$/;
    test.use({ failingAssets: [chartLibrary] });

    test('shows the cards and tables, and says in each chart\'s place that it could not be drawn', async ({ adminPage: page }) => {
      await page.route(chartLibrary, (route) => route.abort());
      await page.goto('/charts/statistics');
      await expect(page.locator('.sales-card-today .ant-statistic-content')).toHaveCount(2);
      await expect(page.locator('.sales-chart-pending').filter({ hasText: '图表加载失败，请刷新页面重试' })).toHaveCount(5);
      await expect(page.locator('.sales-top-machines')).toBeVisible();
      await expect(page.locator('.sales-chart canvas')).toHaveCount(0);
    });
  });
});
