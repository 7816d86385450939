// Runs after every other spec (see playwright.config.ts): changing user1's password revokes
// user1's other sessions.
import type { Page } from '@playwright/test';
import { BASE_URL, USER1 } from './env.ts';
import { expect, loginThroughUi, submitLogin, test, toast } from './fixtures.ts';
import { openFromMenu } from './list-page.ts';

const NEW_PASSWORD = 'Changed@2468';

async function changePassword(page: Page, oldPasswd: string, passwd: string, confirmPasswd = passwd) {
  await page.getByLabel('旧密码').fill(oldPasswd);
  await page.getByLabel('新密码').fill(passwd);
  await page.getByLabel('确认密码').fill(confirmPasswd);
  await page.getByRole('button', { name: '保存' }).click();
}

test.describe('修改密码', () => {
  test('checks the form, refuses a wrong old password, changes it, and the new one logs in', async ({ browser, page }) => {
    await loginThroughUi(page, USER1);
    await openFromMenu(page, '任务管理', '修改密码');
    await expect(page).toHaveURL(/\/task\/updatePasswd$/);

    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('请输入旧密码')).toBeVisible();
    await expect(page.getByText('请输入新密码')).toBeVisible();
    await expect(page.getByText('请输入确认密码')).toBeVisible();

    await changePassword(page, USER1.password, NEW_PASSWORD, 'Other@2468');
    await expect(page.getByText('两次输入的新密码不一致')).toBeVisible();

    await changePassword(page, 'Wrong@0000', NEW_PASSWORD);
    await expect(toast(page, '旧密码不正确')).toBeVisible();

    // A second session of user1 elsewhere: the change must revoke it, not this one.
    const other = await browser.newContext({ baseURL: BASE_URL });
    const otherPage = await other.newPage();
    await loginThroughUi(otherPage, USER1);

    await changePassword(page, USER1.password, NEW_PASSWORD);
    await expect(toast(page, '保存成功！')).toBeVisible();
    await page.goto('/task/index');
    await expect(page.locator('.ant-layout-sider').getByRole('link', { name: '任务列表' })).toBeVisible();

    await otherPage.goto('/task/authcode');
    await expect(otherPage).toHaveURL(/\/login\?redirect=%2Ftask%2Fauthcode$/);
    await other.close();

    // The old password no longer works; the new one does.
    const fresh = await browser.newContext({ baseURL: BASE_URL });
    const freshPage = await fresh.newPage();
    await freshPage.goto('/login');
    await submitLogin(freshPage, USER1);
    await expect(toast(freshPage, '用户名或密码错误')).toBeVisible();
    await submitLogin(freshPage, { userName: USER1.userName, password: NEW_PASSWORD });
    await expect(freshPage).toHaveURL(/\/task\/index$/);

    // Put it back for the next run against the same server.
    await freshPage.goto('/task/updatePasswd');
    await changePassword(freshPage, NEW_PASSWORD, USER1.password);
    await expect(toast(freshPage, '保存成功！')).toBeVisible();
    await fresh.close();
  });
});
