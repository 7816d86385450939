// Steps of the console more than one journey takes: an ordinary account made by the administrator, and an
// authorization code made in 授权码列表's 新增授权码 dialog.
import type { Page } from '@playwright/test';
import { expect, toast, tokenOf } from './fixtures.ts';
import { dialog, pickOption } from './list-page.ts';

export async function createAccount(admin: Page, userName: string, passwd: string) {
  const answer = await admin.request.post('/sync/saveTaskUser', { headers: { token: await tokenOf(admin) }, data: { userName, passwd } });
  expect((await answer.json()).success).toBe(true);
}

/** 新增授权码 through the dialog for owner, 随机生成; answers the code. */
export async function addCodeInConsole(admin: Page, owner: string, quantity = 100): Promise<string> {
  await admin.goto('/task/authcode');
  await admin.getByRole('button', { name: '新增' }).click();
  const add = dialog(admin, '新增授权码');
  await pickOption(admin, add, '所属账号', owner, { search: true });
  await add.getByRole('button', { name: '随机生成' }).click();
  const code = await add.getByLabel('授权码').inputValue();
  await add.getByLabel('数量', { exact: true }).fill(String(quantity));
  await add.getByLabel('有效天数').fill('30');
  await add.getByRole('button', { name: '保存' }).click();
  await expect(toast(admin, '保存成功！')).toBeVisible();
  return code;
}
