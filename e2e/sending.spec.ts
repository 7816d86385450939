// Sending end to end: a code made in the console, a device (e2e/device.ts) activating it over the
// device protocol, a task choosing that device, numbers reported sent and failed, and every screen that
// shows the work following without a reload: 设备列表, 任务列表 counters, statistics, exports.
import fs from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { addCodeInConsole, createAccount } from './console-steps.ts';
import { expect, loginThroughUi, test, toast, uniqueName } from './fixtures.ts';
import { cellOf, dialog, rowOf, searchList } from './list-page.ts';
import { BASE_URL } from './env.ts';
import { reportable, TestDevice } from './device.ts';
import { clearSendWindow } from './task-dialog.ts';

// Six China Mobile numbers: every counter's carrier split reads (n | 0 | 0 | 0).
const PHONES = ['13800138000', '13800138001', '13800138002', '13800138003', '13800138004', '13800138005'];

/** Exports the task's numbers of one kind through 导出 → 导出记录 and answers the file's lines, sorted. */
async function exportNumbers(page: Page, taskName: string, kind: '已发送' | '未发送'): Promise<string[]> {
  const row = rowOf(page, taskName);
  await row.getByRole('checkbox').check();
  await page.getByRole('button', { name: '导出' }).click();
  const exporter = dialog(page, '导出记录');
  await exporter.getByRole('radio', { name: kind }).check();
  const downloading = page.waitForEvent('download');
  await exporter.getByRole('button', { name: '确定' }).click();
  const download: Download = await downloading;
  expect(download.suggestedFilename()).toBe(`${taskName}-${kind}.txt`);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  await row.getByRole('checkbox').uncheck();
  return text.split('\r\n').filter(Boolean).sort();
}

test('a device sends a task: 设备列表, live counters, statistics, exports, 已完成', async ({ browser, adminPage: admin }) => {
  // Two browsers, a device and four screens: ~50 s on a quiet two-core machine.
  test.slow();
  const owner = { userName: uniqueName('send'), password: 'Send@12345' };
  const machineName = uniqueName('手机');
  const taskName = uniqueName('e2e_send');
  await createAccount(admin, owner.userName, owner.password);

  // An administrator makes the code; the device activates it and says how it is.
  const code = await addCodeInConsole(admin, owner.userName);
  const device = await TestDevice.activate(code.toLowerCase(), uniqueName('android'), machineName);
  expect(device.activation.userName).toBe(owner.userName);
  await device.heartbeat({ battery: 87, signal: 4, appVersion: '1.3.0' });

  // 设备列表 is opened from 授权码列表 and shows the device online; the code, lease and the phone's own
  // figures (battery, signal, version) are the list's secondary columns, shown on a wide screen.
  await admin.setViewportSize({ width: 1920, height: 1080 });
  await admin.getByRole('button', { name: '设备列表' }).click();
  await expect(admin).toHaveURL(/\/task\/devices$/);
  await expect(admin.locator('.ant-breadcrumb')).toContainText('授权码列表');
  await expect(admin.locator('.ant-breadcrumb')).toContainText('设备列表');
  await searchList(admin, 'device', '设备名称', machineName);
  const deviceRow = rowOf(admin, machineName);
  await expect(await cellOf(admin, deviceRow, '状态')).toHaveText('在线');
  await expect(await cellOf(admin, deviceRow, '发送能力')).toHaveText('全部'); // it declared nothing: everything
  await expect(await cellOf(admin, deviceRow, '设备编号')).toHaveText(device.machineCode);
  await expect(await cellOf(admin, deviceRow, '所属账号')).toHaveText(owner.userName);
  await expect(await cellOf(admin, deviceRow, '授权码')).toHaveText(code);
  await expect(await cellOf(admin, deviceRow, '电量')).toHaveText('87%');
  await expect(await cellOf(admin, deviceRow, '信号')).toHaveText('4/5');
  await expect(await cellOf(admin, deviceRow, '版本')).toHaveText('1.3.0');
  await expect(await cellOf(admin, deviceRow, '今日发送')).toHaveText('0');
  await expect(await cellOf(admin, deviceRow, '剩余数量')).toHaveText('100');
  await expect(await cellOf(admin, deviceRow, '最后在线')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

  // The owner makes a task on that device and uploads the numbers: the task runs.
  const context = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN' });
  const page = await context.newPage();
  await loginThroughUi(page, owner);
  // An ordinary account opens 设备列表 through its 授权码列表 right and sees its own device.
  await page.goto('/task/devices');
  await expect(rowOf(page, machineName)).toBeVisible();
  await expect(page.locator('.ant-layout-sider .ant-menu-item-selected')).toHaveText('授权码列表');
  await page.goto('/task/index');
  await page.getByRole('button', { name: '新增' }).click();
  const add = dialog(page, '新增任务');
  await add.getByLabel('任务名称').fill(taskName);
  await add.getByLabel('内容', { exact: true }).fill('您好，回访');
  await add.getByLabel('发送设备').click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${machineName} (${device.machineCode})"]`).click();
  await add.getByLabel('任务名称').click(); // closes the device choice
  await clearSendWindow(add); // any hour: the journey must not depend on when it runs
  await add.getByRole('button', { name: '保存' }).click();
  await expect(toast(page, '任务保存成功！')).toBeVisible();
  await expect(add).toBeHidden();
  await searchList(page, 'task', '任务名称', taskName);
  const taskRow = rowOf(page, taskName);
  await taskRow.getByRole('button', { name: '上传号码' }).click();
  const upload = dialog(page, '上传号码');
  await upload.locator('input[type=file]').setInputFiles({ name: 'numbers.txt', mimeType: 'text/plain', buffer: Buffer.from(PHONES.join('\r\n')) });
  await expect(toast(page, '数据上传成功！')).toBeVisible();
  await upload.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
  const sentCell = await cellOf(page, taskRow, '已发送');
  await expect(await cellOf(page, taskRow, '状态')).toHaveText('运行中');
  await expect(await cellOf(page, taskRow, '号码总数')).toHaveText('6 (6 | 0 | 0 | 0)');
  await expect(sentCell).toHaveText('0 (0 | 0 | 0 | 0)');

  // The device takes the six, reports three sent and one failed, and holds two.
  const first = await device.pullBatch();
  expect(first.taskName).toBe(taskName);
  const items = reportable(first);
  expect(items.map((i) => i.phone).sort()).toEqual(PHONES);
  const [a, b, c, failing, d, e] = items;
  expect(await device.report(first.batchId, [
    { id: a.id, status: 'sent' }, { id: b.id, status: 'sent' }, { id: c.id, status: 'sent' },
    { id: failing.id, status: 'failed', reason: 'RESULT_ERROR_GENERIC_FAILURE' },
  ])).toMatchObject({ sent: 3, failed: 0, retrying: 1, ignored: 0, taskCompleted: false });

  // Nobody reloads: the task list and 设备列表 follow in the background (every 5 s while a task runs,
  // every 10 s), within a step's wait.
  await expect(sentCell).toHaveText('3 (3 | 0 | 0 | 0)');
  await expect(await cellOf(admin, deviceRow, '今日发送')).toHaveText('3');
  await expect(await cellOf(admin, deviceRow, '发送中')).toHaveText('2');
  await expect(await cellOf(admin, deviceRow, '剩余数量')).toHaveText('97');

  // The phone's delivery receipts: one delivered (its repeat counts once), one undelivered; 送达 follows.
  expect(await device.delivery([
    { id: a.id, status: 'delivered' }, { id: a.id, status: 'delivered' }, { id: b.id, status: 'undelivered', reason: 'Delivery result: 空号' },
  ])).toEqual({ delivered: 1, undelivered: 1, ignored: 1 });
  await expect(await cellOf(page, taskRow, '送达')).toHaveText('1');

  // What was sent and what was not, as the owner exports them.
  expect(await exportNumbers(page, taskName, '已发送')).toEqual([a, b, c].map((i) => i.phone).sort());
  expect(await exportNumbers(page, taskName, '未发送')).toEqual([failing, d, e].map((i) => i.phone).sort());

  // The owner's statistics count the three.
  await page.goto('/task/userStatistics');
  const totals = page.locator('.statistics-totals');
  await expect(totals.locator('[data-total="totalCount"] .ant-statistic-content-value')).toHaveText('3');
  await expect(totals.locator('[data-total="todayCount"] .ant-statistic-content-value')).toHaveText('3');
  await expect(totals.locator('[data-total="todayDeliveredCount"] .ant-statistic-content-value')).toHaveText('1');
  await expect(rowOf(page, owner.userName)).toContainText('3 (3 | 0 | 0 | 0)');
  await expect(await cellOf(page, rowOf(page, owner.userName), '送达')).toHaveText('1');

  // The rest: two more sent; the failing number fails on every try until it is final. The task completes.
  await page.goto('/task/index');
  await searchList(page, 'task', '任务名称', taskName);
  expect(await device.report(first.batchId, [{ id: d.id, status: 'sent' }, { id: e.id, status: 'sent' }])).toMatchObject({ sent: 2 });
  let done = false;
  for (let attempt = 2; !done; attempt++) {
    expect(attempt).toBeLessThanOrEqual(3); // DEVICE_MAX_ATTEMPTS
    const retry = await device.pullBatch();
    expect(reportable(retry).map((i) => i.id)).toEqual([failing.id]);
    const answer = await device.report(retry.batchId, [{ id: failing.id, status: 'failed', reason: 'RESULT_ERROR_NO_SERVICE' }]);
    done = answer.taskCompleted;
  }
  expect((await device.pull()).batch).toBeNull();

  await expect(await cellOf(page, taskRow, '状态')).toHaveText('已完成');
  await expect(sentCell).toHaveText('5 (5 | 0 | 0 | 0)');
  expect(await exportNumbers(page, taskName, '未发送')).toEqual([failing.phone]);
  await expect(await cellOf(admin, deviceRow, '今日发送')).toHaveText('5');
  await expect(await cellOf(admin, deviceRow, '发送中')).toHaveText('0');
  await admin.getByRole('link', { name: '返回授权码列表' }).click();
  await expect(admin).toHaveURL(/\/task\/authcode$/);
  await context.close();
});
