import type { Page } from '@playwright/test';
import { answerConfirm, confirmDialog, expect, loginThroughUi, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { clickRowAction, rowOf, rows, searchList } from './list-page.ts';

const URL = '/task/userStatistics';

const searchByAccount = (page: Page, userName: string) => searchList(page, 'statistics', '账号', userName);

async function createSubAccount(page: Page, userName: string, passwd = 'Sub@12345') {
  const token = await tokenOf(page);
  const answer = await page.request.post('/sync/saveTaskUser', { headers: { token }, data: { userName, passwd } });
  expect((await answer.json()).success).toBe(true);
}

test.describe('用户发送统计', () => {
  test('administrator account 1 sees the four totals, add and clear-history', async ({ adminPage: page }) => {
    await page.goto(URL);
    const totals = page.locator('.statistics-totals');
    for (const title of ['历史发送总数', '发送总数', '今日发送', '昨日发送', '今日送达']) await expect(totals.getByText(title, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: '新增' })).toBeVisible();
    await expect(page.getByRole('button', { name: '清除历史总数' })).toBeVisible();
    await expect(page.locator('.ant-table-thead')).toContainText('发送总数（移动 | 联通 | 电信 | 其他）');
    await searchByAccount(page, 'user1');
    await expect(rowOf(page, 'user1')).toContainText('0 (0 | 0 | 0 | 0)');
  });

  test('an ordinary user sees its own row and totals only, without the administrator actions', async ({ user1Page: page }) => {
    await page.goto(URL);
    const totals = page.locator('.statistics-totals');
    await expect(totals.getByText('今日发送', { exact: true })).toBeVisible();
    await expect(totals.getByText('历史发送总数')).toHaveCount(0);
    await expect(page.getByRole('button', { name: '新增' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: '清除历史总数' })).toHaveCount(0);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('user1');
    for (const action of ['清除总数', '清除单次', '删除账号']) await expect(page.getByRole('button', { name: action })).toHaveCount(0);
  });

  test('creates a sub-account that logs in and sees exactly the six task links', async ({ adminPage: page, page: fresh }) => {
    const userName = uniqueName('sub');
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = page.getByRole('dialog').filter({ hasText: '新增账号' });
    await add.getByRole('button', { name: '保存' }).click();
    await expect(add.getByText('请输入用户名')).toBeVisible();
    await expect(add.getByText('请输入密码')).toBeVisible();
    await add.getByLabel('账号').fill(userName);
    await add.getByLabel('密码').fill('123');
    await expect(add.getByText('密码长度不能少于6位')).toBeVisible();
    await add.getByLabel('密码').fill('Sub@12345');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '保存成功！')).toBeVisible();
    await expect(add).toBeHidden();
    await searchByAccount(page, userName);
    await expect(rows(page)).toHaveCount(1);

    await loginThroughUi(fresh, { userName, password: 'Sub@12345' });
    const menu = fresh.locator('.ant-layout-sider .ant-menu');
    await expect(menu.getByRole('link')).toHaveText(['任务列表', '授权码列表', '用户发送统计', '修改密码', '黑名单', '回复记录']);
    await fresh.goto(URL);
    await expect(rows(fresh)).toHaveCount(1);
    await expect(rows(fresh).first()).toContainText(userName);
  });

  test('clear total and clear single: cancel, then confirm', async ({ adminPage: page }) => {
    const userName = uniqueName('clr');
    await createSubAccount(page, userName);
    await page.goto(URL);
    await searchByAccount(page, userName);
    const row = rowOf(page, userName);
    for (const [action, question] of [['清除总数', '发送总数'], ['清除单次', '单次发送数']] as const) {
      await row.getByRole('button', { name: action }).click();
      await expect(confirmDialog(page)).toContainText(question);
      await expect(confirmDialog(page)).toContainText(userName);
      await answerConfirm(page, '取消');
      await expect(toast(page, '已取消清除')).toBeVisible();
      await row.getByRole('button', { name: action }).click();
      await answerConfirm(page, '确定');
      await expect(toast(page, '操作成功!')).toBeVisible();
      await expect(confirmDialog(page)).toBeHidden();
    }
  });

  test('delete account: cancel keeps it, confirm removes it', async ({ adminPage: page }) => {
    const userName = uniqueName('gone');
    await createSubAccount(page, userName);
    await page.goto(URL);
    await searchByAccount(page, userName);
    const row = rowOf(page, userName);
    await clickRowAction(page, row, '删除账号');
    await expect(confirmDialog(page)).toContainText('任务和授权码将一并删除');
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消删除')).toBeVisible();
    await expect(row).toBeVisible();
    await clickRowAction(page, row, '删除账号');
    await answerConfirm(page, '确定');
    await expect(toast(page, '已删除!')).toBeVisible();
    await expect(rows(page)).toHaveCount(0);
  });

  test('clear history total: cancel, then confirm', async ({ adminPage: page }) => {
    await page.goto(URL);
    await page.getByRole('button', { name: '清除历史总数' }).click();
    await expect(confirmDialog(page)).toContainText('确定清除所有账号的历史发送总数吗？');
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消清除')).toBeVisible();
    await page.getByRole('button', { name: '清除历史总数' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '操作成功!')).toBeVisible();
  });
});
