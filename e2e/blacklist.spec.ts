import type { Page } from '@playwright/test';
import { expect, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { deleteRowCancelThenConfirm, dialog, rowOf, rows, searchList } from './list-page.ts';
import { columnOf, readDownloadedXlsx } from './xlsx.ts';

const URL = '/task/blacklist';

const searchByPhone = (page: Page, phone: string) => searchList(page, 'blacklist', '号码', phone);

/** Numbers no other test (or earlier run) uses: 166 + 8 random digits, consecutive from there. */
function uniquePhones(count: number): string[] {
  const start = 16_600_000_000 + Math.floor(Math.random() * 90_000_000);
  return Array.from({ length: count }, (_, i) => String(start + i * 11));
}

/** Numbers put on the caller's own list through the API (faster than the dialog). */
async function addThroughApi(page: Page, phones: string[]) {
  const answer = await page.request.post('/sync/saveBlacklist', { headers: { token: await tokenOf(page) }, data: { phones: phones.join('\n') } });
  expect((await answer.json()).success).toBe(true);
}

test.describe('黑名单', () => {
  test('add through the dialog: messages, one or many numbers, duplicates', async ({ user1Page: page }) => {
    const [a, b] = uniquePhones(2);
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增黑名单号码');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(add.getByText('请输入号码')).toBeVisible();

    await add.getByLabel('号码').fill(`${a}\nabc`);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '以下号码格式不正确：abc')).toBeVisible();
    await expect(add).toBeVisible();

    await add.getByLabel('号码').fill(`+86 ${a}\n${b}, ${a}`);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '保存成功！新增2个号码，重复1个')).toBeVisible();
    await expect(add).toBeHidden();

    await searchByPhone(page, a);
    await expect(rows(page)).toHaveCount(1);
    await expect(rowOf(page, a)).toContainText('user1');
    await expect(rowOf(page, a)).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);

    // an ordinary user keeps one company's list: no company column, no delete
    await expect(page.locator('.ant-table-thead')).not.toContainText('所属公司');
    await expect(page.getByRole('button', { name: '删除' })).toHaveCount(0);

    await page.getByRole('button', { name: '新增' }).click();
    await add.getByLabel('号码').fill(b);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '保存成功！新增0个号码，重复1个')).toBeVisible();
  });

  test('upload a .txt file and see what was added, repeated and refused', async ({ user1Page: page }) => {
    const [old, x, y] = uniquePhones(3);
    await addThroughApi(page, [old]);
    await page.goto(URL);
    await page.getByRole('button', { name: '上传号码' }).click();
    const upload = dialog(page, '上传黑名单号码');
    const input = upload.locator('input[type=file]');
    await input.setInputFiles({ name: 'numbers.csv', mimeType: 'text/csv', buffer: Buffer.from(`${x}\n`) });
    await expect(toast(page, '请上传.txt格式的文件')).toBeVisible();

    await input.setInputFiles({ name: 'numbers.txt', mimeType: 'text/plain', buffer: Buffer.from([x, `+86${y}`, old, 'abc', x].join('\r\n')) });
    await expect(toast(page, '数据上传成功！新增2个号码，重复2个，无效1个')).toBeVisible();
    const result = upload.locator('.blacklist-upload-result');
    await expect(result.locator('td')).toHaveText(['2', '2', '1', '4: abc']);
    await upload.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
    await expect(upload).toBeHidden();

    await searchByPhone(page, y);
    await expect(rows(page)).toHaveCount(1);
  });

  test('an administrator deletes: cancel keeps the number, confirm removes it', async ({ adminPage: page }) => {
    const [phone] = uniquePhones(1);
    await addThroughApi(page, [phone]);
    await page.goto(URL);
    await searchByPhone(page, phone);
    const row = rowOf(page, phone);
    await deleteRowCancelThenConfirm(page, row, { confirm: '移出黑名单', deleted: '已删除1个号码!' });
    await expect(rows(page)).toHaveCount(0);
  });

  test('export downloads the filtered list', async ({ adminPage: page }) => {
    const phones = uniquePhones(2);
    await addThroughApi(page, phones);
    await page.goto(URL);
    await searchByPhone(page, phones[0]!.slice(0, 9));
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: '导出' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe('黑名单.xlsx');
    // the file holds the list as filtered: the number added here, and only numbers the filter finds
    const exported = columnOf(await readDownloadedXlsx(file), '号码');
    expect(exported).toContain(phones[0]);
    expect(exported.filter((phone) => !phone.includes(phones[0]!.slice(0, 9)))).toEqual([]);
  });

  test('a listed number is skipped when numbers are uploaded into a task', async ({ user1Page: page }) => {
    const [listed, free] = uniquePhones(2);
    await addThroughApi(page, [listed]);
    const taskName = uniqueName('e2e_bl_task');
    const saved = await page.request.post('/sync/saveTaskInfo', { headers: { token: await tokenOf(page) }, data: { taskName, showType: 1, content: '您好' } });
    expect((await saved.json()).success).toBe(true);

    await page.goto('/task/index');
    await searchList(page, 'task', '任务名称', taskName);
    await rowOf(page, taskName).getByRole('button', { name: '上传号码' }).click();
    const upload = dialog(page, '上传号码');
    await upload.locator('input[type=file]').setInputFiles({ name: 'numbers.txt', mimeType: 'text/plain', buffer: Buffer.from(`${listed}\n${free}\n`) });
    await expect(toast(page, '数据上传成功！')).toBeVisible();
    const result = upload.locator('.task-upload-result');
    // 有效号码 1, 重复号码 0, 无效号码 0, 黑名单号码 1
    await expect(result.locator('td').nth(0)).toHaveText('1');
    await expect(result.locator('td').nth(3)).toHaveText('1');
  });
});
