import type { Browser, Page } from '@playwright/test';
import { type Account, answerConfirm, expect, loginThroughUi, test, toast, tokenOf, uniqueName, withSideMenu } from './fixtures.ts';
import { deleteRowCancelThenConfirm, dialog, openFromMenu, rowOf, rows, searchList } from './list-page.ts';
import { BASE_URL } from './env.ts';

const URL = '/system/Role';

const searchByCode = (page: Page, roleNo: string) => searchList(page, 'role', '角色代码', roleNo);

/** Creates roles through the API with the page's own session; answers their ids. */
async function createRoles(page: Page, items: { roleNo: string; roleName: string; isAdmin?: boolean }[]): Promise<number[]> {
  const token = await tokenOf(page);
  const ids: number[] = [];
  for (const item of items) {
    const answer = await (await page.request.post('/api/Role/save', { headers: { token }, data: { systemNo: 'huiyun', ...item } })).json();
    expect(answer.success).toBe(true);
    ids.push(answer.data.roleId);
  }
  return ids;
}

/** A new account holding roleId; answers its one-time password. */
async function createUserWithRole(page: Page, userName: string, roleId: number): Promise<string> {
  const token = await tokenOf(page);
  const answer = await (
    await page.request.post('/api/User/save', {
      headers: { token },
      data: { userName, userRealName: userName, roleId, userSex: '男', userMobile: '13800138000', userEmail: `${userName}@example.com` },
    })
  ).json();
  expect(answer.success, answer.msg).toBe(true);
  return answer.data.initialPassword as string;
}

/** The id of a role found by its code (for one made through the dialog). */
async function roleIdOf(page: Page, roleNo: string): Promise<number> {
  const answer = await (await page.request.post('/api/Role/list', { headers: { token: await tokenOf(page) }, data: { page: 1, limit: 10, roleNo } })).json();
  return answer.data[0].roleId as number;
}

/** Logs the account in on a fresh browser and checks the links of its side menu (every group opened). */
async function expectSideMenu(browser: Browser, account: Account, links: string[]) {
  await withSideMenu(browser, account, (menu) => expect(menu.getByRole('link')).toHaveText(links));
}

test.describe('角色管理', () => {
  test('the dialog shows the contract validation messages', async ({ adminPage: page }) => {
    await page.goto(URL);
    await page.locator('.list-toolbar').getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增角色');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(add.getByText('请输入系统编码')).toBeVisible();
    await expect(add.getByText('请输入角色代码')).toBeVisible();
    await expect(add.getByText('请输入角色名称')).toBeVisible();
    await add.getByRole('button', { name: '取消' }).click();
    await expect(add).toBeHidden();
  });

  test('add, search and edit a role; a duplicate code shows the server message', async ({ adminPage: page }) => {
    const roleNo = uniqueName('e2e_role');
    await page.goto(URL);
    await page.locator('.list-toolbar').getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增角色');
    await add.getByLabel('系统编码').fill('huiyun');
    await add.getByLabel('角色代码').fill(roleNo);
    await add.getByLabel('角色名称').fill(`名称${roleNo}`);
    await add.getByRole('checkbox', { name: '管理员类型' }).check();
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '角色保存成功！')).toBeVisible();
    await expect(add).toBeHidden();

    await searchByCode(page, roleNo);
    await expect(rows(page)).toHaveCount(1);
    const row = rowOf(page, roleNo);
    await expect(row).toContainText(`名称${roleNo}`);
    await expect(row).toContainText('是');
    await expect(page.getByText('共 1 条')).toBeVisible();

    await row.getByRole('button', { name: '编辑' }).click();
    const edit = dialog(page, '编辑角色');
    await expect(edit.getByLabel('角色代码')).toHaveValue(roleNo);
    await edit.getByLabel('角色名称').fill(`改名${roleNo}`);
    await edit.getByRole('checkbox', { name: '管理员类型' }).uncheck();
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '角色保存成功！')).toBeVisible();
    await expect(rowOf(page, roleNo)).toContainText(`改名${roleNo}`);
    await expect(rowOf(page, roleNo)).toContainText('否');

    await page.locator('.list-toolbar').getByRole('button', { name: '新增' }).click();
    await add.getByLabel('系统编码').fill('huiyun');
    await add.getByLabel('角色代码').fill(roleNo);
    await add.getByLabel('角色名称').fill('重复');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '角色代码已存在')).toBeVisible();
    await expect(add).toBeVisible();
  });

  test('the seeded roles keep their type and cannot be deleted', async ({ adminPage: page }) => {
    await page.goto(URL);
    const form = page.locator('form#role-search');
    await form.getByLabel('角色名称').fill('普通用户');
    await form.getByRole('button', { name: '查询' }).click();
    const row = rowOf(page, 'ordinaryUser');
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: '编辑' }).click();
    await expect(dialog(page, '编辑角色').getByRole('checkbox', { name: '管理员类型' })).toBeDisabled();
    await dialog(page, '编辑角色').getByRole('button', { name: '取消' }).click();

    await row.getByRole('button', { name: '删除' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '系统内置角色不能删除')).toBeVisible();
    await expect(row).toBeVisible();
    // 超级管理员 holds every menu: no menu-permission button on its row.
    await form.getByLabel('角色名称').fill('超级管理员');
    await form.getByRole('button', { name: '查询' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rowOf(page, 'superAdmin').getByRole('button', { name: '菜单权限' })).toHaveCount(0);
  });

  test('row delete: cancel keeps it, confirm removes it; a role in use is refused', async ({ adminPage: page }) => {
    const roleNo = uniqueName('e2e_del');
    const [, usedRoleId] = await createRoles(page, [{ roleNo, roleName: '待删除' }, { roleNo: `${roleNo}_used`, roleName: '有用户' }]);
    await createUserWithRole(page, uniqueName('e2e_holder'), usedRoleId);
    await page.goto(URL);
    await searchByCode(page, roleNo);
    await expect(rows(page)).toHaveCount(2);

    const usedRow = rowOf(page, `${roleNo}_used`);
    await usedRow.getByRole('button', { name: '删除' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '该角色下还有用户，不能删除')).toBeVisible();

    const row = rows(page).filter({ hasText: '待删除' });
    await deleteRowCancelThenConfirm(page, row, { confirm: '确定删除选中的数据吗？', deleted: '角色已删除！' });
    await expect(rows(page)).toHaveCount(1);
    await expect(rowOf(page, `${roleNo}_used`)).toBeVisible();
  });

  test('paging and server-side sort', async ({ adminPage: page }) => {
    const tag = uniqueName('e2e_page');
    await createRoles(page, Array.from({ length: 12 }, (_, i) => ({ roleNo: `${tag}_${String(i).padStart(2, '0')}`, roleName: `分页${i}` })));
    await page.goto(URL);
    await searchByCode(page, tag);
    await expect(page.getByText('共 12 条')).toBeVisible();
    await expect(rows(page)).toHaveCount(10);
    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await expect(rows(page)).toHaveCount(2);

    await page.locator('.ant-pagination').getByTitle('1', { exact: true }).click();
    const header = page.locator('.ant-table-thead th').filter({ hasText: '角色代码' });
    await header.click();
    await expect(rows(page).first()).toContainText(`${tag}_00`);
    await header.click();
    await expect(rows(page).first()).toContainText(`${tag}_11`);
  });

  test('menu rights: tick screens, save, and the role\'s side menu follows at the next login', async ({ adminPage: page, browser }) => {
    const roleNo = uniqueName('e2e_rights');
    const [roleId] = await createRoles(page, [{ roleNo, roleName: `菜单${roleNo}` }]);
    const userName = uniqueName('e2e_ru');
    const password = await createUserWithRole(page, userName, roleId);

    await page.goto(URL);
    await searchByCode(page, roleNo);
    await rowOf(page, roleNo).getByRole('button', { name: '菜单权限' }).click();
    const rights = dialog(page, `菜单权限 - 菜单${roleNo}`);
    const tree = rights.locator('.ant-tree');
    await expect(tree.getByText('任务管理', { exact: true })).toBeVisible();
    const tick = (name: string) => tree.locator('.ant-tree-treenode').filter({ has: page.getByText(name, { exact: true }) }).locator('.ant-tree-checkbox');
    await tick('任务列表').click();
    await tick('修改密码').click();
    await tick('系统环境变量').click();
    await expect(tick('任务管理')).toHaveClass(/ant-tree-checkbox-indeterminate/);
    await rights.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '权限保存成功')).toBeVisible();
    await expect(rights).toBeHidden();

    await expectSideMenu(browser, { userName, password }, ['任务列表', '修改密码', '系统环境变量']);

    // Reopened: the ticks are back; take 系统环境变量 away again.
    await rowOf(page, roleNo).getByRole('button', { name: '菜单权限' }).click();
    await expect(tick('任务列表')).toHaveClass(/ant-tree-checkbox-checked/);
    await expect(tick('授权码列表')).not.toHaveClass(/ant-tree-checkbox-checked/);
    await tick('系统环境变量').click();
    await rights.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '权限保存成功')).toBeVisible();

    await expectSideMenu(browser, { userName, password }, ['任务列表', '修改密码']);
  });

  test('one act: a role made here with only 黑名单 ticked logs in and uses that screen', async ({ adminPage: page, browser }) => {
    const roleNo = uniqueName('e2e_one');
    await page.goto(URL);
    await page.locator('.list-toolbar').getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增角色');
    await add.getByLabel('系统编码').fill('huiyun');
    await add.getByLabel('角色代码').fill(roleNo);
    await add.getByLabel('角色名称').fill(`黑名单${roleNo}`);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '角色保存成功！')).toBeVisible();

    await searchByCode(page, roleNo);
    await rowOf(page, roleNo).getByRole('button', { name: '菜单权限' }).click();
    const rights = dialog(page, `菜单权限 - 黑名单${roleNo}`);
    const node = (name: string) => rights.locator('.ant-tree-treenode').filter({ has: page.getByText(name, { exact: true }) });
    await node('黑名单').locator('.ant-tree-checkbox').click();
    // Its actions hang under it, ticked with it; 查询 stays while any other is ticked.
    await node('黑名单').locator('.ant-tree-switcher').click();
    await expect(node('添加').locator('.ant-tree-checkbox')).toHaveClass(/ant-tree-checkbox-checked/);
    await node('删除').locator('.ant-tree-checkbox').click();
    await node('查询').locator('.ant-tree-checkbox').click();
    await expect(node('查询').locator('.ant-tree-checkbox')).toHaveClass(/ant-tree-checkbox-checked/);
    await expect(node('黑名单').locator('.ant-tree-checkbox')).toHaveClass(/ant-tree-checkbox-indeterminate/);
    await rights.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '权限保存成功')).toBeVisible();

    const userName = uniqueName('e2e_one');
    const password = await createUserWithRole(page, userName, await roleIdOf(page, roleNo));
    const context = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN' });
    const user = await context.newPage();
    await loginThroughUi(user, { userName, password });
    await openFromMenu(user, '任务管理', '黑名单');
    const phone = String(16_600_000_000 + Math.floor(Math.random() * 90_000_000));
    await user.getByRole('button', { name: '新增' }).click();
    const addNumber = dialog(user, '新增黑名单号码');
    await addNumber.getByLabel('号码').fill(phone);
    await addNumber.getByRole('button', { name: '保存' }).click();
    await expect(toast(user, '保存成功！新增1个号码，重复0个')).toBeVisible();
    await searchList(user, 'blacklist', '号码', phone);
    await expect(rowOf(user, phone)).toBeVisible();
    // 删除 was not granted: no delete; nothing was refused.
    await expect(user.getByRole('button', { name: '删除' })).toHaveCount(0);
    await expect(toast(user, '没有权限执行此操作')).toHaveCount(0);
    await context.close();
  });
});
