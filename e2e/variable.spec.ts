import type { Page } from '@playwright/test';
import { answerConfirm, expect, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { deleteRowCancelThenConfirm, dialog, listScreenScenario, rowOf, rows, searchList } from './list-page.ts';

const URL = '/system/Variable';

const searchByName = (page: Page, varName: string) => searchList(page, 'variable', '变量名', varName);

/** Creates variables through the API with the page's own session (faster than the dialog). */
async function createVariables(page: Page, items: { varLable: string; varName: string; varValue: string }[]) {
  const token = await tokenOf(page);
  for (const item of items) {
    const answer = await page.request.post('/api/Variable/save', { headers: { token }, data: item });
    expect((await answer.json()).success).toBe(true);
  }
}

test.describe('系统环境变量', () => {
  listScreenScenario({
    url: URL,
    queryKey: 'variable',
    entity: '系统环境变量',
    required: ['请输入变量描述', '请输入变量名', '请输入变量值'],
    invalid: [{ label: '变量名', value: 'has space!', message: '变量名只能包含字母、数字、下划线、点和中划线' }],
    addSearchEdit: {
      key: () => uniqueName('e2e_edit'),
      fields: (varName) => ({ 变量描述: `描述${varName}`, 变量名: varName, 变量值: 'first' }),
      saved: '系统环境变量保存成功！',
      searchBy: { label: '变量名', value: (varName) => varName },
      rowShows: (varName) => [`描述${varName}`, 'first', 'admin'],
      edit: { label: '变量值', value: () => 'second' },
    },
  });

  test('a duplicate name shows the server message', async ({ adminPage: page }) => {
    const varName = uniqueName('e2e_dup');
    await createVariables(page, [{ varLable: 'dup', varName, varValue: '1' }]);
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增系统环境变量');
    await add.getByLabel('变量描述').fill('dup again');
    await add.getByLabel('变量名').fill(varName);
    await add.getByLabel('变量值').fill('2');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '变量名已存在')).toBeVisible();
    await expect(add).toBeVisible();
  });

  test('search by description and reset', async ({ adminPage: page }) => {
    const tag = uniqueName('e2e_lable');
    await createVariables(page, [
      { varLable: `${tag} 甲`, varName: `${tag}_a`, varValue: 'a' },
      { varLable: `${tag} 乙`, varName: `${tag}_b`, varValue: 'b' },
    ]);
    await page.goto(URL);
    const form = page.locator('form#variable-search');
    await form.getByLabel('变量描述').fill(`${tag} 乙`);
    await form.getByRole('button', { name: '查询' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rowOf(page, `${tag}_b`)).toBeVisible();
    await form.getByRole('button', { name: '重置' }).click();
    await expect(form.getByLabel('变量描述')).toHaveValue('');
    await expect(page.getByText(/共 \d+ 条/)).toBeVisible();
    const total = Number((await page.getByText(/共 \d+ 条/).textContent())?.match(/\d+/)?.[0]);
    expect(total).toBeGreaterThanOrEqual(2);
  });

  test('row delete: cancel keeps it, confirm removes it', async ({ adminPage: page }) => {
    const varName = uniqueName('e2e_del');
    await createVariables(page, [{ varLable: 'to delete', varName, varValue: 'x' }]);
    await page.goto(URL);
    await searchByName(page, varName);
    const row = rowOf(page, varName);
    await deleteRowCancelThenConfirm(page, row, { confirm: '确定删除选中的数据吗？', deleted: '系统环境变量已删除！' });
    await expect(rows(page)).toHaveCount(0);
  });

  test('toolbar delete removes the selected rows', async ({ adminPage: page }) => {
    const tag = uniqueName('e2e_sel');
    await createVariables(page, [
      { varLable: 'sel 1', varName: `${tag}_1`, varValue: '1' },
      { varLable: 'sel 2', varName: `${tag}_2`, varValue: '2' },
      { varLable: 'sel 3', varName: `${tag}_3`, varValue: '3' },
    ]);
    await page.goto(URL);
    await searchByName(page, tag);
    await expect(rows(page)).toHaveCount(3);
    const toolbarDelete = page.locator('.list-toolbar').getByRole('button', { name: '删除' });
    await expect(toolbarDelete).toBeDisabled();
    await rowOf(page, `${tag}_1`).getByRole('checkbox').check();
    await rowOf(page, `${tag}_3`).getByRole('checkbox').check();
    await toolbarDelete.click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '系统环境变量已删除！')).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(rowOf(page, `${tag}_2`)).toBeVisible();
  });

  test('paging, page size and server-side sort', async ({ adminPage: page }) => {
    const tag = uniqueName('e2e_page');
    const items = Array.from({ length: 12 }, (_, i) => ({
      varLable: `page ${i}`,
      varName: `${tag}_${String(i).padStart(2, '0')}`,
      varValue: `v${i}`,
    }));
    await createVariables(page, items);
    await page.goto(URL);
    await searchByName(page, tag);
    await expect(page.getByText('共 12 条')).toBeVisible();
    await expect(rows(page)).toHaveCount(10);

    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await expect(rows(page)).toHaveCount(2);

    await page.locator('.ant-pagination .ant-select').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '20 条/页' }).click();
    await expect(rows(page)).toHaveCount(12);

    // Sort by 变量名: ascending, then descending (done by the server).
    const header = page.locator('.ant-table-thead th').filter({ hasText: '变量名' });
    await header.click();
    await expect(rows(page).first()).toContainText(`${tag}_00`);
    await header.click();
    await expect(rows(page).first()).toContainText(`${tag}_11`);
  });
});
