// At the smallest screen the console is made for (1366×768): every list shows its key
// columns without a horizontal scroll and 操作 covers none of them; the side menu scrolls on its own and
// stays in place while the content scrolls; the upload result stays inside the window; 个人中心 shows the
// operator's own account.
import type { Locator, Page } from '@playwright/test';
import { TestDevice } from './device.ts';
import { expect, test, toast, tokenOf, uniqueCode, uniqueName } from './fixtures.ts';
import { dialog, openFromMenu, rowOf, searchList } from './list-page.ts';

const WIDTH = 1366;
const HEIGHT = 768;
test.use({ viewport: { width: WIDTH, height: HEIGHT } });

async function post(page: Page, url: string, data: Record<string, unknown>) {
  const answer = await page.request.post(url, { headers: { token: await tokenOf(page) }, data });
  const body = await answer.json();
  expect(body.success, `${url}: ${body.msg}`).toBe(true);
  return body.data;
}

/** A running task of the administrator's: its row has all five actions. */
async function createTask(page: Page, taskName: string): Promise<void> {
  await post(page, '/sync/saveTaskInfo', { taskName, showType: 1, content: '您好，这是一条用来占满内容列的比较长的发送内容' });
}

/** `count` distinct valid mobile numbers, then `invalid` long lines that are no number. */
function numbersFile(count: number, invalid: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(`138${String(i).padStart(8, '0')}`);
  for (let i = 0; i < invalid; i++) lines.push(`无效的一行-${i}-${'x'.repeat(30)}`);
  return Buffer.from(lines.join('\r\n'));
}

type HeaderBox = { text: string; left: number; right: number };

/**
 * The shown list fits: the table scrolls nothing sideways, every header cell is inside the window, no
 * cell (操作 included) lies over its neighbour, and the key columns are there.
 */
async function expectListFits(page: Page, keyColumns: string[] = []) {
  const table = page.locator('.ant-table-wrapper').first();
  await expect(table.locator('.ant-table-tbody tr:not(.ant-table-measure-row)').first()).toBeVisible();
  await expect(table.locator('.ant-spin-spinning')).toHaveCount(0);
  const content = table.locator('.ant-table-content');
  const { scrollWidth, clientWidth } = await content.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  const name = await page.locator('.ant-breadcrumb').innerText();
  expect(scrollWidth, `${name}: the table needs a horizontal scroll`).toBeLessThanOrEqual(clientWidth);
  const headers: HeaderBox[] = await table.locator('.ant-table-thead th').evaluateAll((cells) =>
    cells.map((cell) => {
      const box = cell.getBoundingClientRect();
      return { text: (cell.textContent ?? '').trim(), left: box.left, right: box.right };
    }),
  );
  for (const [i, header] of headers.entries()) {
    expect(header.right, `${name}: ${header.text} is outside the window`).toBeLessThanOrEqual(WIDTH);
    const next = headers[i + 1];
    if (next) expect(header.right, `${name}: ${next.text} covers ${header.text}`).toBeLessThanOrEqual(next.left + 1);
  }
  const titles = headers.map((h) => h.text);
  for (const key of keyColumns) expect(titles, `${name}: no ${key}`).toContain(key);
}

/** The element lies wholly inside the window. */
async function expectInWindow(locator: Locator, what: string) {
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.y, `${what} starts above the window`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what} ends below the window`).toBeLessThanOrEqual(HEIGHT);
}

test.describe('1366×768', () => {
  test('the upload result stays in the window; the task list shows the count, 状态 and 创建人 beside 操作', async ({ adminPage: page }) => {
    const taskName = uniqueName('fit');
    await createTask(page, taskName);

    // 19,014 numbers and 30 invalid lines: the result shows five samples and a download of all.
    await page.goto('/task/index');
    await searchList(page, 'task', '任务名称', taskName);
    const row = rowOf(page, taskName);
    await row.getByRole('button', { name: '上传号码', exact: true }).click();
    const upload = dialog(page, '上传号码');
    await upload.locator('input[type=file]').setInputFiles({ name: 'numbers.txt', mimeType: 'text/plain', buffer: numbersFile(19_014, 30) });
    await expect(toast(page, '数据上传成功！')).toBeVisible();
    const samples = upload.locator('.invalid-samples');
    await expect(samples.locator('code')).toHaveCount(5);
    await expect(samples.getByRole('button', { name: /下载全部示例（20 行）/ })).toBeVisible();
    await expectInWindow(upload, 'the upload dialog');
    const close = upload.locator('.ant-modal-footer').getByRole('button', { name: '关闭' });
    await expect(upload.getByRole('button', { name: '取消' })).toHaveCount(0);
    await close.click();
    await expect(upload).toBeHidden();

    // The task row shows its count, 状态 and 创建人 next to 操作, first two actions and 更多.
    await expect(row).toContainText('19014');
    await expect(row.getByRole('button', { name: '暂停', exact: true })).toBeVisible();
    await expect(row.locator('.row-actions-more')).toBeVisible();
    await expectListFits(page, ['任务名称', '状态', '号码总数', '已发送', '送达', '创建人', '操作']);
  });

  test('the other task lists fit without a sideways scroll', async ({ adminPage: page }) => {
    const code = uniqueCode('FIT');
    await post(page, '/sync/saveAuthCode', { authCode: code, authUserId: 1, dueNum: 100, dueDateNum: 30 });
    await TestDevice.activate(code, uniqueName('android'), uniqueName('手机'));

    await page.goto('/task/authcode');
    await expect(page.locator('.ant-breadcrumb')).toContainText('授权码列表');
    await expectListFits(page, ['授权码', '使用状态', '剩余数量', '操作']);
    await page.getByRole('button', { name: '设备列表' }).click();
    await expect(page.locator('.ant-breadcrumb')).toContainText('设备列表');
    await expectListFits(page, ['设备名称', '设备编号', '状态', '发送能力', '最后在线', '今日发送', '剩余数量']);
    await openFromMenu(page, '任务管理', '用户发送统计');
    await expectListFits(page);
    await openFromMenu(page, '任务管理', '黑名单');
    await expectListFits(page);
    await openFromMenu(page, '任务管理', '回复记录');
    await expectListFits(page);
  });

  test('the system and monitor lists fit without a sideways scroll', async ({ adminPage: page }) => {
    await page.goto('/system/user');
    await expect(page.locator('.ant-breadcrumb')).toContainText('用户管理');
    for (const screen of ['用户管理', '公司管理', '角色管理', '权限管理', '系统环境变量']) {
      await openFromMenu(page, '系统管理', screen);
      await expectListFits(page);
    }
    await openFromMenu(page, '系统监控', '在线用户');
    await expectListFits(page, ['用户名', 'IP地址', '操作']);
    await openFromMenu(page, '系统监控', '操作日志');
    await expectListFits(page);
    await openFromMenu(page, '系统监控', '登录日志');
    await expectListFits(page);
  });

  test('the side menu scrolls on its own and stays put while the content scrolls', async ({ adminPage: page }) => {
    // a full page of 登录日志, taller than the window
    for (let i = 0; i < 10; i++) await page.request.post('/sync/login', { data: { userName: 'admin', passwd: 'Admin@12345' } });
    await page.goto('/task/index');
    const sider = page.locator('.ant-layout-sider');
    const menu = page.locator('.side-menu');
    // every group open: the menu is taller than the window and scrolls by itself
    for (const group of ['系统管理', '支付管理', '设备管理', '统计分析', '系统监控']) {
      await menu.getByText(group, { exact: true }).click();
    }
    await expect(menu.getByRole('link', { name: '监控查询' })).toBeAttached();
    await expect.poll(() => menu.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await menu.getByRole('link', { name: '监控查询' }).scrollIntoViewIfNeeded();
    expect(await menu.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    expect(await page.evaluate('document.scrollingElement.scrollTop')).toBe(0);

    // a screen opened from the bottom of the menu shows at the top of the content, not scrolled away
    await openFromMenu(page, '系统监控', '登录日志');
    await expectInWindow(page.locator('form#loginLog-search'), 'the search form of 登录日志');

    // the content scrolls; the menu stays where it was
    const before = await sider.boundingBox();
    const content = page.locator('.main-content');
    await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
    await content.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    expect(await content.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    expect(await page.evaluate('document.scrollingElement.scrollTop')).toBe(0);
    expect(await sider.boundingBox()).toEqual(before);
    await expectInWindow(page.getByRole('link', { name: '登录日志' }), 'the menu link of the shown screen');
  });

  test('个人中心 shows the operator’s own account; 设置 opens 修改密码', async ({ adminPage: page }) => {
    // one more login, so the account has a login before the latest one
    await page.request.post('/sync/login', { data: { userName: 'admin', passwd: 'Admin@12345' } });
    await page.goto('/task/index');
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: '个人中心' }).click();
    await expect(page).toHaveURL(/\/task\/profile$/);
    const profile = page.locator('.profile');
    await expect(profile).toContainText('账号');
    await expect(profile).toContainText('admin');
    await expect(profile).toContainText('超级管理员');
    for (const label of ['姓名', '手机号', '邮箱', '所属公司', '角色', '上次登录时间', '上次登录地址']) {
      await expect(profile.locator('.ant-descriptions-item-label', { hasText: label })).toBeVisible();
    }
    await expect(profile.locator('.ant-descriptions-item-content').nth(6)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: '设置' }).click();
    await expect(page).toHaveURL(/\/task\/updatePasswd$/);
  });
});
