import type { Locator, Page } from '@playwright/test';
import { answerConfirm, confirmDialog, expect, test, toast, tokenOf, uniqueName } from './fixtures.ts';
import { clickRowAction, dialog, rowActionNames, rowOf, rows, searchList } from './list-page.ts';
import { TestDevice } from './device.ts';
import { SEND_WINDOW_END, SEND_WINDOW_START, typeSendTime } from './task-dialog.ts';

const URL = '/task/index';
// A 1×1 transparent PNG: what /upload/files takes as a task image.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');


const searchByName = (page: Page, taskName: string) => searchList(page, 'task', '任务名称', taskName);

/** Creates tasks through the API with the page's own session (faster than the dialog). */
async function createTasks(page: Page, names: string[], extra: Record<string, unknown> = {}): Promise<number[]> {
  const token = await tokenOf(page);
  const ids: number[] = [];
  for (const taskName of names) {
    const answer = await page.request.post('/sync/saveTaskInfo', { headers: { token }, data: { taskName, showType: 1, content: '您好', ...extra } });
    const body = await answer.json();
    expect(body.success).toBe(true);
    ids.push(body.data.taskId);
  }
  return ids;
}

async function pauseThroughApi(page: Page, taskId: number) {
  const answer = await page.request.post('/sync/pauseStartTaskInfo', { headers: { token: await tokenOf(page) }, data: { taskId, taskStatus: 1 } });
  expect((await answer.json()).success).toBe(true);
}

async function chooseShowType(page: Page, form: Locator, label: string) {
  await form.getByLabel('内容类型').click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${label}"]`).click();
}

test.describe('任务列表', () => {
  test('the add dialog starts with the SPEC defaults and shows the validation messages', async ({ adminPage: page }) => {
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增任务');
    await expect(add.getByLabel('单机每日发送数量')).toHaveValue('300');
    await expect(add.getByLabel('每批次最低数量')).toHaveValue('10');
    await expect(add.getByLabel('每批次最高数量')).toHaveValue('10');
    await expect(add.getByLabel('发送间隔(秒)')).toHaveValue('1');
    await expect(add.getByLabel('二维码地址')).toHaveValue('http://');
    await expect(add.locator('.ant-form-item').filter({ hasText: '内容类型' })).toContainText('文本');
    await expect(add.getByRole('radio', { name: '否' })).toBeChecked();
    await expect(add.getByRole('radio', { name: '前缀' })).toBeChecked();

    await add.getByRole('button', { name: '保存' }).click();
    await expect(add.getByText('请输入任务名称')).toBeVisible();
    await expect(add.getByText('请输入发送内容')).toBeVisible();
    await add.getByLabel('每批次最低数量').fill('20');
    await add.getByLabel('每批次最高数量').fill('10');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(add.getByText('每批次最低数量不能大于最高数量！')).toBeVisible();

    // the fields follow the content type (SPEC §4)
    await chooseShowType(page, add, '图片');
    await expect(add.getByLabel('内容', { exact: true })).toHaveCount(0);
    await expect(add.getByRole('button', { name: '上传图片' })).toBeVisible();
    await chooseShowType(page, add, '名片');
    await expect(add.getByRole('button', { name: '上传图片' })).toHaveCount(0);
    await expect(add.getByLabel('内容', { exact: true })).toHaveCount(0);
    await add.getByRole('button', { name: '取消' }).click();
    await expect(add).toBeHidden();
  });

  test('发送时段 starts at 08:00–21:00 and takes a window across midnight; the dialog warns when no chosen device can send the type', async ({ adminPage: page }) => {
    // A text-only device of the administrator's (an SMS phone), activated over the device protocol.
    const code = uniqueName('e2e_cap').toUpperCase().replace(/_/g, '-');
    const saved = await page.request.post('/sync/saveAuthCode', { headers: { token: await tokenOf(page) }, data: { authCode: code, authUserId: 1, dueNum: 100, dueDateNum: 30 } });
    expect((await saved.json()).success).toBe(true);
    const machineName = uniqueName('短信手机');
    const phone = await TestDevice.activate(code, uniqueName('phone'), machineName, ['text']);

    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增任务');
    await expect(add.getByLabel(SEND_WINDOW_START)).toHaveValue('08:00');
    await expect(add.getByLabel(SEND_WINDOW_END)).toHaveValue('21:00');

    const warning = add.getByText('所选设备都不能发送此类型的消息（短信手机只能发送文字）');
    await add.getByLabel('发送设备').click();
    await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${machineName} (${phone.machineCode})"]`).click();
    await add.getByLabel('任务名称').click(); // closes the device choice
    await expect(warning).toHaveCount(0); // a text task: the phone can send it
    await chooseShowType(page, add, '图片');
    await expect(warning).toBeVisible();
    await chooseShowType(page, add, '文本');
    await expect(warning).toHaveCount(0);

    const taskName = uniqueName('e2e_window');
    await add.getByLabel('任务名称').fill(taskName);
    await add.getByLabel('内容', { exact: true }).fill('晚间提醒');
    await typeSendTime(add, SEND_WINDOW_START, '21:00');
    await expect(add.getByLabel(SEND_WINDOW_START)).toHaveValue('21:00');
    await add.getByRole('button', { name: '保存' }).click();
    await expect(add.getByText('发送时段的开始时间和结束时间不能相同')).toBeVisible();
    await typeSendTime(add, SEND_WINDOW_START, '22:00');
    await typeSendTime(add, SEND_WINDOW_END, '06:00');
    await expect(add.getByText('发送时段的开始时间和结束时间不能相同')).toHaveCount(0);
    await add.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '任务保存成功！').first()).toBeVisible();
    await expect(add).toBeHidden();

    await searchByName(page, taskName);
    await clickRowAction(page, rowOf(page, taskName), '编辑');
    const edit = dialog(page, '编辑任务');
    await expect(edit.getByLabel(SEND_WINDOW_START)).toHaveValue('22:00');
    await expect(edit.getByLabel(SEND_WINDOW_END)).toHaveValue('06:00');
    await edit.getByRole('button', { name: '取消' }).click();
  });

  test('creates a task of each content type', async ({ adminPage: page }) => {
    const prefix = uniqueName('e2e_show');
    // the type column is secondary: shown on a wide screen
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(URL);
    const types: { label: string; content?: string; media?: 'image' | 'file' }[] = [
      { label: '文本', content: '文本内容' },
      { label: '图片', media: 'image' },
      { label: '文本+图片', content: '图文内容', media: 'image' },
      { label: '文件', content: '文件说明', media: 'file' },
      { label: '名片' },
      { label: '日程' },
    ];
    for (const [i, type] of types.entries()) {
      await page.getByRole('button', { name: '新增' }).click();
      const add = dialog(page, '新增任务');
      await add.getByLabel('任务名称').fill(`${prefix}_${i + 1}`);
      await chooseShowType(page, add, type.label);
      if (type.content) {
        // Choosing a type clears the fields it hides; on a busy machine that can land after the fill.
        const content = add.getByLabel('内容', { exact: true });
        await expect(async () => {
          await content.fill(type.content!);
          await expect(content).toHaveValue(type.content!, { timeout: 1000 });
        }).toPass({ timeout: 10_000 });
      }
      if (type.media === 'image') {
        await add.locator('input[type=file]').setInputFiles({ name: 'pic.png', mimeType: 'image/png', buffer: PNG });
        await expect(add.locator('img[alt="pic.png"]')).toBeVisible();
      }
      if (type.media === 'file') {
        await add.locator('input[type=file]').setInputFiles({ name: 'card.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
        await expect(add.getByRole('link', { name: 'card.pdf' })).toBeVisible();
      }
      await add.getByRole('button', { name: '保存' }).click();
      await expect(toast(page, '任务保存成功！').first()).toBeVisible();
      await expect(add).toBeHidden();
    }
    await searchByName(page, prefix);
    await expect(rows(page)).toHaveCount(6);
    for (const [i, type] of types.entries()) {
      const row = rowOf(page, `${prefix}_${i + 1}`);
      await expect(row.locator('td').nth(3)).toHaveText(type.label);
      await expect(row).toContainText('运行中');
      await expect(row).toContainText('0 (0 | 0 | 0 | 0)');
      await expect(row).toContainText('10-10');
      await expect(row).toContainText('admin');
    }
    await expect(rowOf(page, `${prefix}_1`)).toContainText('文本内容');
    await expect(rowOf(page, `${prefix}_4`)).toContainText('文件说明');
  });

  test('searches and pages 40 to a page', async ({ adminPage: page }) => {
    const prefix = uniqueName('e2e_page');
    await createTasks(page, Array.from({ length: 41 }, (_, i) => `${prefix}_${String(i).padStart(2, '0')}`));
    await page.goto(URL);
    await searchByName(page, prefix);
    await expect(page.getByText('共 41 条')).toBeVisible();
    await expect(rows(page)).toHaveCount(40);
    await expect(rows(page).first()).toContainText(`${prefix}_40`); // newest first
    await page.locator('.ant-pagination-item-2').click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(`${prefix}_00`);
  });

  test('edits a task', async ({ adminPage: page }) => {
    const taskName = uniqueName('e2e_edit');
    await createTasks(page, [taskName]);
    // content and batch size are secondary columns: shown on a wide screen
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(URL);
    await searchByName(page, taskName);
    await clickRowAction(page, rowOf(page, taskName), '编辑');
    const edit = dialog(page, '编辑任务');
    await expect(edit.getByLabel('任务名称')).toHaveValue(taskName);
    await expect(edit.getByLabel('内容', { exact: true })).toHaveValue('您好');
    await edit.getByLabel('内容', { exact: true }).fill('改过的内容');
    await edit.getByLabel('每批次最高数量').fill('25');
    await edit.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '任务保存成功！')).toBeVisible();
    await expect(rowOf(page, taskName)).toContainText('改过的内容');
    await expect(rowOf(page, taskName)).toContainText('10-25');
  });

  test('uploads a numbers file and shows the carrier split', async ({ adminPage: page }) => {
    const taskName = uniqueName('e2e_upload');
    await createTasks(page, [taskName]);
    await page.goto(URL);
    await searchByName(page, taskName);
    await clickRowAction(page, rowOf(page, taskName), '上传号码');
    const upload = dialog(page, '上传号码');
    const input = upload.locator('input[type=file]');

    await input.setInputFiles({ name: 'numbers.csv', mimeType: 'text/csv', buffer: Buffer.from('13800138000\n') });
    await expect(toast(page, '请上传.txt格式的文件')).toBeVisible();

    const lines = ['13800138000', '+8613000000000', '13300000000', '19200000000', 'abc', '13800138000', ''];
    await input.setInputFiles({ name: 'numbers.txt', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\r\n')) });
    await expect(toast(page, '数据上传成功！')).toBeVisible();
    const result = upload.locator('.task-upload-result');
    await expect(result).toContainText('有效号码');
    await expect(result.locator('td').first()).toHaveText('4');
    await expect(result).toContainText('移动 1 | 联通 1 | 电信 1 | 其他 1');
    await expect(result).toContainText('abc');
    await upload.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
    await expect(upload).toBeHidden();
    await expect(rowOf(page, taskName)).toContainText('4 (1 | 1 | 1 | 1)');
  });

  test('pauses and starts with confirmation', async ({ adminPage: page }) => {
    const taskName = uniqueName('e2e_pause');
    await createTasks(page, [taskName]);
    await page.goto(URL);
    await searchByName(page, taskName);
    const row = rowOf(page, taskName);
    await expect(row).toContainText('运行中');

    await clickRowAction(page, row, '暂停');
    await expect(confirmDialog(page)).toContainText(taskName);
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消')).toBeVisible();
    await expect(row).toContainText('运行中');

    await clickRowAction(page, row, '暂停');
    await answerConfirm(page, '确定');
    await expect(toast(page, '操作成功!')).toBeVisible();
    await expect(row).toContainText('已暂停');

    await clickRowAction(page, row, '启动');
    await answerConfirm(page, '确定');
    await expect(row).toContainText('运行中');
    await expect(row.getByRole('button', { name: '暂停' })).toBeVisible();
  });

  test('deletes with confirmation, refusing a running task', async ({ adminPage: page }) => {
    const taskName = uniqueName('e2e_delete');
    const [taskId] = await createTasks(page, [taskName]);
    await page.goto(URL);
    await searchByName(page, taskName);
    const row = rowOf(page, taskName);

    await clickRowAction(page, row, '删除');
    await answerConfirm(page, '确定');
    await expect(toast(page, '请先暂停任务再删除')).toBeVisible();
    await expect(rows(page)).toHaveCount(1);

    await pauseThroughApi(page, taskId);
    await searchByName(page, taskName);
    await expect(row).toContainText('已暂停');
    await clickRowAction(page, row, '删除');
    await answerConfirm(page, '取消');
    await expect(toast(page, '已取消删除')).toBeVisible();
    await expect(rows(page)).toHaveCount(1);

    await clickRowAction(page, row, '删除');
    await answerConfirm(page, '确定');
    await expect(toast(page, '任务已删除!')).toBeVisible();
    await expect(rows(page)).toHaveCount(0);
  });

  test('exports only with exactly one task selected', async ({ adminPage: page }) => {
    const prefix = uniqueName('e2e_export');
    await createTasks(page, [`${prefix}_a`, `${prefix}_b`]);
    await page.goto(URL);
    await searchByName(page, prefix);
    await expect(rows(page)).toHaveCount(2);
    const exportButton = page.getByRole('button', { name: '导出' });

    await exportButton.click();
    await expect(toast(page, '请先选择一条任务！')).toBeVisible();

    await rowOf(page, `${prefix}_a`).getByRole('checkbox').check();
    await rowOf(page, `${prefix}_b`).getByRole('checkbox').check();
    await exportButton.click();
    await expect(toast(page, '目前只支持一条任务导出！')).toBeVisible();

    await rowOf(page, `${prefix}_b`).getByRole('checkbox').uncheck();
    await exportButton.click();
    const exporter = dialog(page, '导出记录');
    await expect(exporter.getByRole('radio', { name: '未发送' })).toBeChecked();
    await exporter.getByRole('radio', { name: '全部' }).check();
    const downloading = page.waitForEvent('download');
    await exporter.getByRole('button', { name: '确定' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toContain(`${prefix}_a`);
    expect(download.url()).toContain('exportType=1');
    await expect(exporter).toBeHidden();
  });

  test('generates a QR image from the form', async ({ adminPage: page }) => {
    await page.goto(URL);
    await page.getByRole('button', { name: '新增' }).click();
    const add = dialog(page, '新增任务');
    await add.getByRole('button', { name: '生成二维码' }).click();
    await expect(toast(page, '请输入正确的二维码地址')).toBeVisible();

    await add.getByLabel('二维码地址').fill('https://example.com/e2e?from=task');
    await add.getByRole('button', { name: '生成二维码' }).click();
    await expect(toast(page, '生成图片成功！请扫码确认是否正常识别！')).toBeVisible();
    const qr = page.getByRole('dialog').filter({ has: page.locator('img[alt="二维码"]') });
    const image = qr.locator('img[alt="二维码"]');
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(100);
    await qr.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
    await expect(qr).toBeHidden();
    await expect(add).toBeVisible();
  });

  test('administrators insert a test number', async ({ adminPage: page }) => {
    const taskName = uniqueName('e2e_test');
    await createTasks(page, [taskName]);
    await page.goto(URL);
    await searchByName(page, taskName);
    await clickRowAction(page, rowOf(page, taskName), '插入测试号码');
    const tester = dialog(page, '插入测试号码');
    await tester.getByRole('button', { name: '保存' }).click();
    await expect(tester.getByText('测试间隔数量必须是1到1000000之间的整数')).toBeVisible();
    await expect(tester.getByText('请输入测试号码')).toBeVisible();
    await tester.getByLabel('测试间隔数量').fill('100');
    await tester.getByLabel('测试号码').fill('12345');
    await expect(tester.getByText('请输入正确的手机号')).toBeVisible();
    await tester.getByLabel('测试号码').fill('13800138000');
    await tester.getByRole('button', { name: '保存' }).click();
    await expect(toast(page, '插入测试号码成功！')).toBeVisible();
    await expect(tester).toBeHidden();

    await clickRowAction(page, rowOf(page, taskName), '插入测试号码');
    await expect(tester.getByLabel('测试号码')).toHaveValue('13800138000');
  });

  test('ordinary users see their own tasks without the insert-test action', async ({ user1Page: page }) => {
    const taskName = uniqueName('e2e_user1');
    await createTasks(page, [taskName]);
    const token = await tokenOf(page);
    const refused = await page.request.post('/sync/saveTest', { headers: { token }, data: { taskName, testNum: 10, testPhone: '13800138000' } });
    expect((await refused.json()).success).toBe(false);

    await page.goto(URL);
    await searchByName(page, taskName);
    const row = rowOf(page, taskName);
    await expect(row).toContainText('user1');
    // four actions: 上传号码 and 暂停 in the row, 编辑 and 删除 under 更多; no 插入测试号码
    expect(await rowActionNames(page, row)).toEqual(['上传号码', '暂停', '编辑', '删除']);
    // the administrator's tasks are not in an ordinary user's list
    await searchByName(page, 'e2e_test_');
    await expect(rows(page)).toHaveCount(0);
  });
});
