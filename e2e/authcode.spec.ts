import type { Page } from '@playwright/test';
import { expect, test, toast, tokenOf, uniqueCode } from './fixtures.ts';
import { deleteRowCancelThenConfirm, dialog, rowOf, rows, searchList } from './list-page.ts';

const URL = '/task/authcode';

const searchByCode = (page: Page, authCode: string) => searchList(page, 'authcode', '授权码', authCode);

async function userIdOf(page: Page, userName: string): Promise<number> {
  const token = await tokenOf(page);
  const answer = await (await page.request.post('/sync/queryTaskUserList', { headers: { token }, data: {} })).json();
  return (answer.data as { userId: number; userName: string }[]).find((u) => u.userName === userName)!.userId;
}

/** Codes made through the API with the administrator's session (faster than the dialog). */
async function createCodes(page: Page, owner: string, codes: string[], dueNum = 100, dueDateNum = 30) {
  const token = await tokenOf(page);
  const authUserId = await userIdOf(page, owner);
  for (const authCode of codes) {
    const answer = await page.request.post('/sync/saveAuthCode', { headers: { token }, data: { authCode, authUserId, dueNum, dueDateNum } });
    expect((await answer.json()).success).toBe(true);
  }
}

test.describe('授权码列表', () => {
  test('add through the dialog: messages, owner, 随机生成', async ({ adminPage: page }) => {
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增授权码');
    const errors = add.locator('.ant-form-item-explain-error');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(errors.getByText('请输入授权码')).toBeVisible();
    // 所属账号 starts at the operator: nothing to choose unless the code is someone else's.
    await expect(add.locator('.ant-form-item').filter({ hasText: '所属账号' })).toContainText('admin');
    await expect(errors.getByText('请选择所属账号')).toHaveCount(0);
    await expect(errors.getByText('请输入数量')).toBeVisible();
    await expect(errors.getByText('请输入有效天数')).toBeVisible();

    await add.getByLabel('授权码').fill('ab');
    await expect(errors.getByText('授权码至少12位，太短容易被猜中，建议点击“随机生成”')).toBeVisible();
    await add.getByRole('button', { name: '随机生成' }).click();
    const code = await add.getByLabel('授权码').inputValue();
    expect(code).toMatch(/^[0-9A-F]{12}$/);

    await add.getByLabel('所属账号').click();
    await page.locator('.ant-select-dropdown .ant-select-item-option[title="user1"]').click();
    await add.getByLabel('数量', { exact: true }).fill('100');
    await add.getByLabel('有效天数').fill('30');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '保存成功！')).toBeVisible();
    await expect(add).toBeHidden();

    await searchByCode(page, code);
    await expect(rows(page)).toHaveCount(1);
    const row = rowOf(page, code);
    await expect(row).toContainText('user1');
    await expect(row).toContainText('未使用');
    await expect(row).toContainText('100');
    await expect(row).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    await expect(page.getByText('共 1 条')).toBeVisible();
  });

  test('a duplicate code shows the server message', async ({ adminPage: page }) => {
    const code = uniqueCode('DUP');
    await createCodes(page, 'user1', [code]);
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增授权码');
    await add.getByLabel('所属账号').click();
    await page.locator('.ant-select-dropdown .ant-select-item-option[title="user1"]').click();
    await add.getByLabel('授权码').fill(code.toLowerCase());
    await add.getByLabel('数量', { exact: true }).fill('1');
    await add.getByLabel('有效天数').fill('1');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '授权码已存在')).toBeVisible();
    await expect(add).toBeVisible();
  });

  test('recharge adds quantity and days', async ({ adminPage: page }) => {
    const code = uniqueCode('REC');
    await createCodes(page, 'user1', [code], 100, 10);
    await page.goto(URL);
    await searchByCode(page, code);
    const row = rowOf(page, code);
    const expiryBefore = (await row.locator('td').nth(6).textContent()) ?? '';
    await row.getByRole('button', { name: '充值' }).click();
    const recharge = dialog(page, '授权码充值');
    await expect(recharge).toContainText(code);
    await recharge.getByRole('button', { name: '保存' }).click();
    await expect(recharge.getByText('充值数量和延长天数不能同时为0')).toBeVisible();
    await recharge.getByLabel('充值数量').fill('50');
    await recharge.getByLabel('延长天数').fill('5');
    await recharge.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '保存成功！')).toBeVisible();
    await expect(recharge).toBeHidden();
    await expect(row.locator('td').nth(5)).toHaveText('150');
    const expiryAfter = (await row.locator('td').nth(6).textContent()) ?? '';
    const days = (Date.parse(expiryAfter.replace(' ', 'T')) - Date.parse(expiryBefore.replace(' ', 'T'))) / 86_400_000;
    expect(Math.round(days)).toBe(5);
  });

  test('delete: cancel keeps the code, confirm removes it', async ({ adminPage: page }) => {
    const code = uniqueCode('DEL');
    await createCodes(page, 'user1', [code]);
    await page.goto(URL);
    await searchByCode(page, code);
    const row = rowOf(page, code);
    await deleteRowCancelThenConfirm(page, row, { confirm: code, deleted: '已删除!' });
    await expect(rows(page)).toHaveCount(0);
  });

  test('paging by 10 and search', async ({ adminPage: page }) => {
    const tag = uniqueCode('PG');
    await createCodes(page, 'admin', Array.from({ length: 12 }, (_, i) => `${tag}-${String(i).padStart(2, '0')}`));
    await page.goto(URL);
    await searchByCode(page, tag);
    await expect(page.getByText('共 12 条')).toBeVisible();
    await expect(rows(page)).toHaveCount(10);
    await expect(rows(page).first()).toContainText(`${tag}-11`);
    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await expect(rows(page)).toHaveCount(2);
    await page.locator('form#authcode-search').getByRole('button', { name: '重置' }).click();
    await expect(page.locator('form#authcode-search').getByLabel('授权码')).toHaveValue('');
  });

  test('an ordinary user sees only its own codes and no add / recharge / delete', async ({ adminPage, user1Page: page }) => {
    const mine = uniqueCode('MINE');
    const notMine = uniqueCode('ADMINS');
    await createCodes(adminPage, 'user1', [mine]);
    await createCodes(adminPage, 'admin', [notMine]);
    await page.goto(URL);
    await expect(page.getByRole('button', { name: '新增' })).toHaveCount(0);
    await searchByCode(page, mine);
    await expect(rows(page)).toHaveCount(1);
    await expect(rowOf(page, mine)).toContainText('user1');
    await expect(rowOf(page, mine).getByRole('button', { name: '充值' })).toHaveCount(0);
    await expect(rowOf(page, mine).getByRole('button', { name: '删除' })).toHaveCount(0);
    await searchByCode(page, notMine);
    await expect(rows(page)).toHaveCount(0);

    // the server refuses anyway
    const token = await tokenOf(page);
    const answer = await page.request.post('/sync/saveAuthCode', { headers: { token }, data: { authCode: uniqueCode('HACK'), authUserId: 1, dueNum: 1, dueDateNum: 1 } });
    expect(answer.status()).toBe(403);
  });
});
