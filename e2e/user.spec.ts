import type { Page } from '@playwright/test';
import { answerConfirm, confirmDialog, expect, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { clickRowAction, deleteRowCancelThenConfirm, dialog, listScreenScenario, pickOption, rowOf, rows, searchList } from './list-page.ts';
import { readDownloadedXlsx } from './xlsx.ts';

const URL = '/system/user';
const VALID = { userRealName: '测试用户', roleId: 2, userSex: '男', userMobile: '13800138000', userEmail: 'e2e@example.com' };

const searchByName = (page: Page, userName: string) => searchList(page, 'user', '用户名', userName);

/** Creates users through the API with the page's own session; answers their one-time passwords. */
async function createUsers(page: Page, names: string[], extra: Record<string, unknown> = {}): Promise<Record<string, string>> {
  const token = await tokenOf(page);
  const passwords: Record<string, string> = {};
  for (const userName of names) {
    const answer = await (await page.request.post('/api/User/save', { headers: { token }, data: { userName, ...VALID, ...extra } })).json();
    expect(answer.success, answer.msg).toBe(true);
    passwords[userName] = answer.data.initialPassword;
  }
  return passwords;
}

async function loginByApi(page: Page, userName: string, passwd: string): Promise<string> {
  const answer = await (await page.request.post('/sync/login', { data: { userName, passwd } })).json();
  expect(answer.success, answer.msg).toBe(true);
  return answer.data.token;
}

async function isLive(page: Page, token: string): Promise<boolean> {
  return (await page.request.get('/sync/currentUser', { headers: { token } })).status() === 200;
}

test.describe('用户管理', () => {
  listScreenScenario({
    url: URL,
    queryKey: 'user',
    entity: '用户',
    required: ['请输入用户名', '请输入姓名', '请选择角色', '请选择性别', '请输入手机号', '请输入邮箱'],
    invalid: [
      { label: '手机号', value: '15412345678', message: '请输入正确的手机号', fixed: '17612345678' },
      { label: '邮箱', value: 'not-an-email', message: '请输入正确的邮箱' },
    ],
  });

  test('add shows the one-time password that logs in; search and edit', async ({ adminPage: page }) => {
    const userName = uniqueName('e2e_add');
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增用户');
    await add.getByLabel('用户名').fill(userName);
    await add.getByLabel('姓名').fill('王五');
    await pickOption(page, add, '角色', '普通用户');
    await pickOption(page, add, '性别', '女');
    await add.getByLabel('手机号').fill('18612345678');
    await add.getByLabel('邮箱').fill('wangwu@example.com');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '数据保存成功！')).toBeVisible();
    const shown = dialog(page, '临时密码');
    await expect(shown).toContainText(userName);
    const password = (await shown.locator('.temp-password').textContent())?.trim() ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    await shown.getByRole('button', { name: '确定' }).click();
    await expect(shown).toBeHidden();
    await loginByApi(page, userName, password);

    await searchByName(page, userName);
    await expect(rows(page)).toHaveCount(1);
    const row = rowOf(page, userName);
    await expect(row).toContainText('王五');
    await expect(row).toContainText('18612345678');
    await expect(row).toContainText('普通用户');
    await expect(row).toContainText('汇云演示公司');

    await clickRowAction(page, row, '编辑');
    const edit = dialog(page, '编辑用户');
    await expect(edit.getByLabel('姓名')).toHaveValue('王五');
    await edit.getByLabel('姓名').fill('王六');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '数据保存成功！')).toBeVisible();
    await expect(rowOf(page, userName)).toContainText('王六');
    await expect(dialog(page, '临时密码')).toBeHidden();
  });

  test('a duplicate user name shows the server message', async ({ adminPage: page }) => {
    const userName = uniqueName('e2e_dup');
    await createUsers(page, [userName]);
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增用户');
    await add.getByLabel('用户名').fill(userName);
    await add.getByLabel('姓名').fill('重名');
    await pickOption(page, add, '角色', '普通用户');
    await pickOption(page, add, '性别', '男');
    await add.getByLabel('手机号').fill('13800138000');
    await add.getByLabel('邮箱').fill('dup@example.com');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '用户名已存在')).toBeVisible();
    await expect(add).toBeVisible();
  });

  test('filters by mobile and lock status, pages and sorts', async ({ adminPage: page }) => {
    const tag = uniqueName('e2e_pg');
    await createUsers(page, Array.from({ length: 12 }, (_, i) => `${tag}_${String(i).padStart(2, '0')}`));
    const mobileTag = uniqueName('e2e_mob');
    await createUsers(page, [mobileTag], { userMobile: '14798765432' });
    await page.goto(URL);
    await searchByName(page, tag);
    await expect(page.getByText('共 12 条')).toBeVisible();
    await expect(rows(page)).toHaveCount(10);
    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await expect(rows(page)).toHaveCount(2);
    const header = page.locator('.ant-table-thead th').filter({ hasText: '用户名' });
    await header.click();
    await expect(rows(page).first()).toContainText(`${tag}_00`);
    await header.click();
    await expect(rows(page).first()).toContainText(`${tag}_11`);

    const form = page.locator('form#user-search');
    await form.getByRole('button', { name: '重置' }).click();
    await form.getByLabel('手机号').fill('14798765432');
    await form.getByRole('button', { name: '查询' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rowOf(page, mobileTag)).toBeVisible();

    await form.getByRole('button', { name: '重置' }).click();
    await form.getByLabel('用户名').fill(tag);
    await pickOption(page, form, '状态', '锁定');
    await form.getByRole('button', { name: '查询' }).click();
    await expect(page.locator('.ant-empty')).toBeVisible();
    await pickOption(page, form, '状态', '全部');
    await form.getByRole('button', { name: '查询' }).click();
    await expect(page.getByText('共 12 条')).toBeVisible();
  });

  test('the lock switch locks and unlocks; account admin cannot be locked', async ({ adminPage: page }) => {
    const userName = uniqueName('e2e_lock');
    const passwords = await createUsers(page, [userName]);
    const session = await loginByApi(page, userName, passwords[userName]);
    await page.goto(URL);
    await searchByName(page, userName);
    const lock = rowOf(page, userName).getByRole('switch');
    await expect(lock).not.toBeChecked();
    await lock.click();
    await expect(toast(page, '状态修改成功')).toBeVisible();
    await expect(lock).toBeChecked();
    await expect(lock).toContainText('锁定');
    expect(await isLive(page, session)).toBe(false);

    const form = page.locator('form#user-search');
    await pickOption(page, form, '状态', '锁定');
    await form.getByRole('button', { name: '查询' }).click();
    await expect(rows(page)).toHaveCount(1);
    await rowOf(page, userName).getByRole('switch').click();
    await expect(toast(page, '状态修改成功')).toBeVisible();
    await expect(rows(page)).toHaveCount(0);

    await form.getByRole('button', { name: '重置' }).click();
    await searchByName(page, 'admin');
    await expect(rows(page).filter({ has: page.getByRole('cell', { name: 'admin', exact: true }) }).getByRole('switch')).toBeDisabled();
  });

  test('delete: cancel keeps the user, confirm removes it; account admin is refused', async ({ adminPage: page }) => {
    const userName = uniqueName('e2e_del');
    await createUsers(page, [userName]);
    await page.goto(URL);
    await searchByName(page, userName);
    const row = rowOf(page, userName);
    await deleteRowCancelThenConfirm(page, row, { confirm: '确定删除选中的数据吗？', deleted: '数据已删除!' });
    await expect(rows(page)).toHaveCount(0);

    await searchByName(page, 'admin');
    const adminRow = rows(page).filter({ has: page.getByRole('cell', { name: 'admin', exact: true }) });
    await clickRowAction(page, adminRow, '删除');
    await answerConfirm(page, '确定');
    await expect(toast(page, '系统管理员账号不能删除')).toBeVisible();
    await expect(adminRow).toBeVisible();
  });

  test('reset password: cancel, then confirm shows the new password that logs in', async ({ adminPage: page }) => {
    const userName = uniqueName('e2e_pwd');
    const passwords = await createUsers(page, [userName]);
    const session = await loginByApi(page, userName, passwords[userName]);
    await page.goto(URL);
    await searchByName(page, userName);
    const row = rowOf(page, userName);
    await clickRowAction(page, row, '重置密码');
    await expect(confirmDialog(page)).toContainText(userName);
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消')).toBeVisible();
    expect(await isLive(page, session)).toBe(true);

    await clickRowAction(page, row, '重置密码');
    await answerConfirm(page, '确定');
    await expect(toast(page, '重置密码成功！')).toBeVisible();
    const shown = dialog(page, '临时密码');
    const password = (await shown.locator('.temp-password').textContent())?.trim() ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(password).not.toBe(passwords[userName]);
    await shown.getByRole('button', { name: '确定' }).click();
    expect(await isLive(page, session)).toBe(false);
    await loginByApi(page, userName, password);
  });

  test('force offline (with confirm) and refresh cache', async ({ adminPage: page }) => {
    const userName = uniqueName('e2e_kick');
    const passwords = await createUsers(page, [userName]);
    const session = await loginByApi(page, userName, passwords[userName]);
    await page.goto(URL);
    await searchByName(page, userName);
    const row = rowOf(page, userName);
    await clickRowAction(page, row, '强制下线');
    await expect(confirmDialog(page)).toContainText(`确定将用户${userName}强制下线吗？`);
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消')).toBeVisible();
    expect(await isLive(page, session)).toBe(true);
    await clickRowAction(page, row, '强制下线');
    await answerConfirm(page, '确定');
    await expect(toast(page, `用户${userName}强制下线成功！`)).toBeVisible();
    expect(await isLive(page, session)).toBe(false);

    await clickRowAction(page, row, '刷新缓存');
    await expect(toast(page, '刷新成功！')).toBeVisible();
  });

  test('data permission tree and department dialog', async ({ adminPage: page }) => {
    const token = await tokenOf(page);
    const deptName = uniqueName('e2e公司');
    const saved = await (await page.request.post('/api/Dept/save', { headers: { token }, data: { deptName, deptNo: uniqueName('E2E') } })).json();
    expect(saved.success, saved.msg).toBe(true);
    const tag = uniqueName('e2e_scope');
    await createUsers(page, [`${tag}_a`, `${tag}_b`, `${tag}_c`], { roleId: 1 });
    await page.goto(URL);
    await searchByName(page, tag);
    await expect(rows(page)).toHaveCount(3);

    // 数据权限: tick the new company, save, and find it ticked when the dialog opens again
    await clickRowAction(page, rowOf(page, `${tag}_a`), '数据权限');
    const scope = dialog(page, `数据权限（${tag}_a）`);
    const node = scope.locator('.ant-tree-treenode').filter({ hasText: deptName });
    await expect(node).toBeVisible();
    await expect(node.locator('.ant-tree-checkbox')).not.toHaveClass(/ant-tree-checkbox-checked/);
    await node.locator('.ant-tree-checkbox').click();
    await scope.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '权限保存成功')).toBeVisible();
    await expect(scope).toBeHidden();
    await clickRowAction(page, rowOf(page, `${tag}_a`), '数据权限');
    await expect(scope.locator('.ant-tree-treenode').filter({ hasText: deptName }).locator('.ant-tree-checkbox')).toHaveClass(/ant-tree-checkbox-checked/);
    await expect(scope.locator('.ant-tree-treenode').filter({ hasText: '汇云演示公司' }).locator('.ant-tree-checkbox')).not.toHaveClass(/ant-tree-checkbox-checked/);
    await scope.getByRole('button', { name: '取消' }).click();

    // 部门设置: needs selected rows; moves them to the chosen company
    const setDept = page.getByRole('button', { name: '部门设置' });
    await expect(setDept).toBeDisabled();
    await rowOf(page, `${tag}_a`).getByRole('checkbox').check();
    await rowOf(page, `${tag}_c`).getByRole('checkbox').check();
    await setDept.click();
    const move = dialog(page, '部门设置');
    await expect(move).toContainText('已选 2 个用户');
    await move.getByRole('button', { name: '确 定' }).or(move.getByRole('button', { name: '确定' })).click();
    await expect(toast(page, '请选择部门')).toBeVisible();
    await move.locator('.ant-tree-treenode').filter({ hasText: deptName }).locator('.ant-tree-title').click();
    await move.getByRole('button', { name: '确 定' }).or(move.getByRole('button', { name: '确定' })).click();
    await expect(toast(page, '部门设置成功！')).toBeVisible();
    await expect(move).toBeHidden();
    await expect(rowOf(page, `${tag}_a`)).toContainText(deptName);
    await expect(rowOf(page, `${tag}_c`)).toContainText(deptName);
    await expect(rowOf(page, `${tag}_b`)).toContainText('汇云演示公司');
  });

  test('exports the filtered list', async ({ adminPage: page }) => {
    const tag = uniqueName('e2e_exp');
    await createUsers(page, [tag]);
    await page.goto(URL);
    await searchByName(page, tag);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: '导出' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe('用户管理.xlsx');
    // the file holds the list as filtered: the one account found, by its name
    const sheet = await readDownloadedXlsx(file);
    expect(sheet.slice(1).map((row) => row.filter((cell) => cell.includes(tag)))).toEqual([[tag]]);
  });
});
