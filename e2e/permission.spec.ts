import type { Page } from '@playwright/test';
import { answerConfirm, expect, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { deleteRowCancelThenConfirm, dialog, listScreenScenario, pickOption, rowOf, rows, searchList } from './list-page.ts';

const URL = '/system/Permission';

function tickOf(page: Page, code: string) {
  return page.getByRole('checkbox', { name: `授权 ${code}`, exact: true });
}

const searchByCode = (page: Page, code: string) => searchList(page, 'permission', '权限CODE', code);

/** A code segment unique to this run: letters and digits only. */
function uniqueSegment(prefix: string): string {
  return uniqueName(prefix).replace(/[^A-Za-z0-9]/g, '');
}

async function api(page: Page, method: 'get' | 'post', path: string, data?: unknown) {
  const token = await tokenOf(page);
  const answer = await page.request[method](path, { headers: { token }, ...(data === undefined ? {} : { data }) });
  return (await answer.json()) as { success: boolean; msg: string; data: any };
}

async function createPermissions(page: Page, items: { permissionName: string; permission: string }[]): Promise<number[]> {
  const ids: number[] = [];
  for (const item of items) {
    const answer = await api(page, 'post', '/api/Permission/save', item);
    expect(answer.success).toBe(true);
    ids.push(answer.data.permissionId);
  }
  return ids;
}

/** A fresh role (through the role API), so no other test's grants interfere. */
async function createRole(page: Page): Promise<{ roleId: number; roleName: string }> {
  const roleNo = uniqueSegment('e2eRole');
  const roleName = `权限测试角色${roleNo.slice(-8)}`;
  const saved = await api(page, 'post', '/api/Role/save', { systemNo: 'huiyun', roleNo, roleName });
  expect(saved.success).toBe(true);
  const roleId = Number(saved.data?.roleId ?? (await api(page, 'get', '/api/Role/dropDown/all')).data.find((r: { roleName: string }) => r.roleName === roleName).roleId);
  return { roleId, roleName };
}

async function chooseRole(page: Page, roleName: string) {
  const toolbar = page.locator('.role-grant-toolbar');
  await pickOption(page, toolbar, '角色', roleName, { search: true, shownIn: toolbar });
}

test.describe('权限管理', () => {
  listScreenScenario({
    url: URL,
    queryKey: 'permission',
    entity: '权限',
    required: ['请输入权限名称', '请输入权限CODE'],
    invalid: [{ label: '权限CODE', value: 'system:User', message: '权限CODE格式应如 system:User:list' }],
  });

  test('add, search, edit and delete a permission', async ({ adminPage: page }) => {
    const code = `e2e:${uniqueSegment('Add')}:list`;
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增权限');
    await add.getByLabel('权限名称').fill('端到端-查询');
    await add.getByLabel('权限CODE').fill(code);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '保存成功！')).toBeVisible();
    await expect(add).toBeHidden();

    await searchByCode(page, code);
    await expect(rows(page)).toHaveCount(1);
    await expect(page.getByText('共 1 条')).toBeVisible();
    const row = rowOf(page, code);
    await expect(row).toContainText('端到端-查询');

    await row.getByRole('button', { name: '编辑' }).click();
    const edit = dialog(page, '编辑权限');
    await expect(edit.getByLabel('权限CODE')).toHaveValue(code);
    await edit.getByLabel('权限名称').fill('端到端-列表');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '保存成功！')).toBeVisible();
    await expect(rowOf(page, code)).toContainText('端到端-列表');

    await deleteRowCancelThenConfirm(page, rowOf(page, code), { confirm: '确定删除选中的数据吗？', deleted: '已删除!' });
    await expect(rows(page)).toHaveCount(0);
  });

  test('a duplicate code and a built-in code show the server messages', async ({ adminPage: page }) => {
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增权限');
    await add.getByLabel('权限名称').fill('重复');
    await add.getByLabel('权限CODE').fill('system:User:list');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '权限CODE已存在')).toBeVisible();
    await add.getByRole('button', { name: '取消' }).click();

    await searchByCode(page, 'system:Variable:delete');
    await expect(rows(page)).toHaveCount(1);
    const row = rowOf(page, 'system:Variable:delete');
    await expect(row).toContainText('系统内置');
    await row.getByRole('button', { name: '删除' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '系统内置权限不能删除：system:Variable:delete')).toBeVisible();
    await expect(row).toBeVisible();

    await row.getByRole('button', { name: '编辑' }).click();
    const edit = dialog(page, '编辑权限');
    await edit.getByLabel('权限CODE').fill('system:Variable:remove');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '系统内置权限的CODE不能修改')).toBeVisible();
    await edit.getByRole('button', { name: '取消' }).click();
    await expect(rowOf(page, 'system:Variable:delete')).toBeVisible();
  });

  test('配置权限 without a role asks for one', async ({ adminPage: page }) => {
    await page.goto(URL);
    await expect(rows(page).first()).toBeVisible();
    await page.getByRole('button', { name: '配置权限' }).click();
    await expect(toast(page, '请选择角色')).toBeVisible();
  });

  test('choose a role, tick across pages and configure its permissions', async ({ adminPage: page }) => {
    const segment = uniqueSegment('Grant');
    const codes = Array.from({ length: 12 }, (_, i) => `e2e:${segment}:p${String(i).padStart(2, '0')}`);
    const ids = await createPermissions(page, codes.map((permission, i) => ({ permissionName: `授权测试${i}`, permission })));
    const role = await createRole(page);

    await page.goto(URL);
    await searchByCode(page, segment);
    await expect(page.getByText('共 12 条')).toBeVisible();
    // Newest first: page 1 holds p11 … p02, page 2 p01 and p00.
    // No role chosen: no tick column; the row selection (for 删除) is the one checkbox column.
    await expect(tickOf(page, codes[11])).toHaveCount(0);
    await expect(page.locator('.ant-table-thead .ant-table-selection-column')).toHaveCount(1);

    await chooseRole(page, role.roleName);
    await expect(tickOf(page, codes[11])).not.toBeChecked();
    // A role chosen: 授权 is the one checkbox column, labelled; no row selection beside it.
    await expect(page.locator('.ant-table-thead th').filter({ hasText: '授权' })).toBeVisible();
    await expect(page.locator('.ant-table-selection-column')).toHaveCount(0);
    await expect(page.locator('.list-toolbar').getByRole('button', { name: '删除' })).toHaveCount(0);
    await tickOf(page, codes[11]).check();
    await tickOf(page, codes[8]).check();
    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await expect(rows(page)).toHaveCount(2);
    await tickOf(page, codes[0]).check();
    await page.locator('.ant-pagination').getByTitle('1', { exact: true }).click();
    // Ticks stay across pages.
    await expect(tickOf(page, codes[11])).toBeChecked();
    await expect(tickOf(page, codes[8])).toBeChecked();
    await tickOf(page, codes[8]).uncheck();

    await page.getByRole('button', { name: '配置权限' }).click();
    await expect(toast(page, '配置权限成功！')).toBeVisible();
    const granted = await api(page, 'get', `/api/RolePermission/list/${role.roleId}`);
    expect(granted.data).toEqual([ids[0], ids[11]]);

    // A fresh visit preselects the role's grants.
    await page.reload();
    await searchByCode(page, segment);
    await chooseRole(page, role.roleName);
    await expect(tickOf(page, codes[11])).toBeChecked();
    await expect(tickOf(page, codes[10])).not.toBeChecked();
    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await expect(tickOf(page, codes[0])).toBeChecked();
    await page.locator('.ant-pagination').getByTitle('1', { exact: true }).click();

    // Clearing the role hides the ticks again.
    await page.locator('.role-grant-toolbar .ant-select').hover();
    await page.locator('.role-grant-toolbar .ant-select-clear').click();
    await expect(tickOf(page, codes[11])).toHaveCount(0);
    await expect(page.locator('.ant-table-thead .ant-table-selection-column')).toHaveCount(1);
  });

  test('the super administrator role cannot be configured', async ({ adminPage: page }) => {
    await page.goto(URL);
    await searchByCode(page, 'system:Dept:');
    await chooseRole(page, '超级管理员');
    // It holds everything.
    await expect(tickOf(page, 'system:Dept:list')).toBeChecked();
    await expect(tickOf(page, 'system:Dept:delete')).toBeChecked();
    await page.getByRole('button', { name: '配置权限' }).click();
    await expect(toast(page, '超级管理员拥有全部权限，无需配置')).toBeVisible();
  });

  test('paging, page size and server-side sort', async ({ adminPage: page }) => {
    const segment = uniqueSegment('Page');
    await createPermissions(
      page,
      Array.from({ length: 12 }, (_, i) => ({ permissionName: `分页${String(11 - i).padStart(2, '0')}`, permission: `e2e:${segment}:p${String(i).padStart(2, '0')}` })),
    );
    await page.goto(URL);
    await searchByCode(page, segment);
    await expect(page.getByText('共 12 条')).toBeVisible();
    await expect(rows(page)).toHaveCount(10);
    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await expect(rows(page)).toHaveCount(2);
    await page.locator('.ant-pagination .ant-select').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '20 条/页' }).click();
    await expect(rows(page)).toHaveCount(12);

    const header = (title: string) => page.locator('.ant-table-thead th').filter({ hasText: title });
    await header('权限CODE').click();
    await expect(rows(page).first()).toContainText(`e2e:${segment}:p00`);
    await header('权限CODE').click();
    await expect(rows(page).first()).toContainText(`e2e:${segment}:p11`);
    await header('权限名称').click();
    await expect(rows(page).first()).toContainText(`e2e:${segment}:p11`);
  });

  test('toolbar delete and export', async ({ adminPage: page }) => {
    const segment = uniqueSegment('Sel');
    await createPermissions(page, [1, 2, 3].map((i) => ({ permissionName: `多选${i}`, permission: `e2e:${segment}:p${i}` })));
    await page.goto(URL);
    await searchByCode(page, segment);
    await expect(rows(page)).toHaveCount(3);

    const downloading = page.waitForEvent('download');
    await page.locator('.list-toolbar').getByRole('button', { name: '导出' }).click();
    expect((await downloading).suggestedFilename()).toBe('权限管理.xlsx');

    const toolbarDelete = page.locator('.list-toolbar').getByRole('button', { name: '删除' });
    await rowOf(page, `e2e:${segment}:p1`).locator('.ant-table-selection-column').getByRole('checkbox').check();
    await rowOf(page, `e2e:${segment}:p3`).locator('.ant-table-selection-column').getByRole('checkbox').check();
    await toolbarDelete.click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '已删除!')).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(rowOf(page, `e2e:${segment}:p2`)).toBeVisible();
  });
});
