// What stays fresh across screens, lists newest first, empty states that say what
// to do next, and accessible names in Chinese.
import type { Page } from '@playwright/test';
import { expect, loginThroughUi, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { BASE_URL } from './env.ts';
import { dialog, openFromMenu, rows } from './list-page.ts';

/** A new company and its administrator (role 公司管理员): an account that sees no device yet. */
async function companyAdmin(admin: Page): Promise<{ userName: string; password: string }> {
  const token = await tokenOf(admin);
  const dept = await (await admin.request.post('/api/Dept/save', { headers: { token }, data: { deptName: uniqueName('鲜公司'), deptNo: uniqueName('FRESH') } })).json();
  expect(dept.success).toBe(true);
  const userName = uniqueName('fresh');
  const saved = await (
    await admin.request.post('/api/User/save', {
      headers: { token },
      data: { userName, userRealName: userName, roleId: 1, deptId: dept.data.deptId, userSex: '男', userMobile: '13800138000', userEmail: `${userName}@example.com` },
    })
  ).json();
  expect(saved.success).toBe(true);
  return { userName, password: saved.data.initialPassword };
}

test.describe('fresh lists and next steps', () => {
  test('a role saved in 角色管理 is first on page 1 and offered by 新增用户 without a reload', async ({ adminPage: page }) => {
    await page.goto('/system/user');
    await expect(rows(page).first()).toBeVisible();
    // Marks this document: a reload would lose the mark.
    await page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }));

    await openFromMenu(page, '系统管理', '角色管理');
    await expect(page).toHaveURL(/\/system\/Role$/);
    await expect(page.locator('form#role-search')).toBeVisible();
    const roleNo = uniqueName('e2e_fresh');
    const roleName = `新鲜${roleNo}`;
    await page.locator('.list-toolbar').getByRole('button', { name: '新增', exact: true }).click();
    const addRole = dialog(page, '新增角色');
    await addRole.getByLabel('系统编码').fill('huiyun');
    await addRole.getByLabel('角色代码').fill(roleNo);
    await addRole.getByLabel('角色名称').fill(roleName);
    await addRole.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '角色保存成功！')).toBeVisible();
    // Newest first: the new role leads page 1, however many roles there are.
    await expect(rows(page).first()).toContainText(roleNo);

    await openFromMenu(page, '系统管理', '用户管理');
    await expect(page).toHaveURL(/\/system\/user$/);
    await expect(page.locator('form#user-search')).toBeVisible();
    await page.locator('.list-toolbar').getByRole('button', { name: '新增', exact: true }).click();
    const addUser = dialog(page, '新增用户');
    await addUser.getByLabel('角色', { exact: true }).click();
    await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: roleName })).toBeVisible();
    expect(await page.evaluate(() => (globalThis as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  test('accessible names are Chinese: buttons by their text alone, 全选, 选择第 1 行, the pager; 新增授权码 starts at the operator', async ({ adminPage: page }) => {
    await page.goto('/system/user');
    await expect(rows(page).first()).toBeVisible();
    // exact: an icon's English name ('plus', 'search') would come before the label
    for (const name of ['新增', '删除', '导出', '查询']) await expect(page.getByRole('button', { name, exact: true }).first()).toBeVisible();
    await expect(page.getByRole('checkbox', { name: '全选', exact: true })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: '选择第 1 行', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: '上一页', exact: true })).toBeAttached();
    await expect(page.getByRole('button', { name: '下一页', exact: true })).toBeAttached();
    await expect(page.locator('[aria-label^="Select"], [aria-label^="Row "]')).toHaveCount(0);
    // The toolbar's and search form's icons are decorative: no image among what assistive technology reads.
    await expect(page.locator('.list-toolbar, form#user-search').getByRole('button').getByRole('img')).toHaveCount(0);

    await openFromMenu(page, '任务管理', '授权码列表');
    await page.getByRole('button', { name: '新增', exact: true }).click();
    const add = dialog(page, '新增授权码');
    await expect(add.locator('.ant-form-item').filter({ hasText: '所属账号' })).toContainText('admin');
    await expect(add.getByRole('button', { name: /Increase|Decrease/ })).toHaveCount(0);
  });

  test('the empty 设备列表 explains activation; an administrator makes a code from there, owned by itself', async ({ adminPage, browser }) => {
    const account = await companyAdmin(adminPage);
    const context = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN' });
    const page = await context.newPage();
    await loginThroughUi(page, account);
    await page.goto('/task/devices');
    const help = page.getByRole('region', { name: '还没有激活的设备' });
    await expect(help).toBeVisible();
    await expect(help).toContainText('授权码');
    await expect(help).toContainText('发送端 App');
    await expect(help).toContainText(`服务器地址：${new URL(page.url()).origin}`);
    await expect(help).toContainText('docs/device-protocol.md');

    await page.getByRole('button', { name: '生成授权码', exact: true }).click();
    const add = dialog(page, '新增授权码');
    await expect(add.locator('.ant-form-item').filter({ hasText: '所属账号' })).toContainText(account.userName);
    await add.getByRole('button', { name: '随机生成' }).click();
    await add.getByLabel('数量').fill('100');
    await add.getByLabel('有效天数').fill('30');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(add).toBeHidden();
    await context.close();
  });
});
