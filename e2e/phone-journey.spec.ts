// Real phones end to end, with fakes of SMSGate in place of the phones (tools/fake-phone) and the phone
// bridge (tools/phone-bridge, the code behind `npm run phone`) in this process: an owner and two codes made
// in the console, two phones bridged, a task made in 新增任务 choosing both, numbers uploaded; the task ends
// 已完成 with every number handed to a phone's radio once by the fakes' books, and 任务列表's 已发送 / 送达 /
// 未送达 equal to the books. Then a phone receives 退订 (TD) from one of the numbers: the number is in 黑名单
// (来源 回复退订) and 回复记录, and a later upload to a new task skips it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startFakePhones, type FakePhones, type SendEntry } from '../tools/fake-phone/index.ts';
import { startBridge, type Bridge } from '../tools/phone-bridge/bridge.ts';
import { machineCodeOf } from '../tools/phone-bridge/device-loop.ts';
import { addCodeInConsole, createAccount } from './console-steps.ts';
import { expect, loginThroughUi, test, toast, uniqueName } from './fixtures.ts';
import { cellOf, dialog, openFromMenu, rowOf, rows, searchList } from './list-page.ts';
import { BASE_URL } from './env.ts';

const NUMBERS = 20;

/** China Mobile numbers no other run uses: 139 + 8 random digits, consecutive from there. */
function uniquePhones(count: number): string[] {
  const start = 13_900_000_000 + Math.floor(Math.random() * 99_000_000);
  return Array.from({ length: count }, (_, i) => String(start + i));
}

/** The radio took it: sent, delivered, or reported undelivered by the carrier after it was sent. */
const tookIt = (e: SendEntry) => e.state === 'Sent' || e.state === 'Delivered' || (e.state === 'Failed' && (e.error ?? '').startsWith('Delivery result'));

/**
 * The books of both phones, per number: how many times a radio took it, and whether any attempt came after
 * that (a send the radio refused is retried by the server, so refused attempts before the one send are fine).
 */
function booksPerNumber(fleet: FakePhones) {
  const entries = fleet.phones.flatMap((p) => p.books.sends).sort((a, b) => a.at - b.at);
  const per = new Map<string, { sent: number; afterSent: number; delivered: boolean; undelivered: boolean }>();
  for (const e of entries) {
    let n = per.get(e.recipient);
    if (!n) per.set(e.recipient, (n = { sent: 0, afterSent: 0, delivered: false, undelivered: false }));
    if (n.sent > 0) n.afterSent += 1;
    if (tookIt(e)) n.sent += 1;
    if (e.state === 'Delivered') n.delivered = true;
    if (e.state === 'Failed' && tookIt(e)) n.undelivered = true;
  }
  return per;
}

/** 新增任务 through the dialog: name, text, the devices, and 发送时段 00:00–23:59 (open now) set in its time pickers. */
async function addTaskInConsole(page: Page, taskName: string, devices: { name: string; machineCode: string }[]) {
  await page.goto('/task/index');
  await page.getByRole('button', { name: '新增' }).click();
  const add = dialog(page, '新增任务');
  await add.getByLabel('任务名称').fill(taskName);
  await add.getByLabel('内容', { exact: true }).fill('【汇云】您好，新品到店，欢迎光临。回复TD退订');
  for (const [label, time] of [['发送时段开始时间', '00:00'], ['发送时段结束时间', '23:59']] as const) {
    const picker = add.getByLabel(label);
    // pre-filled 08:00–21:00: replaced by typing, taken when the field is left (Enter would submit the form)
    await picker.click();
    await picker.fill(time);
    await picker.press('Tab');
    await expect(picker).toHaveValue(time);
  }
  if (devices.length) {
    await add.getByLabel('发送设备').click();
    for (const d of devices) await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${d.name} (${d.machineCode})"]`).click();
    await add.getByLabel('任务名称').click(); // closes the device choice
  }
  await add.getByRole('button', { name: '保存' }).click();
  await expect(toast(page, '任务保存成功！')).toBeVisible();
  await expect(add).toBeHidden();
}

/** 上传号码 on the task's row; answers the upload result's cells (有效号码, 重复号码, 无效号码, 黑名单号码, …). */
async function uploadInConsole(page: Page, taskName: string, phones: string[]) {
  await searchList(page, 'task', '任务名称', taskName);
  await rowOf(page, taskName).getByRole('button', { name: '上传号码' }).click();
  const upload = dialog(page, '上传号码');
  await upload.locator('input[type=file]').setInputFiles({ name: 'numbers.txt', mimeType: 'text/plain', buffer: Buffer.from(phones.join('\r\n')) });
  await expect(toast(page, '数据上传成功！')).toBeVisible();
  const result = upload.locator('.task-upload-result');
  await expect(result).toBeVisible();
  return {
    result,
    close: async () => {
      await upload.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
      await expect(upload).toBeHidden();
    },
  };
}

test('two fake phones bridged send a task made in the console: books, 送达, 退订 into 黑名单 and skipped later', async ({ browser, adminPage: admin }) => {
  // Two browsers' worth of screens, two phones sending, delivery reports and a reply: slow on a shared machine.
  test.slow();
  const owner = { userName: uniqueName('phone'), password: 'Phone@12345' };
  const taskName = uniqueName('e2e_phones');
  const phones = uniquePhones(NUMBERS);
  await createAccount(admin, owner.userName, owner.password);
  const codes = [await addCodeInConsole(admin, owner.userName), await addCodeInConsole(admin, owner.userName)];

  const fleet = await startFakePhones({ phones: 2, speed: 0, failRate: 0.1, undeliveredRate: 0.2 });
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-e2e-bridge-'));
  const devices = fleet.phones.map((p, i) => ({ name: uniqueName(`短信手机${i + 1}`), machineCode: machineCodeOf(p.deviceId, 1) }));
  let bridge: Bridge | undefined;
  const context = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN', viewport: { width: 1920, height: 1080 } });
  try {
    const log: string[] = [];
    bridge = await startBridge({
      server: BASE_URL, stateDir, log: (line) => log.push(line),
      phones: fleet.phones.map((p, i) => ({ code: codes[i]!, url: p.url, user: p.user, password: p.password, sim: 1, name: devices[i]!.name })),
      // No pacing between two messages, and the phone's states and inbox read every second (polling, the default mode).
      // A wait answer (no task yet) is asked again within 2 s rather than the 30 s the server says.
      timing: { intervalScale: 0, pollMs: 1000, deliveryPollMs: 1000, inboxMs: 1000, maxWaitMs: 2000 },
    });
    const stats = bridge.stats;
    // Both devices activated (they pull, and wait: no task yet).
    await expect.poll(() => stats.map((s) => s.phase), { message: log.join('\n') }).toEqual(['waiting', 'waiting']);

    const page = await context.newPage();
    await loginThroughUi(page, owner);
    await addTaskInConsole(page, taskName, devices);
    const first = await uploadInConsole(page, taskName, phones);
    await expect(first.result).toContainText(`有效号码${NUMBERS}`);
    await first.close();

    const taskRow = rowOf(page, taskName);
    // the list refreshes itself every 5 s while a task runs
    await expect(await cellOf(page, taskRow, '状态')).toHaveText('已完成', { timeout: 240_000 });
    await fleet.whenIdle();

    // By the books: every number of the task handed to a radio once at most (a number every try of which
    // the radio refused is failed for good), never tried again after it was sent, none missing, nothing else.
    const per = booksPerNumber(fleet);
    expect([...per.keys()].sort()).toEqual([...phones].sort());
    expect([...per].filter(([, n]) => n.sent > 1 || n.afterSent > 0).map(([phone]) => phone), 'numbers sent twice').toEqual([]);
    expect(fleet.summary().pending).toBe(0);
    const sent = [...per.values()].filter((n) => n.sent === 1).length;
    const delivered = [...per.values()].filter((n) => n.delivered).length;
    const undelivered = [...per.values()].filter((n) => n.undelivered).length;
    expect(delivered + undelivered).toBe(sent);

    // 任务列表 says what the books say; delivery reports may land after 已完成 (the list stops refreshing then): 查询 again.
    await expect(async () => {
      await searchList(page, 'task', '任务名称', taskName);
      await expect(await cellOf(page, taskRow, '送达')).toHaveText(String(delivered), { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await expect(await cellOf(page, taskRow, '已发送')).toHaveText(new RegExp(`^${sent} \\(${sent} \\|`));
    await expect(await cellOf(page, taskRow, '未送达')).toHaveText(String(undelivered));

    // One of the numbers answers 退订 to the phone that texted it (the server links a reply to the task its device sent to that number).
    const [quitter, ...rest] = phones.filter((phone) => per.get(phone)!.sent === 1);
    const texted = fleet.phones.findIndex((p) => p.books.sends.some((e) => e.recipient === quitter && tookIt(e)));
    fleet.phones[texted]!.receive(`+86${quitter}`, 'TD');
    // the bridge reads the phone's inbox every second and passes the reply on
    await expect.poll(() => stats[texted]!.replies, { message: `the bridge did not pick up the reply: ${JSON.stringify(stats[texted])}\n${log.join('\n')}` }).toBe(1);
    await openFromMenu(page, '任务管理', '黑名单');
    await expect(async () => {
      await searchList(page, 'blacklist', '号码', quitter!);
      await expect(rows(page)).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await expect(await cellOf(page, rows(page).first(), '来源')).toHaveText('回复退订');
    await openFromMenu(page, '任务管理', '回复记录');
    await searchList(page, 'reply', '号码', quitter!);
    await expect(rows(page)).toHaveCount(1);
    await expect(await cellOf(page, rows(page).first(), '内容')).toHaveText('TD');
    await expect(await cellOf(page, rows(page).first(), '设备')).toHaveText(devices[texted]!.name);
    await expect(await cellOf(page, rows(page).first(), '任务')).toHaveText(taskName);
    await expect(await cellOf(page, rows(page).first(), '退订')).toHaveText('是');

    // A later upload to a new task (no device: nothing is sent) skips it.
    const laterTask = uniqueName('e2e_phones_later');
    await addTaskInConsole(page, laterTask, []);
    const later = await uploadInConsole(page, laterTask, [quitter!, ...rest.slice(0, 3)]);
    await expect(later.result).toContainText('有效号码3');
    await expect(later.result).toContainText('黑名单号码1');
    await later.close();
    await expect(await cellOf(page, rowOf(page, laterTask), '号码总数')).toHaveText(/^3 \(/);
  } finally {
    bridge?.stop();
    await bridge?.done;
    await fleet.stop();
    fs.rmSync(stateDir, { recursive: true, force: true });
    await context.close();
  }
});
