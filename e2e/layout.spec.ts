import { consoleRoutes, menuGroups } from '@huiyun/contract';
import { ADMIN } from './env.ts';
import { answerConfirm, confirmDialog, expect, loginThroughUi, test, toast } from './fixtures.ts';
import { openFromMenu } from './list-page.ts';

test.describe('主布局', () => {
  test('admin sees the task and system groups; breadcrumb names group and screen', async ({ adminPage: page }) => {
    await page.goto('/task/index');
    const menu = page.locator('.ant-layout-sider .ant-menu');
    await expect(menu.getByText('任务管理', { exact: true })).toBeVisible();
    await expect(menu.getByText('系统管理', { exact: true })).toBeVisible();
    await expect(menu.getByText('支付管理', { exact: true })).toBeVisible();
    await openFromMenu(page, '系统管理', '系统环境变量');
    await expect(page).toHaveURL(/\/system\/Variable$/);
    const crumbs = page.locator('.ant-breadcrumb');
    await expect(crumbs).toContainText('系统管理');
    await expect(crumbs).toContainText('系统环境变量');
    await expect(page.getByTestId('account-menu')).toContainText('超级管理员');
  });

  test('screens are styled by the static antd CSS, the date picker by its own chunk', async ({ adminPage: page }) => {
    // The console renders antd without runtime styles (web/build/antd-css.ts): a component whose CSS was
    // cut out would render bare. A few computed styles of what every screen shows, and the lazy picker.
    await page.goto('/monitor/loginLog');
    const styleOf = (selector: string, property: string) =>
      page.locator(selector).first().evaluate((el, p) => el.ownerDocument.defaultView!.getComputedStyle(el).getPropertyValue(p), property);
    await expect(page.locator('.ant-table-thead th').first()).toBeVisible();
    expect(await styleOf('.ant-btn-primary', 'background-color')).toBe('rgb(22, 104, 220)');
    expect(await styleOf('.ant-table-thead th', 'background-color')).not.toBe('rgba(0, 0, 0, 0)');
    expect(await styleOf('.ant-layout-sider', 'background-color')).not.toBe('rgba(0, 0, 0, 0)');
    expect(await styleOf('.ant-pagination-item-active', 'border-top-style')).toBe('solid');
    await expect(page.locator('.ant-picker-range')).toBeVisible();
    expect(await styleOf('.ant-picker-range', 'display')).toBe('inline-flex');
    await page.locator('.ant-picker-range input').first().click();
    await expect(page.locator('.ant-picker-dropdown .ant-picker-cell-in-view').first()).toBeVisible();
    expect(await styleOf('.ant-picker-dropdown', 'position')).toBe('absolute');
  });

  test('the pages before sign-in are styled by the static CSS too (login, not found)', async ({ page }) => {
    const styleOf = (selector: string, property: string) =>
      page.locator(selector).first().evaluate((el, p) => el.ownerDocument.defaultView!.getComputedStyle(el).getPropertyValue(p), property);
    await page.goto('/login');
    await expect(page.locator('.ant-btn-primary')).toBeVisible();
    expect(await styleOf('.ant-btn-primary', 'background-color')).toBe('rgb(22, 104, 220)');
    expect(await styleOf('.ant-input-affix-wrapper', 'border-top-style')).toBe('solid');
    expect(await styleOf('.ant-checkbox-wrapper', 'cursor')).toBe('pointer');
    await page.goto('/no/such/screen');
    await expect(page.locator('.ant-result-title')).toBeVisible();
    expect(await styleOf('.ant-result-title', 'text-align')).toBe('center');
  });

  test('every menu screen opens from the side menu with no CSP violation and no console error', async ({ adminPage: page }) => {
    // The fixtures' browserErrors check fails the test on either (a refused `Function('')` from zod, say):
    // here every screen is loaded once, its lazy chunks with it, the way an operator reaches it.
    await page.goto('/task/index');
    for (const route of consoleRoutes) {
      await openFromMenu(page, menuGroups.find((g) => g.key === route.group)!.name, route.name);
      await expect(page).toHaveURL(new RegExp(`${route.url}$`));
      await expect(page.locator('.main-content > *').first()).toBeVisible();
    }
  });

  test('the side menu collapses and expands', async ({ adminPage: page }) => {
    await page.goto('/task/index');
    const sider = page.locator('.ant-layout-sider');
    await page.getByRole('button', { name: '收起菜单' }).click();
    await expect(sider).toHaveClass(/ant-layout-sider-collapsed/);
    await page.getByRole('button', { name: '展开菜单' }).click();
    await expect(sider).not.toHaveClass(/ant-layout-sider-collapsed/);
  });

  test('an ordinary user sees exactly the six task links', async ({ user1Page: page }) => {
    await page.goto('/task/index');
    const menu = page.locator('.ant-layout-sider .ant-menu');
    await expect(menu.getByRole('link')).toHaveText(['任务列表', '授权码列表', '用户发送统计', '修改密码', '黑名单', '回复记录']);
    await expect(menu.getByText('系统管理')).toHaveCount(0);
  });

  test('an ordinary user gets 403 on a screen outside the menu', async ({ user1Page: page }) => {
    await page.goto('/system/Variable');
    await expect(page.getByText('抱歉，您没有访问该页面的权限')).toBeVisible();
    await page.getByRole('button', { name: '返回首页' }).click();
    await expect(page).toHaveURL(/\/task\/index$/);
  });

  test('an unknown url shows 404 with a way home', async ({ adminPage: page }) => {
    await page.goto('/no/such/screen');
    await expect(page.getByText('抱歉，您访问的页面不存在')).toBeVisible();
    await page.getByRole('button', { name: '返回首页' }).click();
    await expect(page).toHaveURL(/\/task\/index$/);
  });
});

test.describe('退出登录', () => {
  test('cancelling the confirmation keeps the session', async ({ page }) => {
    await loginThroughUi(page, ADMIN);
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: '退出' }).click();
    await expect(confirmDialog(page)).toContainText('确定退出登录吗？');
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消')).toBeVisible();
    await expect(page).toHaveURL(/\/task\/index$/);
  });

  test('confirming logs out and goes to the login page', async ({ page }) => {
    await loginThroughUi(page, ADMIN);
    const token = await page.evaluate(() => sessionStorage.getItem('logintoken'));
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: '退出' }).click();
    await answerConfirm(page, '确定');
    await expect(page).toHaveURL(/\/login$/);
    // Still read on the login page: the toast outlives the layout it was raised in.
    await expect(toast(page, '已退出登录!')).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('logintoken'))).toBeNull();
    // The server revoked the token too.
    const answer = await page.request.get('/sync/currentUser', { headers: { token: token ?? '' } });
    expect(answer.status()).toBe(401);
  });

  test('an expired session shows the server message, then logs out to /login?redirect=', async ({ page }) => {
    await loginThroughUi(page, ADMIN);
    await page.evaluate(() => sessionStorage.setItem('logintoken', 'revoked-token'));
    await page.goto('/system/Variable');
    await expect(toast(page, '登录已失效，请重新登录')).toBeVisible();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fsystem%2FVariable$/);
    await expect(toast(page, '已退出登录!')).toBeVisible();
  });
});
