import type { Page } from '@playwright/test';
import { answerConfirm, expect, test, toast, tokenOf, uniqueCode } from './fixtures.ts';
import { clickRowAction, dialog, rowOf, rows, searchList } from './list-page.ts';
import { BASE_URL } from './env.ts';
import { TerminalClient } from '../tools/terminal-simulator/terminal-client.ts';

const URL = '/machine/MachineAisle';

/** A machine of this test through the API; answers its id. */
async function createMachine(page: Page, prefix: string): Promise<{ machineId: number; machineNo: string; terminalKey: string }> {
  const machineNo = uniqueCode(prefix).slice(0, 32);
  const token = await tokenOf(page);
  const answer = await (await page.request.post('/api/Machine/save', { headers: { token }, data: { machineNo, machineName: '货道端到端' } })).json();
  expect(answer.success).toBe(true);
  return { machineId: answer.data.machineId, machineNo, terminalKey: answer.data.terminalKey };
}

const aisleRow = (page: Page, aisleNo: string) => rows(page).filter({ has: page.locator('td').first().getByText(aisleNo, { exact: true }) });

test.describe('货道信息', () => {
  test('pick a machine by searching, see its aisles as a table and as the machine front', async ({ adminPage: page }) => {
    await page.goto(URL);
    await expect(page.getByText('请先选择一台机器')).toBeVisible();
    const select = page.getByLabel('机器', { exact: true });
    await expect(async () => {
      await select.fill('DEMO-0001');
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'DEMO-0001' }).first().click({ timeout: 2000 });
      await expect(page).toHaveURL(/machineId=\d+/, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.locator('section header').getByText('DEMO-0001 演示售货机（大厅）')).toBeVisible();
    await expect(rows(page)).toHaveCount(12);
    await expect(aisleRow(page, 'A1')).toContainText('演示-');
    await page.getByText('货道图').click();
    await expect(page.getByRole('group', { name: '第 3 层' }).locator('.aisle-cell')).toHaveCount(4);
  });

  test('the machine list opens a machine\'s aisles', async ({ adminPage: page }) => {
    await page.goto('/machine/MachineInfo');
    await searchList(page, 'machine', '机器编号', 'DEMO-0002');
    await clickRowAction(page, rowOf(page, 'DEMO-0002'), '货道信息');
    await expect(page).toHaveURL(/\/machine\/MachineAisle\?machineId=\d+/);
    await expect(page.locator('section header').getByText('DEMO-0002 演示售货机（二楼茶水间）')).toBeVisible();
    await expect(rows(page)).toHaveCount(8);
  });

  test('create a grid, edit a price in yuan, restock, disable and delete', async ({ adminPage: page }) => {
    const { machineId, machineNo, terminalKey } = await createMachine(page, 'E2E-AISLE');
    await page.goto(`${URL}?machineId=${machineId}`);
    await expect(page.getByText('该机器还没有货道')).toBeVisible();

    await page.getByRole('button', { name: '批量生成货道' }).click();
    const gridDialog = dialog(page, '批量生成货道');
    await gridDialog.getByLabel('层数').fill('2');
    await gridDialog.getByLabel('每层列数').fill('3');
    await gridDialog.getByLabel('默认容量').fill('8');
    await gridDialog.getByLabel('默认价格（元）').fill('2.5');
    await gridDialog.getByRole('button', { name: '批量生成货道' }).click();
    await expect(toast(page, '已生成 6 个货道，0 个已有货道保持不变')).toBeVisible();
    await expect(rows(page)).toHaveCount(6);
    await expect(aisleRow(page, 'B3')).toContainText('2.50');
    await expect(aisleRow(page, 'B3')).toContainText('0 / 8');
    // the machine's own count: none until its heartbeat, then beside the server's, flagged when it differs
    await expect(aisleRow(page, 'B3')).toContainText('未上报');
    const beat = await new TerminalClient(BASE_URL, machineNo, terminalKey).call('/heartbeat', { aisles: [{ aisleNo: 'B3', stock: 3 }, { aisleNo: 'B2', stock: 0 }] });
    expect(beat.body.success).toBe(true);
    await page.reload();
    await expect(aisleRow(page, 'B3').getByText('3', { exact: true })).toBeVisible();
    await expect(aisleRow(page, 'B2').getByText('0', { exact: true })).toBeVisible();
    await expect(aisleRow(page, 'A1')).toContainText('未上报');

    // edit A1: a price with three decimals and stock above capacity are refused in the dialog
    await aisleRow(page, 'A1').getByRole('button', { name: '编辑' }).click();
    const edit = dialog(page, '编辑货道');
    await edit.getByLabel('商品名称').fill('端到端矿泉水');
    await edit.getByLabel('价格（元）').fill('3.456');
    await expect(edit.getByText('价格必须是不小于0的金额，最多两位小数')).toBeVisible();
    await edit.getByLabel('价格（元）').fill('3.5');
    await edit.getByLabel('库存').fill('9');
    await expect(edit.getByText('库存不能大于容量')).toBeVisible();
    await edit.getByLabel('库存').fill('5');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '货道保存成功！')).toBeVisible();
    await expect(aisleRow(page, 'A1')).toContainText('端到端矿泉水');
    await expect(aisleRow(page, 'A1')).toContainText('3.50');
    await expect(aisleRow(page, 'A1')).toContainText('5 / 8');

    // restock one aisle, disable another, then restock the whole machine (enabled aisles only)
    await aisleRow(page, 'A1').getByRole('button', { name: '补满' }).click();
    await expect(toast(page, '已补满 1 个货道')).toBeVisible();
    await expect(aisleRow(page, 'A1')).toContainText('8 / 8');
    await aisleRow(page, 'A2').getByRole('button', { name: '停用' }).click();
    await expect(toast(page, '货道状态已更新！')).toBeVisible();
    await expect(aisleRow(page, 'A2').locator('.ant-tag')).toHaveText('停用');
    await page.getByRole('button', { name: '全部补满' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '已补满 4 个货道')).toBeVisible();
    await expect(aisleRow(page, 'B3')).toContainText('8 / 8');
    await expect(aisleRow(page, 'A2')).toContainText('0 / 8');

    // delete: cancel keeps it, confirm removes it
    await aisleRow(page, 'A3').getByRole('button', { name: '删除' }).click();
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消删除')).toBeVisible();
    await expect(rows(page)).toHaveCount(6);
    await aisleRow(page, 'A3').getByRole('button', { name: '删除' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '货道已删除！')).toBeVisible();
    await expect(rows(page)).toHaveCount(5);

    // a single new aisle lands in the first free cell of layer A
    await page.getByRole('button', { name: '新增货道' }).click();
    const add = dialog(page, '新增货道');
    await expect(add.getByLabel(/^列/)).toHaveValue('3');
    await add.getByLabel('价格（元）').fill('1.20');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '货道保存成功！')).toBeVisible();
    await expect(aisleRow(page, 'A3')).toContainText('1.20');
  });
});
