import type { Page } from '@playwright/test';
import { answerConfirm, confirmDialog, expect, loginThroughUi, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { cellOf, clickRowAction, rowOf, rows, searchList } from './list-page.ts';
import { withSuiteDatabase } from './suite-database.ts';

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

  test('clear total and clear single: cancel keeps the counts, confirm clears that count only', async ({ adminPage: page }) => {
    const userName = uniqueName('clr');
    await createSubAccount(page, userName);
    // counts no screen makes (a device's sends): written straight into the account, so a clear has something to clear
    withSuiteDatabase((db) => db.prepare('update sys_user set totalSendNum = 7, smcount = 4, sucount = 2, stcount = 1, socount = 0, sendNum = 3, deliveredNum = 5 where userName = ?').run(userName));
    await page.goto(URL);
    await searchByAccount(page, userName);
    const row = rowOf(page, userName);
    const total = await cellOf(page, row, '发送总数（移动 | 联通 | 电信 | 其他）');
    const single = await cellOf(page, row, '单次发送');
    const delivered = await cellOf(page, row, '送达');
    await expect(total).toHaveText('7 (4 | 2 | 1 | 0)');
    await expect(single).toHaveText('3');
    await expect(delivered).toHaveText('5');
    const steps = [
      { action: '清除总数', question: '发送总数', after: ['0 (0 | 0 | 0 | 0)', '3'] },
      { action: '清除单次', question: '单次发送数', after: ['0 (0 | 0 | 0 | 0)', '0'] },
    ] as const;
    for (const { action, question, after } of steps) {
      const before = [await total.innerText(), await single.innerText()];
      await row.getByRole('button', { name: action }).click();
      await expect(confirmDialog(page)).toContainText(question);
      await expect(confirmDialog(page)).toContainText(userName);
      await answerConfirm(page, '取消');
      await expect(toast(page, '已取消清除')).toBeVisible();
      await expect(total).toHaveText(before[0]!);
      await expect(single).toHaveText(before[1]!);
      await row.getByRole('button', { name: action }).click();
      await answerConfirm(page, '确定');
      await expect(toast(page, '操作成功!')).toBeVisible();
      await expect(confirmDialog(page)).toBeHidden();
      await expect(total).toHaveText(after[0]);
      await expect(single).toHaveText(after[1]);
      // 送达 is part of the total: 清除总数 clears it too
      await expect(delivered).toHaveText('0');
    }
    const stored = withSuiteDatabase((db) => db.prepare('select totalSendNum, smcount, sucount, stcount, socount, sendNum from sys_user where userName = ?').get(userName));
    expect(stored).toEqual({ totalSendNum: 0, smcount: 0, sucount: 0, stcount: 0, socount: 0, sendNum: 0 });
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

  test('clear history total: cancel keeps it, confirm clears every account\'s', async ({ adminPage: page }) => {
    const userName = uniqueName('his');
    await createSubAccount(page, userName);
    // a history total far above anything the other journeys send, so the card shows it was there and is gone
    const seeded = 9_000_000;
    withSuiteDatabase((db) => db.prepare('update sys_user set hisTotalSendNum = ? where userName = ?').run(seeded, userName));
    await page.goto(URL);
    const history = page.locator('.statistics-totals .ant-statistic').filter({ hasText: '历史发送总数' }).locator('.ant-statistic-content');
    const shown = async () => Number((await history.innerText()).replace(/\D/g, ''));
    await expect.poll(shown).toBeGreaterThanOrEqual(seeded);
    await page.getByRole('button', { name: '清除历史总数' }).click();
    await expect(confirmDialog(page)).toContainText('确定清除所有账号的历史发送总数吗？');
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消清除')).toBeVisible();
    expect(withSuiteDatabase((db) => db.prepare('select hisTotalSendNum as n from sys_user where userName = ?').get(userName))).toEqual({ n: seeded });
    await page.getByRole('button', { name: '清除历史总数' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '操作成功!')).toBeVisible();
    expect(withSuiteDatabase((db) => db.prepare('select hisTotalSendNum as n from sys_user where userName = ?').get(userName))).toEqual({ n: 0 });
    await expect.poll(shown).toBeLessThan(seeded);
  });
});
