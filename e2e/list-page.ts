// Locators every list screen shares (the ListPage component renders them all the same way).
import type { Page } from '@playwright/test';

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
