import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Page } from '@playwright/test';
import { SecretBox, secretKeyFromBase64 } from '../server/src/infra/secret-box.ts';
import { dataDirPointer, E2E_PORT } from './env.ts';
import { answerConfirm, expect, test, toast, tokenOf, uniqueCode } from './fixtures.ts';
import { clickRowAction, deleteRowCancelThenConfirm, dialog, fieldError, pickOption, rowOf, rows, searchList } from './list-page.ts';

const URL = '/machine/MachineConfig';

/**
 * Machines of the demo company, written straight into the suite's database (the 机器列表 screen is
 * another area's; its rows are what this screen binds). The terminal key is sealed like the server does.
 */
function addMachines(machineNos: string[]): number {
  const dataDir = fs.readFileSync(dataDirPointer(E2E_PORT), 'utf8').trim();
  const box = new SecretBox(secretKeyFromBase64(fs.readFileSync(path.join(dataDir, 'pay-secret.key'), 'utf8')));
  const db = new DatabaseSync(path.join(dataDir, 'huiyun.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const dept = db.prepare("select deptId from sys_dept where deptNo = 'DEMO'").get() as { deptId: number };
    const insert = db.prepare('insert into pay_machine (machineNo, machineName, deptId, terminalKey, addTime, editTime) values (?, ?, ?, ?, ?, ?)');
    for (const machineNo of machineNos) insert.run(machineNo, `终端${machineNo.slice(-5)}`, dept.deptId, box.seal('pay_machine.terminalKey', 'e2e-terminal-key'), Date.now(), Date.now());
    return dept.deptId;
  } finally {
    db.close();
  }
}

async function addPayConfig(page: Page, body: Record<string, unknown>): Promise<number> {
  const answer = await page.request.post('/api/Config/save', { headers: { token: await tokenOf(page) }, data: body });
  const json = await answer.json();
  expect(json.success, json.msg).toBe(true);
  return json.data.id;
}

test.describe('终端支付配置', () => {
  test('the dialog shows the SPEC messages', async ({ adminPage: page }) => {
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增终端支付配置');
    await add.getByRole('button', { name: '保存' }).click();
    for (const text of ['请输入终端号', '请选择支付方式', '请输入配置序号', '请输入显示名称']) await expect(fieldError(add, text)).toBeVisible();
    await add.getByRole('button', { name: '取消' }).click();
    await expect(add).toBeHidden();
  });

  test('bind a machine to a config picked from lists, refuse a duplicate, edit, search, delete', async ({ adminPage: page }) => {
    const tag = uniqueCode('E2ETC').slice(0, 24);
    const [machineA, machineB] = [`${tag}-A`, `${tag}-B`];
    const deptId = addMachines([machineA, machineB]);
    const configName = `${tag} 现金配置`;
    await addPayConfig(page, { name: configName, payType: 1, deptId });
    await addPayConfig(page, { name: `${tag} 微信配置`, payType: 3, deptId });

    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增终端支付配置');
    await pickOption(page, add, '终端号', machineA, { search: true });
    await pickOption(page, add, '支付方式', '现金');
    // Only the company's configs of that pay type are offered.
    await add.getByLabel('支付配置', { exact: true }).click();
    await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: `${tag} 微信配置` })).toHaveCount(0);
    await pickOption(page, add, '支付配置', configName);
    await expect(add.getByLabel('显示名称', { exact: true })).toHaveValue(configName);
    await add.getByLabel('显示名称', { exact: true }).fill('现金支付');
    await add.getByLabel('POS编号', { exact: true }).fill('POS-01');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '终端支付配置保存成功！')).toBeVisible();
    await expect(add).toBeHidden();

    // The same machine and pay type again: refused, the dialog stays.
    await page.getByRole('button', { name: '新增' }).click();
    await pickOption(page, add, '终端号', machineA, { search: true });
    await pickOption(page, add, '支付方式', '现金');
    await pickOption(page, add, '支付配置', configName);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, `终端“${machineA}”已配置过该支付方式，请编辑原有配置`)).toBeVisible();
    await expect(add).toBeVisible();
    await add.getByRole('button', { name: '取消' }).click();

    await searchList(page, 'terminalConfig', '终端号', machineA);
    await expect(rows(page)).toHaveCount(1);
    const row = rowOf(page, machineA);
    await expect(row).toContainText('现金支付');
    await expect(row).toContainText('正常');

    await clickRowAction(page, row, '编辑');
    const edit = dialog(page, '编辑终端支付配置');
    await expect(edit.getByLabel('显示名称', { exact: true })).toHaveValue('现金支付');
    await edit.getByLabel('显示名称', { exact: true }).fill('现金（停用）');
    // the 状态 radio group is named for screen readers (components/RadioGroup.tsx), its choices within it
    const status = edit.getByRole('radiogroup', { name: '状态' });
    await expect(status.getByRole('radio', { name: '正常' })).toBeChecked();
    await status.getByRole('radio', { name: '停用' }).check();
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '终端支付配置保存成功！')).toBeVisible();
    await expect(rowOf(page, machineA)).toContainText('现金（停用）');
    await expect(rowOf(page, machineA)).toContainText('停用');

    // A search for the other machine finds nothing yet.
    await searchList(page, 'terminalConfig', '终端号', machineB);
    await expect(rows(page)).toHaveCount(0);

    await searchList(page, 'terminalConfig', '终端号', machineA);
    await deleteRowCancelThenConfirm(page, rowOf(page, machineA), { confirm: '确定删除选中的数据吗？', deleted: '终端支付配置已删除！' });
    await expect(rows(page)).toHaveCount(0);
  });

  test('a 支付配置 still bound cannot be deleted', async ({ adminPage: page }) => {
    const tag = uniqueCode('E2EBD').slice(0, 24);
    const deptId = addMachines([tag]);
    const configName = `${tag} 绑定`;
    const configId = await addPayConfig(page, { name: configName, payType: 1, deptId });
    const token = await tokenOf(page);
    const bound = await page.request.post('/api/MachineConfig/save', { headers: { token }, data: { machineNo: tag, payType: 1, configId, configName: '现金', payOpen: 'T' } });
    expect((await bound.json()).success).toBe(true);

    await page.goto('/pay/Config');
    await searchList(page, 'payConfig', '配置名称', configName);
    await clickRowAction(page, rowOf(page, configName), '删除');
    await answerConfirm(page, '确定');
    await expect(toast(page, `支付配置“${configName}”已被 1 条终端支付配置使用，请先删除或改绑这些终端支付配置`)).toBeVisible();
    await expect(rowOf(page, configName)).toBeVisible();
  });
});

test('终端支付配置 fits 1366 px without a sideways scroll', async ({ adminPage: page }) => {
  const tag = uniqueCode('E2EFT').slice(0, 24);
  const deptId = addMachines([tag]);
  const configId = await addPayConfig(page, { name: `${tag} 适配`, payType: 1, deptId });
  const saved = await page.request.post('/api/MachineConfig/save', { headers: { token: await tokenOf(page) }, data: { machineNo: tag, payType: 1, configId, configName: '现金支付', payOpen: 'T', posNo: 'POS-1' } });
  expect((await saved.json()).success).toBe(true);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(URL);
  await searchList(page, 'terminalConfig', '终端号', tag);
  await expect(rows(page)).toHaveCount(1);
  const content = page.locator('.ant-table-content').first();
  const { scrollWidth, clientWidth } = await content.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  await expect(page.locator('.ant-table-thead th').filter({ hasText: '操作' })).toBeVisible();
});
