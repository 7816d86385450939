import type { Page } from '@playwright/test';
import { answerConfirm, expect, test, toast, tokenOf, uniqueCode } from './fixtures.ts';
import { clickRowAction, deleteRowCancelThenConfirm, dialog, rowOf, rows, searchList } from './list-page.ts';

const URL = '/machine/MachineInfo';

/** A machine number of this run: letters, digits and dashes, at most 32. */
const machineNo = (prefix: string) => uniqueCode(prefix).slice(0, 32);
const searchByNo = (page: Page, no: string) => searchList(page, 'machine', '机器编号', no);

async function createMachine(page: Page, item: { machineNo: string; machineName: string }) {
  const token = await tokenOf(page);
  const answer = await page.request.post('/api/Machine/save', { headers: { token }, data: item });
  expect((await answer.json()).success).toBe(true);
}

/** The key the once-only dialog shows, after which the dialog is closed. */
async function readKeyAndClose(page: Page, no: string): Promise<string> {
  const keyDialog = dialog(page, `机器 ${no} 的终端密钥`);
  await expect(keyDialog).toBeVisible();
  await expect(keyDialog).toContainText('终端密钥只显示这一次');
  const key = (await keyDialog.locator('.terminal-key').textContent())?.trim() ?? '';
  expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await keyDialog.getByRole('button', { name: '复制' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: /已复制到剪贴板|复制失败/ }).first()).toBeVisible();
  await keyDialog.getByRole('button', { name: '我已保存，关闭' }).click();
  await expect(keyDialog).toBeHidden();
  return key;
}

test.describe('机器列表', () => {
  test('the demo machines are there on a fresh installation; the list fits 1366 px', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(URL);
    await searchByNo(page, 'DEMO-000');
    await expect(rowOf(page, 'DEMO-0001')).toContainText('演示售货机（大厅）');
    await expect(rowOf(page, 'DEMO-0002')).toContainText('汇云演示公司');
    await expect(rowOf(page, 'DEMO-0001')).toContainText('启用');
    await expect(rowOf(page, 'DEMO-0001')).toContainText('离线');
    const content = page.locator('.ant-table-content').first();
    const { scrollWidth, clientWidth } = await content.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    for (const title of ['机器编号', '机器名称', '所属公司', '状态', '在线状态', '最后在线', '操作']) {
      await expect(page.locator('.ant-table-thead th').filter({ hasText: title }).first()).toBeInViewport();
    }
  });

  test('add shows the terminal key once; edit, search, and the key is never listed', async ({ adminPage: page }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const no = machineNo('E2E-ADD');
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增机器');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(add.getByText('请输入机器编号')).toBeVisible();
    await expect(add.getByText('请输入机器名称')).toBeVisible();
    await add.getByLabel('机器编号').fill('has space');
    await expect(add.getByText('机器编号只能包含字母、数字和中划线，最长32个字符')).toBeVisible();
    await add.getByLabel('机器编号').fill(no);
    await add.getByLabel('机器名称').fill('端到端售货机');
    await add.getByLabel('安装地址').fill('测试大厅');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '机器保存成功！')).toBeVisible();
    const key = await readKeyAndClose(page, no);

    await searchByNo(page, no);
    await expect(rows(page)).toHaveCount(1);
    const row = rowOf(page, no);
    await expect(row).toContainText('端到端售货机');
    await expect(row).toContainText('启用');
    await expect(page.locator('body')).not.toContainText(key);

    await clickRowAction(page, row, '编辑');
    const edit = dialog(page, '编辑机器');
    await expect(edit.getByLabel('机器名称')).toHaveValue('端到端售货机');
    await edit.getByLabel('机器名称').fill('端到端售货机（改）');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '机器保存成功！')).toBeVisible();
    await expect(rowOf(page, no)).toContainText('端到端售货机（改）');
    // editing shows no key
    await expect(page.getByText('终端密钥只显示这一次')).toHaveCount(0);

    // a duplicate number is refused with the server's message, the dialog stays
    await page.getByRole('button', { name: '新增' }).click();
    const again = dialog(page, '新增机器');
    await again.getByLabel('机器编号').fill(no);
    await again.getByLabel('机器名称').fill('重复');
    await again.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '机器编号已存在')).toBeVisible();
    await expect(again).toBeVisible();
  });

  test('reset key: cancel keeps the key, confirm shows a new one once', async ({ adminPage: page }) => {
    const no = machineNo('E2E-KEY');
    await createMachine(page, { machineNo: no, machineName: '密钥测试' });
    await page.goto(URL);
    await searchByNo(page, no);
    const row = rowOf(page, no);
    await clickRowAction(page, row, '重置密钥');
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消')).toBeVisible();
    await expect(page.getByText('终端密钥只显示这一次')).toHaveCount(0);
    await clickRowAction(page, row, '重置密钥');
    await answerConfirm(page, '确定');
    await expect(toast(page, '终端密钥已重置！')).toBeVisible();
    const first = await readKeyAndClose(page, no);
    await clickRowAction(page, row, '重置密钥');
    await answerConfirm(page, '确定');
    const second = await readKeyAndClose(page, no);
    expect(second).not.toBe(first);
  });

  test('disable and enable, then delete with cancel first', async ({ adminPage: page }) => {
    const no = machineNo('E2E-DEL');
    await createMachine(page, { machineNo: no, machineName: '删除测试' });
    await page.goto(URL);
    await searchByNo(page, no);
    const row = rowOf(page, no);
    await clickRowAction(page, row, '停用');
    await answerConfirm(page, '确定');
    await expect(toast(page, '机器状态已更新！')).toBeVisible();
    await expect(row).toContainText('停用');
    const form = page.locator('form#machine-search');
    await clickRowAction(page, row, '启用');
    await answerConfirm(page, '确定');
    await expect(row.locator('.ant-tag')).toHaveText('启用');
    await expect(form).toBeVisible();

    await deleteRowCancelThenConfirm(page, row, { confirm: '确定删除选中的数据吗？', deleted: '机器已删除！' });
    await expect(rows(page)).toHaveCount(0);
  });

  test('a machine bound to a terminal pay config is not deleted', async ({ adminPage: page }) => {
    await page.goto(URL);
    await searchByNo(page, 'DEMO-0002');
    const row = rowOf(page, 'DEMO-0002');
    // the demo machines are bound to the demo 终端支付配置
    await clickRowAction(page, row, '删除');
    await answerConfirm(page, '确定');
    await expect(toast(page, '机器 DEMO-0002 已绑定终端支付配置，请先删除其终端支付配置')).toBeVisible();
    await expect(row).toBeVisible();
  });
});
