import { ADMIN } from './env.ts';
import { expect, loginThroughUi, submitLogin, test, toast } from './fixtures.ts';

test.describe('登录页', () => {
  test('shows the field messages and the form message when empty', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: '汇云运营台' })).toBeVisible();
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expect(page.getByText('请输入账号', { exact: true })).toBeVisible();
    await expect(page.getByText('请输入密码', { exact: true })).toBeVisible();
    await expect(toast(page, '请输入用户名和密码!')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('shows the server message on wrong credentials and stops loading', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, { userName: `nobody_${Date.now()}`, password: 'Wrong@12345' });
    await expect(toast(page, '用户名或密码错误')).toBeVisible();
    const button = page.getByRole('button', { name: '登录', exact: true });
    await expect(button).toBeEnabled();
    await expect(button).not.toHaveClass(/ant-btn-loading/);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the form reads in Chinese only: its icons are decorative, the password toggle is a named button', async ({ page }) => {
    await page.goto('/login');
    const form = page.locator('form[name=login]');
    await expect(form.getByRole('textbox', { name: '账号' })).toBeVisible();
    await expect(form.getByRole('img')).toHaveCount(0);
    await expect(form.getByRole('button', { name: '显示' })).toBeVisible();
  });

  test('/ shows the login page when logged out', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: '登录', exact: true })).toBeVisible();
    await expect(page.getByText('无人零售支付平台 · 群发任务管理')).toBeVisible();
  });

  test('Enter submits; success says 登录成功 and lands on the task list', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, ADMIN, { enter: true });
    await expect(toast(page, '登录成功')).toBeVisible();
    await expect(page).toHaveURL(/\/task\/index$/);
    // Without 记住密码 the session lives in sessionStorage only.
    const stored = await page.evaluate(() => ({
      session: sessionStorage.getItem('logintoken'),
      local: localStorage.getItem('logintoken'),
      userInfo: sessionStorage.getItem('userInfo'),
    }));
    expect(stored.session).toBeTruthy();
    expect(stored.local).toBeNull();
    expect(stored.userInfo).toContain('admin');
  });

  test('记住密码 keeps the session and the account, never the password', async ({ page }) => {
    await loginThroughUi(page, ADMIN, { remember: true });
    const stored = await page.evaluate(() => ({
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
      token: localStorage.getItem('logintoken'),
      account: localStorage.getItem('rememberedAccount'),
    }));
    expect(stored.token).toBeTruthy();
    expect(stored.account).toBe('admin');
    expect(stored.local + stored.session).not.toContain(ADMIN.password);
    // Drop the session only: the login page offers the remembered account, box ticked.
    await page.evaluate(() => ['logintoken', 'userId', 'code', 'userInfo'].forEach((k) => localStorage.removeItem(k)));
    await page.goto('/login');
    await expect(page.getByPlaceholder('账号')).toHaveValue('admin');
    await expect(page.getByRole('checkbox', { name: '记住密码' })).toBeChecked();
  });

  test('a protected url asks for login, then returns to it', async ({ page }) => {
    await page.goto('/system/Variable?from=e2e');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fsystem%2FVariable%3Ffrom%3De2e$/);
    await submitLogin(page, ADMIN);
    await expect(toast(page, '登录成功')).toBeVisible();
    await expect(page).toHaveURL(/\/system\/Variable\?from=e2e$/);
    await expect(page.getByRole('button', { name: '新增' })).toBeVisible();
  });

  test('/ and /login while logged in go to the task list', async ({ adminPage: page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/task\/index$/);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/task\/index$/);
  });
});
