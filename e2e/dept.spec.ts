import type { Page } from '@playwright/test';
import { answerConfirm, expect, test, toast, tokenOf, uniqueCode } from './fixtures.ts';
import { deleteRowCancelThenConfirm, dialog, listScreenScenario, rowOf, rows } from './list-page.ts';

const URL = '/system/Dept';

async function search(page: Page, filters: { deptName?: string; deptNo?: string }) {
  const form = page.locator('form#dept-search');
  if (filters.deptName !== undefined) await form.getByLabel('部门名称').fill(filters.deptName);
  if (filters.deptNo !== undefined) await form.getByLabel('部门代码').fill(filters.deptNo);
  await form.getByRole('button', { name: '查询' }).click();
}

/** Creates companies through the API with the page's own session (faster than the dialog). */
async function createDepts(page: Page, items: { deptName: string; deptNo: string }[]) {
  const token = await tokenOf(page);
  for (const item of items) {
    const answer = await page.request.post('/api/Dept/save', { headers: { token }, data: item });
    expect((await answer.json()).success).toBe(true);
  }
}

test.describe('公司管理', () => {
  listScreenScenario({
    url: URL,
    queryKey: 'dept',
    entity: '公司',
    required: ['请输入部门名称', '请输入部门代码'],
    invalid: [{ label: '部门代码', value: 'has space!', message: '部门代码只能包含字母、数字、下划线和中划线' }],
    addSearchEdit: {
      key: () => uniqueCode('E2E_ADD'),
      fields: (deptNo) => ({ 部门名称: `公司${deptNo}`, 部门代码: deptNo }),
      saved: '公司保存成功！',
      searchBy: { label: '部门代码', value: (deptNo) => deptNo },
      rowShows: (deptNo) => [`公司${deptNo}`, 'admin', /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/],
      edit: { label: '部门名称', value: (deptNo) => `改名${deptNo}` },
    },
  });

  test('a duplicate code shows the server message and keeps the dialog open', async ({ adminPage: page }) => {
    const deptNo = uniqueCode('E2E_DUP');
    await createDepts(page, [{ deptName: 'dup', deptNo }]);
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增公司');
    await add.getByLabel('部门名称').fill('dup again');
    await add.getByLabel('部门代码').fill(deptNo);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '部门代码已存在')).toBeVisible();
    await expect(add).toBeVisible();
  });

  test('search by name and reset', async ({ adminPage: page }) => {
    const tag = uniqueCode('E2E_NAME');
    await createDepts(page, [
      { deptName: `${tag} 甲`, deptNo: `${tag}_A` },
      { deptName: `${tag} 乙`, deptNo: `${tag}_B` },
    ]);
    await page.goto(URL);
    await search(page, { deptName: `${tag} 乙` });
    await expect(rows(page)).toHaveCount(1);
    await expect(rowOf(page, `${tag}_B`)).toBeVisible();
    const form = page.locator('form#dept-search');
    await form.getByRole('button', { name: '重置' }).click();
    await expect(form.getByLabel('部门名称')).toHaveValue('');
    const total = Number((await page.getByText(/共 \d+ 条/).textContent())?.match(/\d+/)?.[0]);
    expect(total).toBeGreaterThanOrEqual(3);
  });

  test('row delete: cancel keeps it, confirm removes it', async ({ adminPage: page }) => {
    const deptNo = uniqueCode('E2E_DEL');
    await createDepts(page, [{ deptName: 'to delete', deptNo }]);
    await page.goto(URL);
    await search(page, { deptNo });
    const row = rowOf(page, deptNo);
    await deleteRowCancelThenConfirm(page, row, { confirm: '确定删除选中的数据吗？', deleted: '公司已删除!' });
    await expect(rows(page)).toHaveCount(0);
  });

  test('a company that still has users cannot be deleted', async ({ adminPage: page }) => {
    await page.goto(URL);
    await search(page, { deptNo: 'DEMO' });
    const row = rowOf(page, '汇云演示公司');
    await row.getByRole('button', { name: '删除' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '公司汇云演示公司下还有用户，不能删除')).toBeVisible();
    await expect(row).toBeVisible();
  });

  test('toolbar delete removes the selected rows', async ({ adminPage: page }) => {
    const tag = uniqueCode('E2E_SEL');
    await createDepts(page, [1, 2, 3].map((i) => ({ deptName: `sel ${i}`, deptNo: `${tag}_${i}` })));
    await page.goto(URL);
    await search(page, { deptNo: tag });
    await expect(rows(page)).toHaveCount(3);
    const toolbarDelete = page.locator('.list-toolbar').getByRole('button', { name: '删除' });
    await expect(toolbarDelete).toBeDisabled();
    await rowOf(page, `${tag}_1`).getByRole('checkbox').check();
    await rowOf(page, `${tag}_3`).getByRole('checkbox').check();
    await toolbarDelete.click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '公司已删除!')).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(rowOf(page, `${tag}_2`)).toBeVisible();
  });

  test('paging, page size and server-side sort on every column', async ({ adminPage: page }) => {
    const tag = uniqueCode('E2E_PAGE');
    await createDepts(
      page,
      Array.from({ length: 12 }, (_, i) => ({ deptName: `${tag} 公司${String(11 - i).padStart(2, '0')}`, deptNo: `${tag}_${String(i).padStart(2, '0')}` })),
    );
    await page.goto(URL);
    await search(page, { deptNo: tag });
    await expect(page.getByText('共 12 条')).toBeVisible();
    await expect(rows(page)).toHaveCount(10);

    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await expect(rows(page)).toHaveCount(2);

    await page.locator('.ant-pagination .ant-select').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '20 条/页' }).click();
    await expect(rows(page)).toHaveCount(12);

    const header = (title: string) => page.locator('.ant-table-thead th').filter({ hasText: title });
    await header('部门代码').click();
    await expect(rows(page).first()).toContainText(`${tag}_00`);
    await header('部门代码').click();
    await expect(rows(page).first()).toContainText(`${tag}_11`);
    // Names run the other way round from the codes.
    await header('部门名称').click();
    await expect(rows(page).first()).toContainText(`${tag}_11`);
    await header('部门名称').click();
    await expect(rows(page).first()).toContainText(`${tag}_00`);
    for (const title of ['修改时间', '修改人']) {
      await header(title).click();
      await expect(header(title)).toHaveAttribute('aria-sort', 'ascending');
      await expect(rows(page)).toHaveCount(12);
    }
  });

  test('export downloads the filtered list', async ({ adminPage: page }) => {
    const tag = uniqueCode('E2E_EXP');
    await createDepts(page, [{ deptName: 'export me', deptNo: tag }]);
    await page.goto(URL);
    await search(page, { deptNo: tag });
    await expect(rows(page)).toHaveCount(1);
    const downloading = page.waitForEvent('download');
    await page.locator('.list-toolbar').getByRole('button', { name: '导出' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe('公司管理.xlsx');
  });
});
