// Locators every list screen shares (the ListPage component renders them all the same way).
import type { Locator, Page } from '@playwright/test';
import { answerConfirm, confirmDialog, expect, test, toast } from './fixtures.ts';

export function rows(page: Page) {
  return page.locator('.ant-table-tbody tr.ant-table-row');
}

export function rowOf(page: Page, text: string) {
  return rows(page).filter({ hasText: text });
}

export function dialog(page: Page, title: string) {
  return page.getByRole('dialog').filter({ hasText: title });
}

/** A field's validation message within a form or dialog (not a placeholder of the same text). */
export function fieldError(scope: Locator, text: string) {
  return scope.locator('.ant-form-item-explain-error').filter({ hasText: text });
}

/**
 * Opens the screen `name` from the side menu, opening its `group` first when the link is hidden, and
 * returns once the screen is up. The URL moves before the screen renders (the router's transition keeps
 * the last one up meanwhile); the breadcrumb changes with the screen itself, so a 新增 pressed next lands
 * on the screen opened, not on the one left. The one way a spec follows the side menu.
 */
export async function openFromMenu(page: Page, group: string, name: string) {
  const menu = page.locator('.ant-layout-sider .ant-menu');
  const link = menu.getByRole('link', { name, exact: true });
  // A click on the group that lands while the menu still renders would close an open group: open until the link shows.
  await expect(async () => {
    if (!(await link.isVisible())) await menu.getByText(group, { exact: true }).click();
    await expect(link).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await link.click();
  await expect(page.locator('.ant-breadcrumb')).toContainText(name);
}

/** Fills one field of a list's search form (form#<queryKey>-search) and presses 查询. */
export async function searchList(page: Page, queryKey: string, label: string, value: string) {
  const form = page.locator(`form#${queryKey}-search`);
  await form.getByLabel(label).fill(value);
  await form.getByRole('button', { name: '查询' }).click();
}

/** The open 更多 dropdown of a row (antd renders it in a portal, outside the row). */
function openMenu(page: Page) {
  return page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu');
}

/**
 * Clicks the row action named `name`: a link in the 操作 cell, or — when the row has more than three
 * actions — an item of its 更多 dropdown. The one way a spec triggers a row action.
 */
export async function clickRowAction(page: Page, row: Locator, name: string) {
  await expect(row.locator('td').last()).toBeVisible();
  const inline = row.getByRole('button', { name, exact: true });
  if ((await inline.count()) > 0) {
    await inline.click();
    return;
  }
  const item = openMenu(page).getByRole('menuitem', { name, exact: true });
  // A click that lands while the dropdown still animates in is lost on a busy machine: open until the item shows.
  await expect(async () => {
    if (!(await item.isVisible())) await row.locator('.row-actions-more').click();
    await expect(item).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await item.click();
}

/** The names of the row's actions, the links and those under 更多 (the dropdown is closed again). */
export async function rowActionNames(page: Page, row: Locator): Promise<string[]> {
  await expect(row.locator('td').last()).toBeVisible();
  const cell = row.locator('td').last();
  const inline = (await cell.locator('button:not(.row-actions-more)').allTextContents()).map((t) => t.trim());
  const more = cell.locator('.row-actions-more');
  if ((await more.count()) === 0) return inline;
  const menu = openMenu(page);
  await expect(async () => {
    if (!(await menu.isVisible())) await more.click();
    await expect(menu).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  const hidden = (await menu.getByRole('menuitem').allTextContents()).map((t) => t.trim());
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  return [...inline, ...hidden];
}

/**
 * The row's 删除: 取消 first (the cancel text shows and the row stays), then 确定 (the server's
 * deleted text shows). `confirm`, when given, is a text the confirmation must contain.
 */
export async function deleteRowCancelThenConfirm(page: Page, row: Locator, texts: { confirm?: string; deleted: string }) {
  await clickRowAction(page, row, '删除');
  if (texts.confirm !== undefined) await expect(confirmDialog(page)).toContainText(texts.confirm);
  await answerConfirm(page, '取消');
  await expect(toast(page, '已取消删除')).toBeVisible();
  await expect(row).toBeVisible();
  await clickRowAction(page, row, '删除');
  await answerConfirm(page, '确定');
  await expect(toast(page, texts.deleted)).toBeVisible();
}

/** The row's cell under the column titled exactly `title` (the header row decides the position). */
export async function cellOf(page: Page, row: Locator, title: string) {
  const titles = (await page.locator('.ant-table-thead th').allTextContents()).map((t) => t.trim());
  const index = titles.indexOf(title);
  if (index < 0) throw new Error(`no column ${title} in ${titles.join(', ')}`);
  return row.locator('td').nth(index);
}

/**
 * Picks `option` of the antd Select labelled `label` inside `scope`, and checks it took: on a busy
 * machine a click can land while the dropdown still animates in (or the previous one out), so the
 * pick is retried until the select shows the option. `search` types the option to filter a long list;
 * `shownIn` is where the chosen option shows when the select is not in a form item.
 */
export async function pickOption(
  page: Page, scope: Locator, label: string, option: string, options: { search?: boolean; shownIn?: Locator } = {},
) {
  const field = scope.getByLabel(label, { exact: true });
  // the form item shows the chosen option's label (the dropdown itself lives outside it, in a portal)
  const shown = options.shownIn ?? scope.locator('.ant-form-item').filter({ has: page.getByLabel(label, { exact: true }) }).first();
  await expect(async () => {
    // search: type the option when the field takes typing (a long list), else open it
    if (options.search && (await field.isEditable())) await field.fill(option);
    else await field.click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click({ timeout: 2000 });
    await expect(shown).toContainText(option, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}

/** What the shared list-screen scenario needs of a screen (listScreenScenario). */
export type ListScreen = {
  url: string;
  /** The ListPage's queryKey: its search form is form#<queryKey>-search. */
  queryKey: string;
  /** '公司' → the dialogs 新增公司 / 编辑公司. */
  entity: string;
  /** The contract's messages 保存 shows on an empty add dialog. */
  required: string[];
  /** A field given a bad value shows the contract's message; `fixed`, when given, is a value that clears it. */
  invalid: { label: string; value: string; message: string; fixed?: string }[];
  /** Add through the dialog, search, edit: left out where the screen's add has steps of its own. */
  addSearchEdit?: {
    /** A key unique to this run. */
    key: () => string;
    /** The dialog's text fields (label → value), filled in this order. */
    fields: (key: string) => Record<string, string>;
    /** The server's success text of 保存. */
    saved: string;
    /** The search field that finds the row by its key. */
    searchBy: { label: string; value: (key: string) => string };
    /** What the row shows once added (besides the key). */
    rowShows: (key: string) => (string | RegExp)[];
    /** The field the edit changes, and its new value. */
    edit: { label: string; value: (key: string) => string };
  };
};

/**
 * The steps every list screen with a 新增 dialog shares, fed each screen's data (公司管理, 系统环境变量,
 * 权限管理, 用户管理): the dialog shows the contract's messages; add, search and edit.
 */
export function listScreenScenario(screen: ListScreen) {
  test('the dialog shows the contract validation messages', async ({ adminPage: page }) => {
    await page.goto(screen.url);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, `新增${screen.entity}`);
    await add.getByRole('button', { name: '保存' }).click();
    for (const text of screen.required) {
      await expect(add.locator('.ant-form-item-explain-error').getByText(text, { exact: true })).toBeVisible();
    }
    for (const bad of screen.invalid) {
      await add.getByLabel(bad.label).fill(bad.value);
      await expect(add.getByText(bad.message)).toBeVisible();
      if (bad.fixed === undefined) continue;
      await add.getByLabel(bad.label).fill(bad.fixed);
      await expect(add.getByText(bad.message)).toBeHidden();
    }
    await add.getByRole('button', { name: '取消' }).click();
    await expect(add).toBeHidden();
  });

  const flow = screen.addSearchEdit;
  if (!flow) return;
  test(`add, search and edit a ${screen.queryKey}`, async ({ adminPage: page }) => {
    const key = flow.key();
    const fields = flow.fields(key);
    await page.goto(screen.url);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, `新增${screen.entity}`);
    for (const [label, value] of Object.entries(fields)) await add.getByLabel(label).fill(value);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, flow.saved)).toBeVisible();
    await expect(add).toBeHidden();

    await searchList(page, screen.queryKey, flow.searchBy.label, flow.searchBy.value(key));
    await expect(rows(page)).toHaveCount(1);
    const row = rowOf(page, key);
    for (const text of flow.rowShows(key)) await expect(row).toContainText(text);
    await expect(page.getByText('共 1 条')).toBeVisible();

    await row.getByRole('button', { name: '编辑' }).click();
    const edit = dialog(page, `编辑${screen.entity}`);
    for (const [label, value] of Object.entries(fields)) await expect(edit.getByLabel(label)).toHaveValue(value);
    const changed = flow.edit.value(key);
    await edit.getByLabel(flow.edit.label).fill(changed);
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, flow.saved)).toBeVisible();
    await expect(rowOf(page, key)).toContainText(changed);
    await expect(rows(page)).toHaveCount(1);
  });
}
