import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { DeliveryState, TaskNumberState, TaskStatus } from '@huiyun/contract';
import { startTestApp, type TestApp } from '../../server/src/test/harness.ts';
import { insertAuthCode, insertSendingTask, phoneNumbers } from '../../server/src/test/devices.ts';
import { signBody, startFakePhones, type FakePhone, type FakePhones } from '../fake-phone/index.ts';
import { startBridge, type Bridge } from './bridge.ts';
import { machineCodeOf, type Timing } from './device-loop.ts';
import type { PhoneSeat } from './phones-file.ts';
import { seededRandom as seeded } from '../lib/seeded-random.ts';

// The bridge between the fake SMSGate phones and the real server (SQLite, or PostgreSQL in the
// server-postgres project), over loopback HTTP. The fakes' books say what each phone handed to Android;
// the server's rows say what it counted: the two must agree, with no number sent twice and none lost.

const LEASE_SECONDS = 6;
const MAX_ATTEMPTS = 3;
/** The bridge's beats, shortened for tests; the task's interval is not waited (intervalScale 0) unless a test says so. */
const FAST: Partial<Timing> = {
  pollMs: 30, deliveryPollMs: 30, healthMs: 100, heartbeatMs: 500, tickMs: 20, intervalScale: 0, waitFloorMs: 50, maxWaitMs: 200, inboxMs: 100,
  retry: { firstDelayMs: 20, maxDelayMs: 200 },
};

const CONTENT = '您好，这是一条测试短信，回T退订';

let t: TestApp;
let server: string;
let ownerId: number;
const cleanup: (() => Promise<unknown> | void)[] = [];

beforeAll(async () => {
  t = await startTestApp({ DEVICE_LEASE_SECONDS: String(LEASE_SECONDS), DEVICE_MAX_ATTEMPTS: String(MAX_ATTEMPTS) });
  server = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ownerId = await t.createUser({ userName: 'phone_owner' });
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
afterAll(async () => t?.close());

const stateDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'phone-bridge-'));
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

async function fakes(options: Parameters<typeof startFakePhones>[0]): Promise<FakePhones> {
  const started = await startFakePhones(options);
  cleanup.push(() => started.stop());
  return started;
}

/** One code per phone; answers the seats and the devices' machineCodes (known before activation: the task lists them). */
async function seatsFor(phones: FakePhone[]): Promise<{ seats: PhoneSeat[]; machineCodes: string[] }> {
  const seats: PhoneSeat[] = [];
  for (const [i, phone] of phones.entries()) {
    seats.push({ code: await insertAuthCode(t, ownerId), url: phone.url, user: phone.user, password: phone.password, sim: 1, name: `测试手机${i + 1}` });
  }
  return { seats, machineCodes: phones.map((p) => machineCodeOf(p.deviceId, 1)) };
}

async function bridge(options: Omit<Parameters<typeof startBridge>[0], 'server' | 'log'>): Promise<Bridge> {
  const started = await startBridge({ server, log: () => undefined, ...options });
  cleanup.push(async () => {
    started.stop();
    await started.done;
  });
  return started;
}

/** Waits until the condition holds (the test's timeout bounds it). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const numberRows = (taskId: number) =>
  t.ctx.db.selectFrom('sync_task_number').select(['phone', 'state', 'attempts', 'deliveryState']).where('taskId', '=', taskId).execute();
const taskRow = (taskId: number) =>
  t.ctx.db.selectFrom('sync_task').select(['taskStatus', 'totalSendNum', 'failNum', 'deliveredNum', 'undeliveredNum']).where('taskId', '=', taskId).executeTakeFirstOrThrow();

/** The task is completed and every sent number has its delivery outcome. */
async function untilSettled(taskId: number): Promise<void> {
  await until(async () => (await taskRow(taskId)).taskStatus === TaskStatus.completed);
  await until(async () => (await numberRows(taskId)).every((r) => r.state !== TaskNumberState.sent || r.deliveryState !== null));
}

/** What the phones' books say happened to each number: the sends that left the phone, and the failed attempts. */
function booksByNumber(phones: FakePhone[]) {
  const byNumber = new Map<string, { sent: number; failedSends: number; delivered: number; undelivered: number }>();
  for (const phone of phones) {
    for (const s of phone.books.sends) {
      const key = s.recipient.replace(/^\+86/, '');
      const entry = byNumber.get(key) ?? { sent: 0, failedSends: 0, delivered: 0, undelivered: 0 };
      if (s.state === 'Failed' && !s.error?.startsWith('Delivery result')) entry.failedSends += 1;
      else {
        entry.sent += 1;
        if (s.state === 'Delivered') entry.delivered += 1;
        if (s.state === 'Failed') entry.undelivered += 1;
      }
      byNumber.set(key, entry);
    }
  }
  return byNumber;
}

/** The books and the server agree: each number left a phone at most once, and the server's counts equal the books. */
async function expectServerEqualsBooks(taskId: number, phones: FakePhone[], numbers: string[]) {
  const books = booksByNumber(phones);
  const rows = await numberRows(taskId);
  expect(rows).toHaveLength(numbers.length);
  for (const row of rows) {
    const book = books.get(String(row.phone)) ?? { sent: 0, failedSends: 0, delivered: 0, undelivered: 0 };
    expect(book.sent, `${row.phone} left a phone ${book.sent} times`).toBeLessThanOrEqual(1);
    if (row.state === TaskNumberState.sent) {
      expect(book.sent, String(row.phone)).toBe(1);
      expect(row.deliveryState, String(row.phone)).toBe(book.delivered ? DeliveryState.delivered : DeliveryState.undelivered);
    } else {
      expect(row.state, String(row.phone)).toBe(TaskNumberState.failed);
      expect([book.sent, book.failedSends, row.attempts], String(row.phone)).toEqual([0, MAX_ATTEMPTS, MAX_ATTEMPTS]);
    }
  }
  const total = (key: 'sent' | 'failedSends' | 'delivered' | 'undelivered') => [...books.values()].reduce((a, b) => a + b[key], 0);
  const task = await taskRow(taskId);
  expect(task).toMatchObject({
    taskStatus: TaskStatus.completed, totalSendNum: total('sent'), deliveredNum: total('delivered'), undeliveredNum: total('undelivered'),
    failNum: rows.filter((r) => r.state === TaskNumberState.failed).length,
  });
}

it('two phones send a task: every number leaves a phone once, the server counts what the books say, a 退订 reply blacklists', { timeout: 60_000 }, async () => {
  const { phones } = await fakes({ phones: 2, failRate: 0.05, undeliveredRate: 0.1, random: seeded(11) });
  const { seats, machineCodes } = await seatsFor(phones);
  const numbers = phoneNumbers(80, 1000);
  const taskId = await insertSendingTask(t, ownerId, machineCodes, numbers, {
    batchSendNum: 5, batchSendMaxNum: 12, singleSendNumDay: 10_000, intervalSeconds: 3, content: CONTENT,
  });
  // Both phones hold what they are given until each has a batch, so neither can take the whole task alone.
  for (const phone of phones) phone.hold();
  const running = await bridge({ phones: seats, stateDir: stateDir(), timing: FAST });
  await until(() => phones.every((p) => p.store.list({}).length > 0));
  for (const phone of phones) phone.release();

  await untilSettled(taskId);
  await expectServerEqualsBooks(taskId, phones, numbers);
  expect(phones.every((p) => p.books.sends.length > 0)).toBe(true);
  expect(phones.every((p) => p.settings.messages.processing_order === 'FIFO')).toBe(true);
  const devices = await t.ctx.db.selectFrom('sync_auth_code').select(['machineCode', 'capabilities']).where('machineCode', 'in', machineCodes).execute();
  expect(devices.map((d) => d.capabilities)).toEqual(['text', 'text']);

  // A reply read from the phone's inbox (no webhooks), on the phone that sent to the number (a reply comes
  // back to the SIM that sent): kept, linked to the task, and 退订 puts the number on the company's list.
  const replier = String((await numberRows(taskId)).find((r) => r.state === TaskNumberState.sent)!.phone);
  const sender = phones.findIndex((p) => p.books.sends.some((s) => s.recipient.endsWith(replier)));
  phones[sender].receive(`+86${replier}`, 'TD');
  await until(async () => (await t.ctx.db.selectFrom('sync_reply').select('id').where('phone', '=', replier).execute()).length === 1);
  const reply = await t.ctx.db.selectFrom('sync_reply').select(['content', 'unsubscribed', 'taskId', 'machineCode']).where('phone', '=', replier).executeTakeFirstOrThrow();
  expect(reply).toEqual({ content: 'TD', unsubscribed: 1, taskId, machineCode: machineCodes[sender] });
  expect(await t.ctx.db.selectFrom('sync_blacklist').select('phone').where('phone', '=', Number(replier)).execute()).toHaveLength(1);
  expect(running.stats.reduce((a, s) => a + s.replies, 0)).toBe(1);
});

it('a bridge SIGKILLed mid-batch and started again sends no number twice and loses none', { timeout: 90_000 }, async () => {
  const { phones } = await fakes({ phones: 1 });
  const { seats, machineCodes } = await seatsFor(phones);
  const numbers = phoneNumbers(10, 2000);
  // One batch of all ten, one second apart, so the kill lands in its middle.
  const taskId = await insertSendingTask(t, ownerId, machineCodes, numbers, { batchSendNum: 10, batchSendMaxNum: 10, singleSendNumDay: 10_000, intervalSeconds: 1, content: CONTENT });
  const dir = stateDir();
  const [seat] = seats;
  const args = ['tools/phone-bridge/cli.ts', '--server', server, '--code', seat.code, '--phone', seat.url, '--user', seat.user, '--password', seat.password, '--state-dir', dir];

  const first = startChild(args);
  await until(() => phones[0].books.sends.length >= 4);
  first.kill('SIGKILL');
  await exited(first);
  const afterKill = phones[0].books.sends.length;
  expect(afterKill).toBeLessThan(numbers.length);
  // Started again once the lease has ended, so its first pull gets back the numbers the phone never took
  // (within the lease the server would answer noPending and the bridge would wait its 30 s).
  await until(() => leaseOver(taskId));

  const second = startChild(args);
  await until(async () => (await taskRow(taskId)).taskStatus === TaskStatus.completed);
  second.kill('SIGINT');
  await exited(second);

  const books = booksByNumber(phones);
  expect([...books.keys()].sort()).toEqual([...numbers].sort());
  expect([...books.values()].every((b) => b.sent === 1)).toBe(true);
  expect(await taskRow(taskId)).toMatchObject({ taskStatus: TaskStatus.completed, totalSendNum: numbers.length, failNum: 0 });
});

it('a phone that stops answering goes silent; its lease ends and the other phone sends the rest; back, it cancels what it held', { timeout: 60_000 }, async () => {
  const { phones } = await fakes({ phones: 2 });
  const [quiet, busy] = phones;
  const { seats, machineCodes } = await seatsFor(phones);
  const numbers = phoneNumbers(40, 3000);
  const taskId = await insertSendingTask(t, ownerId, machineCodes, numbers, { batchSendNum: 10, batchSendMaxNum: 10, singleSendNumDay: 10_000, intervalSeconds: 0, content: CONTENT });
  // The quiet phone takes its messages but sends none, then stops answering. The busy one holds its first
  // batch until then, so it cannot take the whole task before the quiet one has a batch.
  quiet.hold();
  busy.hold();
  await bridge({ phones: seats, stateDir: stateDir(), timing: FAST });
  await until(() => quiet.store.list({}).length > 0 && busy.store.list({}).length > 0);
  await quiet.goOffline('refuse');
  busy.release();
  const held = quiet.store.list({}).map((m) => m.id);

  await until(async () => (await taskRow(taskId)).taskStatus === TaskStatus.completed);
  const quietDevice = await t.ctx.db.selectFrom('sync_auth_code').select('deviceState').where('machineCode', '=', machineCodes[0]).executeTakeFirstOrThrow();
  expect(quietDevice.deviceState).toBe('手机无响应');
  const books = booksByNumber(phones);
  expect(books.size).toBe(numbers.length);
  expect([...books.values()].every((b) => b.sent === 1)).toBe(true);
  expect(quiet.books.sends).toHaveLength(0);

  // Back on line, the bridge cancels what the phone still holds from the ended lease: released, it sends none of it.
  await quiet.goOnline();
  await until(() => held.every((id) => quiet.store.get(id)?.recipients.every((r) => r.state === 'Cancelled')));
  quiet.release();
  await quiet.whenIdle();
  expect(quiet.books.sends).toHaveLength(0);
});

it('webhooks: a forged signature, a stale timestamp and a replay change nothing; real events settle the task', { timeout: 60_000 }, async () => {
  const { phones } = await fakes({ phones: 1, duplicateRate: 0.3, reorderRate: 0.3, undeliveredRate: 0.2, random: seeded(5), retryBaseMs: 50 });
  const [phone] = phones;
  const { seats, machineCodes } = await seatsFor(phones);
  const numbers = phoneNumbers(6, 4000);
  const taskId = await insertSendingTask(t, ownerId, machineCodes, numbers, { batchSendNum: 6, batchSendMaxNum: 6, singleSendNumDay: 10_000, intervalSeconds: 0, content: CONTENT });
  phone.hold();
  // Polling only every 30 s here: what settles the numbers below is the webhooks.
  const running = await bridge({
    phones: seats, stateDir: stateDir(), timing: { ...FAST, pollMs: 3000, deliveryPollMs: 3000 },
    webhook: { url: 'http://127.0.0.1:0/hooks', host: '127.0.0.1', port: 0 },
  });
  await until(() => phone.store.list({}).length === numbers.length);
  const [m1, m2, m3] = phone.store.list({}).map((m) => m.id);
  const hook = `${running.webhookUrl}/${machineCodes[0]}`;
  const post = async (event: string, messageId: string, key: string, seconds: number, id = `ev-${event}-${messageId}`) => {
    const raw = JSON.stringify({ id, webhookId: 'w', event, deviceId: phone.deviceId, payload: { messageId, recipient: '+86' + numbers[0], reason: 'Send result: RESULT_ERROR_GENERIC_FAILURE' } });
    const timestamp = String(seconds);
    const answer = await fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signBody(key, raw, timestamp) }, body: raw });
    return answer.status;
  };
  const now = Math.floor(Date.now() / 1000);
  expect(await post('sms:failed', m1, 'not-the-key', now)).toBe(401);
  expect(await post('sms:failed', m2, phone.signingKey, now - 600)).toBe(400);
  expect(await post('sms:sent', m3, phone.signingKey, now)).toBe(200);
  expect(await post('sms:sent', m3, phone.signingKey, now)).toBe(200);
  expect(running.receiver!.counts).toMatchObject({ forged: 1, stale: 1, replayed: 1 });

  // The genuine event reported its number sent; the forged and stale ones failed nothing.
  const idOf = (msgId: string) => Number(/^hy(\d+)a/.exec(msgId)![1]);
  await until(async () => (await t.ctx.db.selectFrom('sync_task_number').select('state').where('id', '=', idOf(m3)).executeTakeFirstOrThrow()).state === TaskNumberState.sent);
  const others = await t.ctx.db.selectFrom('sync_task_number').select(['state', 'attempts']).where('id', 'in', [idOf(m1), idOf(m2)]).execute();
  // Still out with the batch (a batch's fresh numbers stay pending on their rows): neither failed nor sent, no attempt used.
  expect(others.map((r) => [r.state === TaskNumberState.sent || r.state === TaskNumberState.failed, r.attempts])).toEqual([[false, 0], [false, 0]]);

  phone.release();
  await untilSettled(taskId);
  await expectServerEqualsBooks(taskId, phones, numbers);
  expect(running.receiver!.counts.accepted).toBeGreaterThan(numbers.length);
  // The phone's own repeats (duplicates, one delivered event per part) were dropped or counted once.
  expect(phone.books.webhooks.duplicates).toBeGreaterThan(0);

  phone.receive(`+86${numbers[0]}`, '退订');
  await until(async () => (await t.ctx.db.selectFrom('sync_reply').select('id').where('phone', '=', numbers[0]).execute()).length === 1);
});

it('Android\'s sending limit: the numbers fail with its reason, the device stops pulling and says 限额已满, the log says how to raise it', { timeout: 30_000 }, async () => {
  const { phones } = await fakes({ phones: 1 });
  const [phone] = phones;
  phone.setLimitExceeded(true);
  const { seats, machineCodes } = await seatsFor(phones);
  const taskId = await insertSendingTask(t, ownerId, machineCodes, phoneNumbers(20, 5000), { batchSendNum: 5, batchSendMaxNum: 5, singleSendNumDay: 10_000, intervalSeconds: 0, content: CONTENT });
  const lines: string[] = [];
  const running = await startBridge({ server, phones: seats, stateDir: stateDir(), timing: FAST, log: (line) => lines.push(line) });
  cleanup.push(async () => {
    running.stop();
    await running.done;
  });

  await until(async () => (await t.ctx.db.selectFrom('sync_auth_code').select('deviceState').where('machineCode', '=', machineCodes[0]).executeTakeFirst())?.deviceState === '限额已满');
  await until(() => running.stats[0].inPhone === 0 && running.stats[0].failed > 0);
  expect(running.stats[0]).toMatchObject({ phase: 'limited', batches: 1 });
  const failed = await t.ctx.db.selectFrom('sync_task_number').select(['failReason', 'attempts']).where('taskId', '=', taskId).where('attempts', '>', 0).execute();
  expect(failed.length).toBeGreaterThan(0);
  expect(failed.every((r) => r.failReason?.includes('RESULT_ERROR_LIMIT_EXCEEDED'))).toBe(true);
  expect(lines.some((line) => line.includes('sms_outgoing_check_max_count'))).toBe(true);
});

function startChild(args: string[]): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: path.resolve(import.meta.dirname, '../..'), stdio: 'ignore' });
  cleanup.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Every batch of the task has reached its lease's end (a batch's fresh numbers are leased through the batch, not their rows). */
async function leaseOver(taskId: number): Promise<boolean> {
  const batches = await t.ctx.db.selectFrom('sync_batch').select('leaseUntil').where('taskId', '=', taskId).execute();
  return batches.length > 0 && batches.every((b) => b.leaseUntil <= t.ctx.now());
}

