import type { Browser, Page } from '@playwright/test';
import { type Account, answerConfirm, confirmDialog, expect, test, toast, tokenOf, uniqueName, withSideMenu } from './fixtures.ts';
import { fieldError } from './list-page.ts';

const URL = '/system/Module';

function tree(page: Page) {
  return page.locator('.menu-tree .ant-tree');
}
function treeNode(page: Page, name: string) {
  return tree(page).getByText(name, { exact: true });
}
function form(page: Page) {
  return page.locator('form#menu-edit');
}
function parentSelect(page: Page) {
  return form(page).locator('.ant-select');
}
function toolbar(page: Page) {
  return page.locator('.menu-toolbar');
}

async function fillMenu(page: Page, item: { moduleName: string; moduleIcon?: string; moduleUrl: string; moduleOrder?: number }) {
  await form(page).getByLabel('菜单名称').fill(item.moduleName);
  await form(page).getByLabel('菜单图标').fill(item.moduleIcon ?? 'AppstoreOutlined');
  await form(page).getByLabel('URL').fill(item.moduleUrl);
  if (item.moduleOrder !== undefined) await form(page).getByLabel('菜单顺序').fill(String(item.moduleOrder));
}

async function api(page: Page, method: 'post' | 'delete', url: string, data?: unknown) {
  const token = await tokenOf(page);
  const answer = await (await page.request[method](url, { headers: { token }, data })).json();
  expect(answer.success, answer.msg).toBe(true);
  return answer.data;
}

async function moduleIdOf(page: Page, url: string): Promise<number> {
  const groups = await api(page, 'post', '/api/Module/list', {});
  const all = groups.flatMap((g: { moduleId: number; moduleUrl: string; children: { moduleId: number; moduleUrl: string }[] }) => [g, ...g.children]);
  return all.find((node: { moduleUrl: string }) => node.moduleUrl === url).moduleId;
}

/** Logs in on a fresh browser and checks the names of the side menu's groups and links. */
async function expectSideMenu(browser: Browser, account: Account, texts: string[]) {
  await withSideMenu(browser, account, (menu) => expect(menu.locator('.ant-menu-submenu-title, a')).toHaveText(texts));
}

test.describe('菜单管理', () => {
  test('selecting a node loads it into the form; the form shows the contract messages', async ({ adminPage: page }) => {
    await page.goto(URL);
    await treeNode(page, '用户管理').click();
    await expect(form(page).getByLabel('URL')).toHaveValue('/system/user');
    await expect(form(page).getByLabel('菜单名称')).toHaveValue('用户管理');
    await expect(parentSelect(page)).toContainText('系统管理');
    await expect(page.getByText('编辑菜单')).toBeVisible();

    await toolbar(page).getByRole('button', { name: '新增' }).click();
    await expect(page.getByText('新增菜单')).toBeVisible();
    await expect(form(page).getByLabel('菜单名称')).toHaveValue('');
    // 新增 under the selected screen's group.
    await expect(parentSelect(page)).toContainText('系统管理');
    await form(page).getByLabel('菜单顺序').fill('');
    await parentSelect(page).hover();
    await form(page).locator('.ant-select-clear').click();
    await toolbar(page).getByRole('button', { name: '保存' }).click();
    await expect(fieldError(form(page), '请选择父级菜单')).toBeVisible();
    await expect(fieldError(form(page), '请输入菜单名称')).toBeVisible();
    await expect(fieldError(form(page), '请输入菜单图标')).toBeVisible();
    await expect(fieldError(form(page), '请输入URL')).toBeVisible();
    await expect(fieldError(form(page), '请输入菜单顺序')).toBeVisible();
    await form(page).getByLabel('URL').fill('no-slash');
    await expect(fieldError(form(page), 'URL须以/开头，且不能包含空格')).toBeVisible();
  });

  test('新增 right after a click on a group keeps the new form when the group\'s detail arrives later', async ({ adminPage: page }) => {
    await page.goto(URL);
    await expect(treeNode(page, '系统管理')).toBeVisible();
    // hold the group's detail until 新增 has filled the form
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/Module/get/*', async (route) => {
      await held;
      await route.continue();
    });
    const detail = page.waitForResponse((r) => r.url().includes('/api/Module/get/'));
    await treeNode(page, '系统管理').click();
    await toolbar(page).getByRole('button', { name: '新增' }).click();
    await expect(page.getByText('新增菜单')).toBeVisible();
    await expect(parentSelect(page)).toContainText('系统管理');
    release();
    await detail;
    await expect(page.getByText('新增菜单')).toBeVisible();
    await expect(parentSelect(page)).toContainText('系统管理');
    await expect(form(page).getByLabel('菜单名称')).toHaveValue('');
    await page.unroute('**/api/Module/get/*');
  });

  test('add under 系统管理, grant it to a role, see it after re-login, rename it, delete it', async ({ adminPage: page, browser }) => {
    // Two sign-ins and a role grant between them: ~40 s on a quiet two-core machine.
    test.slow();
    const tag = uniqueName('e2e_menu');
    const moduleUrl = `/system/${tag}`;
    await page.goto(URL);
    await treeNode(page, '系统管理').click();
    await toolbar(page).getByRole('button', { name: '新增' }).click();
    await expect(parentSelect(page)).toContainText('系统管理');
    await fillMenu(page, { moduleName: `菜单${tag}`, moduleUrl, moduleOrder: 50 });
    await toolbar(page).getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '保存成功！')).toBeVisible();
    await expect(treeNode(page, `菜单${tag}`)).toBeVisible();
    await expect(page.getByText('编辑菜单')).toBeVisible();
    // The administrator's own side menu has it at once.
    const sideMenu = page.locator('.ant-layout-sider .ant-menu');
    await expect(sideMenu.getByRole('link', { name: `菜单${tag}` })).toBeVisible();

    // A role holding 任务列表 and the new menu, and an account of that role.
    const roleId = (await api(page, 'post', '/api/Role/save', { systemNo: 'huiyun', roleNo: tag, roleName: `角色${tag}` })).roleId;
    await api(page, 'post', '/api/RoleRight/save', { roleId, moduleIds: [await moduleIdOf(page, '/task/index'), await moduleIdOf(page, moduleUrl)] });
    const userName = `${tag}_u`;
    const saved = await api(page, 'post', '/api/User/save', {
      userName, userRealName: userName, roleId, userSex: '女', userMobile: '13900139000', userEmail: `${userName}@example.com`,
    });
    const account = { userName, password: saved.initialPassword as string };
    await expectSideMenu(browser, account, ['任务管理', '任务列表', '系统管理', `菜单${tag}`]);

    // Rename it.
    await treeNode(page, `菜单${tag}`).click();
    await expect(form(page).getByLabel('URL')).toHaveValue(moduleUrl);
    await form(page).getByLabel('菜单名称').fill(`改名${tag}`);
    await toolbar(page).getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '保存成功！')).toBeVisible();
    await expect(treeNode(page, `改名${tag}`)).toBeVisible();
    await expectSideMenu(browser, account, ['任务管理', '任务列表', '系统管理', `改名${tag}`]);

    // Delete: cancel keeps it, confirm removes it (and its group leaves that role's menu).
    await toolbar(page).getByRole('button', { name: '删除' }).click();
    await expect(confirmDialog(page)).toContainText(`确定删除菜单“改名${tag}”吗？`);
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消删除')).toBeVisible();
    await expect(treeNode(page, `改名${tag}`)).toBeVisible();
    await toolbar(page).getByRole('button', { name: '删除' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '已删除!')).toBeVisible();
    await expect(treeNode(page, `改名${tag}`)).toHaveCount(0);
    await expect(toolbar(page).getByRole('button', { name: '删除' })).toBeDisabled();
    await expectSideMenu(browser, account, ['任务管理', '任务列表']);
  });

  test('a top-level group: add it, a node with children cannot be deleted, a taken URL is refused', async ({ adminPage: page }) => {
    const tag = uniqueName('e2e_group');
    await page.goto(URL);
    await toolbar(page).getByRole('button', { name: '新增' }).click();
    await expect(parentSelect(page)).toContainText('顶级菜单');
    await fillMenu(page, { moduleName: `分组${tag}`, moduleUrl: `/${tag}`, moduleIcon: 'BarChartOutlined' });
    await toolbar(page).getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '保存成功！')).toBeVisible();
    await expect(treeNode(page, `分组${tag}`)).toBeVisible();

    // A screen under it (新增 with the group selected puts it there).
    await toolbar(page).getByRole('button', { name: '新增' }).click();
    await expect(parentSelect(page)).toContainText(`分组${tag}`);
    await fillMenu(page, { moduleName: `子菜单${tag}`, moduleUrl: '/system/user' });
    await toolbar(page).getByRole('button', { name: '保存' }).click();
    await expect(toast(page, 'URL已被其他菜单使用')).toBeVisible();
    await form(page).getByLabel('URL').fill(`/${tag}/child`);
    await toolbar(page).getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '保存成功！')).toBeVisible();
    await expect(treeNode(page, `子菜单${tag}`)).toBeVisible();

    await treeNode(page, `分组${tag}`).click();
    await expect(form(page).getByLabel('菜单名称')).toHaveValue(`分组${tag}`);
    await toolbar(page).getByRole('button', { name: '删除' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '该菜单下还有子菜单，不能删除')).toBeVisible();
    await expect(treeNode(page, `分组${tag}`)).toBeVisible();

    // Child first, then the group.
    await treeNode(page, `子菜单${tag}`).click();
    await expect(form(page).getByLabel('菜单名称')).toHaveValue(`子菜单${tag}`);
    await toolbar(page).getByRole('button', { name: '删除' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '已删除!')).toBeVisible();
    await treeNode(page, `分组${tag}`).click();
    await expect(form(page).getByLabel('菜单名称')).toHaveValue(`分组${tag}`);
    await toolbar(page).getByRole('button', { name: '删除' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, '已删除!')).toBeVisible();
    await expect(treeNode(page, `分组${tag}`)).toHaveCount(0);
  });
});
