import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, tokenOf, uniqueName } from './fixtures.ts';
import { cellOf, openFromMenu, pickOption, rowOf, rows, searchList } from './list-page.ts';
import { TestDevice } from './device.ts';

// 回复记录: replies a device uploads over the device protocol (POST /device/v1/replies) show in the owner's
// list with their device and 退订 flag; a 退订 reply's number is in 黑名单 with its source.

/** A device of user1: a code made by the administrator through the API, activated over the protocol. */
async function deviceOfUser1(admin: Page, machineName: string): Promise<TestDevice> {
  const token = await tokenOf(admin);
  const owners = await (await admin.request.post('/sync/queryTaskUserList', { headers: { token }, data: {} })).json();
  const authUserId = (owners.data as { userId: number; userName: string }[]).find((u) => u.userName === 'user1')!.userId;
  const authCode = uniqueName('REPLY').toUpperCase().replace(/_/g, '-');
  const saved = await admin.request.post('/sync/saveAuthCode', { headers: { token }, data: { authCode, authUserId, dueNum: 10, dueDateNum: 30 } });
  expect((await saved.json()).success).toBe(true);
  return TestDevice.activate(authCode, uniqueName('android'), machineName);
}

test('replies uploaded by a device: the list, a filter, export and the 退订 number in 黑名单', async ({ adminPage: admin, user1Page: page }) => {
  const machineName = uniqueName('回复手机');
  const device = await deviceOfUser1(admin, machineName);
  // two numbers no other run uses, sharing their first ten digits
  const prefix = `199${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
  const [asked, unsubscribed] = [`${prefix}1`, `${prefix}2`];
  const answer = await page.request.post('/device/v1/replies', {
    headers: { authorization: `Bearer ${device.activation.deviceToken}` },
    data: {
      replies: [
        { messageId: `${prefix}-a`, phone: `+86${asked}`, content: '优惠券怎么用？', receivedAt: Date.now() - 60_000 },
        { messageId: `${prefix}-b`, phone: unsubscribed, content: 'ＴＤ', receivedAt: Date.now() },
      ],
    },
  });
  expect((await answer.json()).data).toEqual({ accepted: 2, duplicates: 0, unsubscribed: 1 });

  await page.goto('/task/index');
  await openFromMenu(page, '任务管理', '回复记录');
  await searchList(page, 'reply', '号码', prefix);
  await expect(rows(page)).toHaveCount(2);
  const first = rowOf(page, asked);
  await expect(await cellOf(page, first, '内容')).toHaveText('优惠券怎么用？');
  await expect(await cellOf(page, first, '设备')).toHaveText(machineName);
  await expect(await cellOf(page, first, '退订')).toHaveText('否');
  await expect(await cellOf(page, rowOf(page, unsubscribed), '退订')).toHaveText('是');

  const form = page.locator('form#reply-search');
  await pickOption(page, form, '退订', '仅退订');
  await form.getByRole('button', { name: '查询' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(unsubscribed);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('回复记录.xlsx');
  expect(fs.statSync((await download.path())!).size).toBeGreaterThan(0);

  await openFromMenu(page, '任务管理', '黑名单');
  await searchList(page, 'blacklist', '号码', unsubscribed);
  await expect(rows(page)).toHaveCount(1);
  await expect(await cellOf(page, rows(page).first(), '来源')).toHaveText('回复退订');
});
