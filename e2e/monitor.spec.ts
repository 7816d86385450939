import type { Page } from '@playwright/test';
import { ADMIN, USER1 } from './env.ts';
import { answerConfirm, confirmDialog, expect, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { pickOption, rowOf, rows } from './list-page.ts';

// 系统监控: 操作日志, 登录日志, 在线用户 (server entries come from real actions made here).

function searchForm(page: Page, queryKey: string) {
  return page.locator(`form#${queryKey}-search`);
}

/** The day range of an empty search form, typed into its two inputs. */
async function pickDays(form: ReturnType<typeof searchForm>, begin: string, end: string) {
  const [start, finish] = [form.getByPlaceholder('开始日期'), form.getByPlaceholder('结束日期')];
  await start.click();
  await start.fill(begin);
  await finish.click();
  await finish.fill(end);
  await finish.press('Enter');
  await expect(start).toHaveValue(begin);
  await expect(finish).toHaveValue(end);
}

/** The table's empty state (antd shows no pager then). */
function emptyTable(page: Page) {
  return page.locator('.ant-table-tbody .ant-empty');
}

/** Today in Asia/Shanghai, the zone the server's day filters use. */
function shanghaiToday(): string {
  return new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
}

async function saveVariable(page: Page, body: Record<string, string>) {
  const token = await tokenOf(page);
  return (await page.request.post('/api/Variable/save', { headers: { token }, data: body })).json();
}

async function loginThroughApi(page: Page, userName: string, passwd: string, userAgent: string) {
  const answer = await page.request.post('/sync/login', { data: { userName, passwd }, headers: { 'user-agent': userAgent } });
  return (await answer.json()) as { success: boolean; data?: { token: string } };
}

test.describe('操作日志', () => {
  test('shows changes with their result and filters by user, module, result and day', async ({ adminPage: page }) => {
    // Twenty-odd UI steps: about 20 s on a quiet machine, past the default 30 s on a loaded one.
    test.slow();
    const varName = uniqueName('e2e_oper');
    expect((await saveVariable(page, { varLable: `日志${varName}`, varName, varValue: 'secret-value' })).success).toBe(true);
    expect((await saveVariable(page, { varLable: '', varName, varValue: '1' })).success).toBe(false);

    // the request (method, url) is a secondary column of the log: shown on a wide screen
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto('/monitor/operLog');
    const form = searchForm(page, 'operLog');
    await form.getByLabel('用户名').fill('admin');
    await pickOption(page, form, '模块', '系统环境变量'); // a Select of the modules (operLogModules)
    await form.getByRole('button', { name: '查询' }).click();
    const saved = rowOf(page, varName);
    await expect(saved).toHaveCount(1);
    await expect(saved).toContainText('保存');
    await expect(saved).toContainText('/api/Variable/save');
    await expect(saved).toContainText('系统环境变量保存成功！');
    await expect(saved.locator('.ant-tag')).toHaveText('成功');
    await expect(page.locator('.ant-table-tbody')).not.toContainText('secret-value');

    await pickOption(page, form, '结果', '失败');
    await form.getByRole('button', { name: '查询' }).click();
    await expect(rows(page).first().locator('.ant-tag')).toHaveText('失败');
    await expect(rows(page).first()).toContainText('请输入变量描述');
    await expect(rowOf(page, varName)).toHaveCount(0);

    await pickDays(form, shanghaiToday(), shanghaiToday());
    await form.getByRole('button', { name: '查询' }).click();
    await expect(rows(page).first()).toContainText('请输入变量描述');

    await form.getByRole('button', { name: '重置' }).click();
    await pickDays(form, '2020-01-01', '2020-01-02');
    await form.getByRole('button', { name: '查询' }).click();
    await expect(emptyTable(page)).toBeVisible();
    await expect(rows(page)).toHaveCount(0);

    await form.getByRole('button', { name: '重置' }).click();
    await expect(form.getByLabel('用户名')).toHaveValue('');
    await expect(form.getByPlaceholder('开始日期')).toHaveValue('');
    await expect(rowOf(page, varName)).toHaveCount(1);
  });

  test('pages, sorts on the server and exports', async ({ adminPage: page }) => {
    // Other workers write entries at the same time: check the order of what is shown, not which row leads.
    const tag = uniqueName('e2e_operpage');
    for (let i = 0; i < 12; i++) await saveVariable(page, { varLable: tag, varName: `${tag}_${i}`, varValue: String(i) });
    await page.goto('/monitor/operLog');
    const total = Number((await page.getByText(/共 \d+ 条/).textContent())?.match(/\d+/)?.[0]);
    expect(total).toBeGreaterThanOrEqual(12);
    await expect(rows(page)).toHaveCount(10);
    const operTimes = () => rows(page).locator('td:last-child').allTextContents();
    const isSorted = (values: string[], direction: 'asc' | 'desc') =>
      values.every((v, i) => i === 0 || (direction === 'desc' ? values[i - 1] >= v : values[i - 1] <= v));
    expect(isSorted(await operTimes(), 'desc')).toBe(true); // newest first by default
    const newestOnPage1 = (await operTimes())[0];
    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await expect(page.locator('.ant-pagination-item-active')).toHaveText('2');
    await expect.poll(async () => (await operTimes()).every((t) => t <= newestOnPage1)).toBe(true);

    const header = page.locator('.ant-table-thead th').filter({ hasText: '操作时间' });
    await header.click();
    await expect.poll(async () => isSorted(await operTimes(), 'asc')).toBe(true);
    await header.click();
    await expect.poll(async () => isSorted(await operTimes(), 'desc')).toBe(true);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: '导出' }).click();
    expect((await downloading).suggestedFilename()).toBe('操作日志.xlsx');
  });

  test('a count stopped at its step reads 共 1,000+ 条, and its last page offers the next', async ({ adminPage: page }) => {
    // A searched list's answer past SEARCH_COUNT_STEP, made from the server's real answer (seeding 1,001
    // matches would take longer than the rest of this file): page 1's rows, total 1,001 (2,001 from page
    // 101 on: the server counts to the step holding the page) and the flag.
    const tag = uniqueName('e2e_bounded');
    await saveVariable(page, { varLable: tag, varName: tag, varValue: '1' }); // a row for page 1 to show
    let firstRows: unknown[] | undefined;
    await page.route('**/api/OperLog/list', async (route) => {
      const { page: asked } = route.request().postDataJSON() as { page: number };
      const response = await route.fetch();
      const answer = (await response.json()) as { data: unknown[] };
      firstRows ??= answer.data;
      await route.fulfill({ response, json: { ...answer, data: firstRows, total: asked > 100 ? 2001 : 1001, totalBounded: true } });
    });
    await page.goto('/monitor/operLog');
    const pager = page.locator('.ant-pagination');
    await expect(pager.getByText('共 1,000+ 条')).toBeVisible();
    await pager.getByTitle('101', { exact: true }).click();
    await expect(page.locator('.ant-pagination-item-active')).toHaveText('101');
    await expect(pager.getByText('共 2,000+ 条')).toBeVisible();
    await expect(pager.getByTitle('201', { exact: true })).toBeVisible();
  });
});

test.describe('登录日志', () => {
  test('shows failures and successes with a readable browser, filtered', async ({ adminPage: page }) => {
    const ghost = uniqueName('ghost');
    const failed = await loginThroughApi(page, ghost, 'wrong-password', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36');
    expect(failed.success).toBe(false);

    await page.goto('/monitor/loginLog');
    const form = searchForm(page, 'loginLog');
    await form.getByLabel('用户名').fill(ghost);
    await form.getByRole('button', { name: '查询' }).click();
    await expect(rows(page)).toHaveCount(1);
    const row = rowOf(page, ghost);
    await expect(row.locator('.ant-tag')).toHaveText('失败');
    await expect(row).toContainText('用户名或密码错误');
    await expect(row).toContainText('Chrome 120 / Windows 10');
    await expect(page.locator('.ant-table-tbody')).not.toContainText('wrong-password');

    await form.getByLabel('用户名').fill(ADMIN.userName);
    await pickOption(page, form, '结果', '成功');
    await form.getByLabel('IP地址').fill('127.0.0.1');
    await pickDays(form, shanghaiToday(), shanghaiToday());
    await form.getByRole('button', { name: '查询' }).click();
    await expect(rows(page).first()).toContainText(ADMIN.userName);
    await expect(rows(page).first().locator('.ant-tag')).toHaveText('成功');
    await expect(rows(page).first()).toContainText('登录成功');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: '导出' }).click();
    expect((await downloading).suggestedFilename()).toBe('登录日志.xlsx');
  });
});

test.describe('在线用户', () => {
  test('lists sessions, marks the own one, and forces exactly one session offline', async ({ adminPage: page }) => {
    const agent = `e2e-monitor/${Date.now() % 100000}`;
    const session = await loginThroughApi(page, USER1.userName, USER1.password, agent);
    expect(session.success).toBe(true);
    const token = session.data!.token;
    const shortAgent = agent.replace('/', ' ');

    await page.goto('/monitor/online');
    // the own session is marked and cannot be forced offline from here
    const form = searchForm(page, 'online');
    await form.getByLabel('用户名').fill(ADMIN.userName);
    await form.getByRole('button', { name: '查询' }).click();
    const own = rows(page).filter({ has: page.locator('.ant-tag', { hasText: '当前会话' }) });
    await expect(own).toHaveCount(1);
    await expect(own.getByRole('button', { name: '强制下线' })).toHaveCount(0);

    await form.getByLabel('用户名').fill(USER1.userName);
    await form.getByRole('button', { name: '查询' }).click();
    const row = rowOf(page, shortAgent);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('测试用户');

    await row.getByRole('button', { name: '强制下线' }).click();
    await expect(confirmDialog(page)).toContainText(`确定将用户${USER1.userName}的该会话强制下线吗？`);
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消')).toBeVisible();
    await expect(row).toHaveCount(1);
    expect((await page.request.get('/sync/currentUser', { headers: { token } })).status()).toBe(200);

    await row.getByRole('button', { name: '强制下线' }).click();
    await answerConfirm(page, '确定');
    await expect(toast(page, `用户${USER1.userName}强制下线成功！`)).toBeVisible();
    await expect(row).toHaveCount(0);
    expect((await page.request.get('/sync/currentUser', { headers: { token } })).status()).toBe(401);

    // the change is in the operation log
    await page.goto('/monitor/operLog');
    const logForm = searchForm(page, 'operLog');
    await pickOption(page, logForm, '模块', '在线用户');
    await logForm.getByRole('button', { name: '查询' }).click();
    await expect(rows(page).first()).toContainText('强制下线');
    await expect(rows(page).first()).toContainText(USER1.userName);
  });

  test('searches by address and exports', async ({ adminPage: page }) => {
    await page.goto('/monitor/online');
    const form = searchForm(page, 'online');
    await form.getByLabel('IP地址').fill('10.255.255.1');
    await form.getByRole('button', { name: '查询' }).click();
    await expect(emptyTable(page)).toBeVisible();
    await form.getByRole('button', { name: '重置' }).click();
    await expect(rows(page).first()).toBeVisible();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: '导出' }).click();
    expect((await downloading).suggestedFilename()).toBe('在线用户.xlsx');
  });
});

test('an ordinary user cannot open the monitor screens', async ({ user1Page: page }) => {
  for (const url of ['/monitor/online', '/monitor/operLog', '/monitor/loginLog']) {
    await page.goto(url);
    await expect(page.getByText('抱歉，您没有访问该页面的权限')).toBeVisible();
  }
});
