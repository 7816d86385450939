// Locators every list screen shares (the ListPage component renders them all the same way).
import type { Locator, Page } from '@playwright/test';
import { confirmDialog, expect, toast } from './fixtures.ts';

export function rows(page: Page) {
  return page.locator('.ant-table-tbody tr.ant-table-row');
}

export function rowOf(page: Page, text: string) {
  return rows(page).filter({ hasText: text });
}

export function dialog(page: Page, title: string) {
  return page.getByRole('dialog').filter({ hasText: title });
}

/** Fills one field of a list's search form (form#<queryKey>-search) and presses 查询. */
export async function searchList(page: Page, queryKey: string, label: string, value: string) {
  const form = page.locator(`form#${queryKey}-search`);
  await form.getByLabel(label).fill(value);
  await form.getByRole('button', { name: '查询' }).click();
}

/**
 * The row's 删除: 取消 first (the cancel text shows and the row stays), then 确定 (the server's
 * deleted text shows). `confirm`, when given, is a text the confirmation must contain.
 */
export async function deleteRowCancelThenConfirm(page: Page, row: Locator, texts: { confirm?: string; deleted: string }) {
  await row.getByRole('button', { name: '删除' }).click();
  if (texts.confirm !== undefined) await expect(confirmDialog(page)).toContainText(texts.confirm);
  await confirmDialog(page).getByRole('button', { name: '取消' }).click();
  await expect(toast(page, '已取消删除')).toBeVisible();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: '删除' }).click();
  await confirmDialog(page).getByRole('button', { name: '确定' }).click();
  await expect(toast(page, texts.deleted)).toBeVisible();
}
