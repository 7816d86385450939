import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceWaitReason, messages, RoleId, shanghaiDay, TaskNumberState, TaskStatus } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { uploadVia } from '../../test/uploads.ts';
import { downloadUrlOf } from '../../infra/file-storage.ts';
import { activate, bearer, expectCountersMatchRows, insertAuthCode, insertSendingTask, phoneNumbers, pull, report } from './test-support.ts';

const m = messages.device;
const LEASE_MS = 60_000;

let t: TestApp;
let ownerId: number;
let otherId: number;
let ownerToken: string;
let adminToken: string;
let deviceSeq = 0;

beforeAll(async () => {
  t = await startTestApp({ DEVICE_LEASE_SECONDS: String(LEASE_MS / 1000), DEVICE_MAX_ATTEMPTS: '2' });
  ownerId = await t.createUser({ userName: 'dev_owner' });
  otherId = await t.createUser({ userName: 'dev_other' });
  await t.createUser({ userName: 'dev_admin', roleId: RoleId.companyAdmin });
  ownerToken = await t.login('dev_owner', 'User@12345');
  adminToken = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => t?.close());

/** A fresh device of the owner: its code, machineCode and token. */
async function newDevice(values: { dueNum?: number; days?: number; owner?: number } = {}) {
  const code = await insertAuthCode(t, values.owner ?? ownerId, values);
  const machineCode = `dev-${++deviceSeq}`;
  const token = await activate(t, code, machineCode, `设备${deviceSeq}`);
  return { code, machineCode, token };
}

describe('activation', () => {
  it('binds the code to the device and refuses it to any other', async () => {
    const code = await insertAuthCode(t, ownerId);
    const first = await t.call('POST', '/device/v1/activate', { body: { authCode: code.toLowerCase(), machineCode: 'act-1', machineName: '一号机' } });
    expect(first.body.success).toBe(true);
    expect(first.body.data).toMatchObject({ machineCode: 'act-1', machineName: '一号机', userName: 'dev_owner' });
    const row = await t.ctx.db.selectFrom('sync_auth_code').selectAll().where('authCode', '=', code).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ useStatus: 1, machineCode: 'act-1', machineName: '一号机' });
    expect(row.tokenHash).not.toContain(first.body.data.deviceToken);

    const other = await t.call('POST', '/device/v1/activate', { body: { authCode: code, machineCode: 'act-2', machineName: '二号机' } });
    expect([other.status, other.body.msg]).toEqual([400, m.authCodeInvalid]); // the same answer as an unknown code

    // The owner now sees the device in its device choice.
    const devices = await t.call('POST', '/sync/queryUserCodeList', { token: ownerToken, body: {} });
    expect(devices.body.data).toContainEqual({ machineCode: 'act-1', machineName: '一号机' });
  });

  it('is idempotent for the same device: a new token, the old one stops working', async () => {
    const code = await insertAuthCode(t, ownerId);
    const oldToken = await activate(t, code, 'act-again');
    expect((await pull(t, oldToken)).status).toBe(200); // remembered by this instance from here on
    const newToken = await activate(t, code, 'act-again');
    expect(newToken).not.toBe(oldToken);
    expect((await pull(t, oldToken)).status).toBe(401);
    expect((await pull(t, newToken)).status).toBe(200);
  });

  it('moves a device to a new code; the old code stays used without a device', async () => {
    const oldCode = await insertAuthCode(t, ownerId);
    const newCode = await insertAuthCode(t, ownerId);
    const oldToken = await activate(t, oldCode, 'act-move');
    await activate(t, newCode, 'act-move');
    const rows = await t.ctx.db.selectFrom('sync_auth_code').select(['authCode', 'useStatus', 'machineCode']).where('authCode', 'in', [oldCode, newCode]).execute();
    expect(rows.find((r) => r.authCode === oldCode)).toMatchObject({ useStatus: 1, machineCode: null });
    expect(rows.find((r) => r.authCode === newCode)).toMatchObject({ useStatus: 1, machineCode: 'act-move' });
    expect((await pull(t, oldToken)).status).toBe(401);
    const reuse = await t.call('POST', '/device/v1/activate', { body: { authCode: oldCode, machineCode: 'act-other', machineName: 'x' } });
    expect(reuse.body.success).toBe(true); // the old code lost its device; it may bind a device again
  });

  it('refuses unknown and expired codes and bad fields with clear messages', async () => {
    const expired = await insertAuthCode(t, ownerId, { days: 0 });
    const cases: [unknown, string][] = [
      [{ authCode: 'NOPE00000000', machineCode: 'x', machineName: 'x' }, m.authCodeInvalid],
      [{ authCode: 'NOPE\u00000000', machineCode: 'x', machineName: 'x' }, m.authCodeInvalid],
      [{ authCode: 'A'.repeat(33), machineCode: 'x', machineName: 'x' }, m.authCodeInvalid],
      [{ authCode: expired, machineCode: 'x', machineName: 'x' }, m.authCodeExpired],
      [{ machineCode: 'x', machineName: 'x' }, m.authCodeRequired],
      [{ authCode: 'A', machineCode: 'bad code/../', machineName: 'x' }, m.machineCodeFormat],
      [{ authCode: 'A', machineCode: 'ok', machineName: '' }, m.machineNameRequired],
    ];
    for (const [body, message] of cases) {
      const answer = await t.call('POST', '/device/v1/activate', { body });
      expect([answer.status, answer.body.msg]).toEqual([400, message]);
    }
  });
});

// Issue 12, D8: activation took ~600 guesses per second from one address and told which codes exist.
describe('activation throttle', () => {
  const activateFrom = async (ip: string, body: Record<string, string>) => {
    const raw = await t.app.inject({ method: 'POST', url: '/device/v1/activate', remoteAddress: ip, payload: body });
    return { status: raw.statusCode, msg: raw.json().msg as string };
  };
  const throttled = '激活失败次数过多，请15分钟后再试';
  const guess = (i: number) => `GUESS${String(i).padStart(7, '0')}`;

  // Refused unchecked: 429 once the failures reach the limit, 503 (busy: a device retries it) while the
  // places are held by attempts still in flight.
  const refusedUnchecked = (a: { status: number; msg: string }) => (a.status === 429 && a.msg === throttled) || (a.status === 503 && a.msg === m.activateBusy);

  it('checks no more than 20 guesses from an address, even a burst sent at once, and never counts its successes', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => activateFrom('10.8.0.1', { authCode: guess(i), machineCode: `g-${i}`, machineName: 'g' })));
    expect(answers.filter((a) => a.status === 400 && a.msg === m.authCodeInvalid)).toHaveLength(20);
    expect(answers.filter(refusedUnchecked)).toHaveLength(10);
    const good = await insertAuthCode(t, ownerId);
    expect(await activateFrom('10.8.0.1', { authCode: good, machineCode: 'g-good', machineName: 'g' })).toEqual({ status: 429, msg: throttled });
    expect((await activateFrom('10.8.0.2', { authCode: good, machineCode: 'g-good', machineName: 'g' })).status).toBe(200);

    // a fleet behind one address activating 30 devices at once: busy at worst, then all through, and
    // its successes count nothing
    const fleet = await Promise.all(Array.from({ length: 30 }, () => insertAuthCode(t, ownerId)));
    const seat = (i: number) => ({ authCode: fleet[i], machineCode: `fleet-${i}`, machineName: 'f' });
    const first = await Promise.all(fleet.map((_, i) => activateFrom('10.8.0.3', seat(i))));
    expect(first.filter((a) => a.status !== 200 && !(a.status === 503 && a.msg === m.activateBusy))).toEqual([]);
    for (const [i, answer] of first.entries()) if (answer.status === 503) expect((await activateFrom('10.8.0.3', seat(i))).status).toBe(200);
    expect((await activateFrom('10.8.0.3', { authCode: guess(99), machineCode: 'fleet-x', machineName: 'f' })).msg).toBe(m.authCodeInvalid);
  });

  it('checks no more than 10 tries at one code, and still activates the device it is bound to', async () => {
    const code = await insertAuthCode(t, ownerId);
    expect((await activateFrom('10.8.1.1', { authCode: code, machineCode: 'owned-1', machineName: 'o' })).status).toBe(200);
    const grabs = await Promise.all(Array.from({ length: 12 }, (_, i) => activateFrom(`10.8.2.${i + 1}`, { authCode: code.toLowerCase(), machineCode: `grab-${i}`, machineName: 'x' })));
    expect(grabs.filter((a) => a.status === 400 && a.msg === m.authCodeInvalid)).toHaveLength(10);
    expect(grabs.filter(refusedUnchecked)).toHaveLength(2);
    expect(await activateFrom('10.8.2.100', { authCode: code, machineCode: 'grab-x', machineName: 'x' })).toEqual({ status: 429, msg: throttled });
    // the device the code is bound to activates again (a reinstalled app)
    expect((await activateFrom('10.8.1.1', { authCode: code, machineCode: 'owned-1', machineName: 'o' })).status).toBe(200);
    t.clock.advance(15 * 60_000 + 1);
    expect((await activateFrom('10.8.2.100', { authCode: code, machineCode: 'grab-x', machineName: 'x' })).msg).toBe(m.authCodeInvalid);
  });
});

describe('device token', () => {
  it('is required on device calls, and console and device tokens do not cross', async () => {
    const { token } = await newDevice();
    for (const url of ['/device/v1/pull', '/device/v1/report', '/device/v1/heartbeat']) {
      const none = await t.call('POST', url, { body: {} });
      expect([none.status, none.body.msg]).toEqual([401, m.tokenInvalid]);
      const console = await t.call('POST', url, { token: ownerToken, body: {} });
      expect(console.status).toBe(401);
    }
    const asConsole = await t.call('POST', '/sync/queryTaskInfoList', { token, body: {} });
    expect(asConsole.status).toBe(401);
    const consoleAsBearer = await t.call('POST', '/device/v1/pull', { headers: bearer(ownerToken), body: {} });
    expect(consoleAsBearer.status).toBe(401);
  });

  it('is read from the Authorization header only, never the query, the body or the token header', async () => {
    const { token } = await newDevice();
    expect((await t.call('POST', '/device/v1/heartbeat', { headers: bearer(token), body: {} })).status).toBe(200);
    const elsewhere = [
      await t.call('POST', `/device/v1/heartbeat?token=${token}`, { body: {} }),
      await t.call('POST', '/device/v1/heartbeat', { body: { token } }),
      await t.call('POST', '/device/v1/heartbeat', { headers: { token }, body: {} }),
      await t.call('GET', `/device/v1/file?filePath=x&token=${token}`),
    ];
    for (const answer of elsewhere) expect([answer.status, answer.body.msg]).toEqual([401, m.tokenInvalid]);
  });

  it('stops working when the owner is locked or the code deleted', async () => {
    const lockedId = await t.createUser({ userName: 'dev_locked' });
    const { token } = await newDevice({ owner: lockedId });
    await t.ctx.db.updateTable('sys_user').set({ isLock: 'Y' }).where('userId', '=', lockedId).execute();
    expect((await pull(t, token)).body.msg).toBe(messages.login.locked);

    // pull and report check again in their own statement what this instance remembers of a token
    const busyOwner = await t.createUser({ userName: 'dev_locked_later' });
    const busy = await newDevice({ owner: busyOwner });
    await insertSendingTask(t, busyOwner, [busy.machineCode], phoneNumbers(4, 8800), { batchSendNum: 2, batchSendMaxNum: 2 });
    const held = (await pull(t, busy.token)).body.data.batch;
    await t.ctx.db.updateTable('sys_user').set({ isLock: 'Y' }).where('userId', '=', busyOwner).execute();
    const refused = await report(t, busy.token, held.batchId, held.items.map((i: { id: number }) => ({ id: i.id, status: 'sent' })));
    expect([refused.status, refused.body.msg]).toEqual([401, messages.login.locked]);
    expect((await pull(t, busy.token)).body.msg).toBe(messages.login.locked);

    const d = await newDevice();
    const codeId = (await t.ctx.db.selectFrom('sync_auth_code').select('id').where('authCode', '=', d.code).executeTakeFirstOrThrow()).id;
    expect((await t.call('POST', '/sync/deleteAuthCode', { token: adminToken, body: { id: codeId } })).body.success).toBe(true);
    expect((await pull(t, d.token)).status).toBe(401);
  });
});

describe('pull', () => {
  it('hands out a batch in upload order, within the batch range, with content and lease', async () => {
    const d = await newDevice();
    const taskId = await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(50), {
      batchSendNum: 3, batchSendMaxNum: 7, content: '您好', isRandomNum: 1, randomPosition: 1, intervalSeconds: 4, clearNum: 9,
    });
    const { body } = await pull(t, d.token);
    expect(body.success).toBe(true);
    const batch = body.data.batch;
    expect(body.data.wait).toBeNull();
    expect(batch).toMatchObject({ taskId, intervalSeconds: 4, clearNum: 9, leaseSeconds: LEASE_MS / 1000 });
    expect(batch.items.length).toBeGreaterThanOrEqual(3);
    expect(batch.items.length).toBeLessThanOrEqual(7);
    expect(batch.items.map((i: { phone: string }) => i.phone)).toEqual(phoneNumbers(batch.items.length));
    for (const item of batch.items) expect(item.content).toMatch(/^您好 \d{6}$/);
    // fresh numbers are not written at the pull: the batch row holds their range and the lease
    const ids = batch.items.map((i: { id: number }) => i.id);
    const range = await t.ctx.db.selectFrom('sync_batch').selectAll().where('batchId', '=', batch.batchId).executeTakeFirstOrThrow();
    expect(range).toMatchObject({ taskId, machineCode: d.machineCode, fromId: ids[0], toId: ids.at(-1), size: ids.length, doneNum: 0, state: 0, leaseUntil: batch.leaseUntil });
    const rows = await t.ctx.db.selectFrom('sync_task_number').select(['state', 'batchId']).where('id', 'in', ids).execute();
    for (const row of rows) expect(row).toEqual({ state: TaskNumberState.pending, batchId: null });
    expect((await t.ctx.db.selectFrom('sync_task_cursor').select('claimedTo').where('taskId', '=', taskId).executeTakeFirstOrThrow()).claimedTo).toBe(ids.at(-1));
  });

  it('puts the test phone after every testNum-th number of the task, across batches', async () => {
    const d = await newDevice();
    await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(12, 1000), { batchSendNum: 5, batchSendMaxNum: 5, testNum: 4, testPhone: '13912345678', content: 'x' });
    const first = (await pull(t, d.token)).body.data.batch.items;
    const second = (await pull(t, d.token)).body.data.batch.items;
    const shape = (items: { test: boolean; id: number | null }[]) => items.map((i) => (i.test ? 'T' : 'n')).join('');
    expect(shape(first)).toBe('nnnnTn');
    expect(shape(second)).toBe('nnnTnn');
    expect(first.find((i: { test: boolean }) => i.test)).toMatchObject({ id: null, phone: '13912345678' });
  });

  it('says why there is nothing: no task, paused, completed, expired, quota, daily cap, nothing pending', async () => {
    const reasonOf = async (token: string) => (await pull(t, token)).body.data.wait?.reason;
    const idle = await newDevice();
    expect(await reasonOf(idle.token)).toBe(DeviceWaitReason.noTask);

    const paused = await newDevice();
    await insertSendingTask(t, ownerId, [paused.machineCode], phoneNumbers(5, 2000), { taskStatus: TaskStatus.paused });
    expect(await reasonOf(paused.token)).toBe(DeviceWaitReason.taskPaused);

    const done = await newDevice();
    await insertSendingTask(t, ownerId, [done.machineCode], phoneNumbers(5, 2100), { taskStatus: TaskStatus.completed });
    expect(await reasonOf(done.token)).toBe(DeviceWaitReason.taskCompleted);

    const expired = await newDevice({ days: 1 });
    await insertSendingTask(t, ownerId, [expired.machineCode], phoneNumbers(5, 2200));
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    try {
      const answer = (await pull(t, expired.token)).body.data.wait;
      expect(answer).toEqual({ reason: DeviceWaitReason.codeExpired, message: m.waitCodeExpired, retryAfterSeconds: 600 });
    } finally {
      t.clock.advance(-(24 * 60 * 60 * 1000 + 1000));
    }

    const broke = await newDevice({ dueNum: 0 });
    await insertSendingTask(t, ownerId, [broke.machineCode], phoneNumbers(5, 2300));
    expect(await reasonOf(broke.token)).toBe(DeviceWaitReason.quotaUsedUp);

    // another owner's task listing this device does not count: the task must be the device owner's
    const foreign = await newDevice();
    await insertSendingTask(t, otherId, [foreign.machineCode], phoneNumbers(5, 2400));
    expect(await reasonOf(foreign.token)).toBe(DeviceWaitReason.noTask);

    const empty = await newDevice();
    await insertSendingTask(t, ownerId, [empty.machineCode], []);
    expect(await reasonOf(empty.token)).toBe(DeviceWaitReason.noPending);
  });

  it('stops at the daily cap and the quota, counting what the device holds unreported', async () => {
    const capped = await newDevice();
    await insertSendingTask(t, ownerId, [capped.machineCode], phoneNumbers(40, 3000), { singleSendNumDay: 12, batchSendNum: 5, batchSendMaxNum: 5 });
    const sizes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const batch = (await pull(t, capped.token)).body.data.batch;
      sizes.push(batch.items.length);
      await report(t, capped.token, batch.batchId, batch.items.map((it: { id: number }) => ({ id: it.id, status: 'sent' })));
    }
    expect(sizes).toEqual([5, 5, 2]);
    const wait = (await pull(t, capped.token)).body.data.wait;
    expect(wait.reason).toBe(DeviceWaitReason.dailyCap);
    expect(wait.message).toBe('今日发送量已达上限（12条）');
    expect(wait.retryAfterSeconds).toBeGreaterThan(0);
    const daily = await t.ctx.db.selectFrom('sync_device_daily').selectAll().where('machineCode', '=', capped.machineCode).execute();
    expect(daily).toEqual([{ machineCode: capped.machineCode, day: shanghaiDay(t.ctx.now()), sendCount: 12 }]);

    const quota = await newDevice({ dueNum: 7 });
    await insertSendingTask(t, ownerId, [quota.machineCode], phoneNumbers(40, 4000), { batchSendNum: 5, batchSendMaxNum: 5 });
    const held = (await pull(t, quota.token)).body.data.batch;
    expect(held.items).toHaveLength(5);
    expect((await pull(t, quota.token)).body.data.batch.items).toHaveLength(2); // 7 minus the 5 it holds
    expect((await pull(t, quota.token)).body.data.wait.reason).toBe(DeviceWaitReason.quotaUsedUp);
  });

  it('sizes two pulls of one device at once one after the other', async () => {
    const d = await newDevice();
    await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(40, 3500), { singleSendNumDay: 8, batchSendNum: 5, batchSendMaxNum: 5 });
    const answers = await Promise.all(Array.from({ length: 4 }, () => pull(t, d.token)));
    const sizes = answers.map((a) => a.body.data.batch?.items.length ?? 0).sort();
    expect(sizes).toEqual([0, 0, 3, 5]); // the cap of 8 holds however the pulls interleave
  });

  it('never hands out a number put on the do-not-contact list after its upload', async () => {
    const d = await newDevice();
    const numbers = phoneNumbers(6, 5000);
    const taskId = await insertSendingTask(t, ownerId, [d.machineCode], numbers, { batchSendNum: 10, batchSendMaxNum: 10 });
    await t.ctx.db.insertInto('sync_blacklist').values([numbers[1], numbers[4]].map((p) => ({ deptId: 1, phone: Number(p), addUser: 't', addTime: 0 }))).execute();
    const batch = (await pull(t, d.token)).body.data.batch;
    expect(batch.items.map((i: { phone: string }) => i.phone)).toEqual([numbers[0], numbers[2], numbers[3], numbers[5]]);
    const held = async () => (await t.ctx.db.selectFrom('sync_batch').select(['size', 'doneNum', 'state']).where('batchId', '=', batch.batchId).executeTakeFirstOrThrow());
    expect(await held()).toEqual({ size: 4, doneNum: 0, state: 0 }); // the blocked two are not held
    await report(t, d.token, batch.batchId, batch.items.map((it: { id: number }) => ({ id: it.id, status: 'sent' })));
    expect(await held()).toEqual({ size: 4, doneNum: 4, state: 1 });
    const task = await t.ctx.db.selectFrom('sync_task').selectAll().where('taskId', '=', taskId).executeTakeFirstOrThrow();
    expect([task.blockedNum, task.totalSendNum, task.taskStatus]).toEqual([2, 4, TaskStatus.completed]);
  });
});

describe('report', () => {
  it('counts each number once, whatever is repeated, and completes the task', async () => {
    const d = await newDevice({ dueNum: 100 });
    const taskId = await insertSendingTask(t, ownerId, [d.machineCode], ['13800000001', '13000000002', '13300000003', '19200000004'], { batchSendNum: 4, batchSendMaxNum: 4 });
    const before = await t.ctx.db.selectFrom('sys_user').selectAll().where('userId', '=', ownerId).executeTakeFirstOrThrow();
    const batch = (await pull(t, d.token)).body.data.batch;
    const results = batch.items.map((it: { id: number }) => ({ id: it.id, status: 'sent' as const }));
    const first = await report(t, d.token, batch.batchId, results.slice(0, 2));
    expect(first.body.data).toEqual({ sent: 2, failed: 0, retrying: 0, ignored: 0, taskCompleted: false });
    const again = await report(t, d.token, batch.batchId, results);
    expect(again.body.data).toEqual({ sent: 2, failed: 0, retrying: 0, ignored: 2, taskCompleted: true });
    const third = await report(t, d.token, batch.batchId, results);
    expect(third.body.data).toEqual({ sent: 0, failed: 0, retrying: 0, ignored: 4, taskCompleted: false });

    const task = await t.ctx.db.selectFrom('sync_task').selectAll().where('taskId', '=', taskId).executeTakeFirstOrThrow();
    expect([task.totalSendNum, task.smcount, task.sucount, task.stcount, task.socount, task.taskStatus]).toEqual([4, 1, 1, 1, 1, TaskStatus.completed]);
    const after = await t.ctx.db.selectFrom('sys_user').selectAll().where('userId', '=', ownerId).executeTakeFirstOrThrow();
    expect(after.totalSendNum - before.totalSendNum).toBe(4);
    expect(after.sendNum - before.sendNum).toBe(4);
    expect(after.hisTotalSendNum - before.hisTotalSendNum).toBe(4);
    const code = await t.ctx.db.selectFrom('sync_auth_code').select('dueNum').where('authCode', '=', d.code).executeTakeFirstOrThrow();
    expect(code.dueNum).toBe(96);
    await expectCountersMatchRows(t.ctx.db, taskId, { quota: new Map([[d.code, 100]]) });

    const totals = await t.call('POST', '/sync/queryStatisticsTotal', { token: ownerToken, body: {} });
    expect(totals.body.data.todayCount).toBeGreaterThanOrEqual(4);
  });

  it('retries a failed number until DEVICE_MAX_ATTEMPTS, then makes it final', async () => {
    const a = await newDevice();
    const taskId = await insertSendingTask(t, ownerId, [a.machineCode], ['13800000011'], { batchSendNum: 1, batchSendMaxNum: 1 });
    const b1 = (await pull(t, a.token)).body.data.batch;
    const r1 = await report(t, a.token, b1.batchId, [{ id: b1.items[0].id, status: 'failed', reason: 'NO_SERVICE' }]);
    expect(r1.body.data).toMatchObject({ failed: 0, retrying: 1 });
    expect((await report(t, a.token, b1.batchId, [{ id: b1.items[0].id, status: 'failed' }])).body.data).toMatchObject({ retrying: 0, ignored: 1 });
    const b2 = (await pull(t, a.token)).body.data.batch;
    expect(b2.items[0].id).toBe(b1.items[0].id);
    const r2 = await report(t, a.token, b2.batchId, [{ id: b2.items[0].id, status: 'failed', reason: 'GENERIC' }]);
    expect(r2.body.data).toMatchObject({ failed: 1, retrying: 0, taskCompleted: true });
    const row = await t.ctx.db.selectFrom('sync_task_number').selectAll().where('taskId', '=', taskId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: TaskNumberState.failed, attempts: 2, failReason: 'GENERIC' });
    await expectCountersMatchRows(t.ctx.db, taskId);
  });

  it('hands a failed number with tries left out again before the fresh ones', async () => {
    const a = await newDevice();
    const taskId = await insertSendingTask(t, ownerId, [a.machineCode], phoneNumbers(5, 7000), { batchSendNum: 2, batchSendMaxNum: 2 });
    const ids = async () => {
      const batch = (await pull(t, a.token)).body.data.batch;
      return { batch, ids: batch.items.map((i: { id: number }) => i.id) as number[] };
    };
    const first = await ids();
    await report(t, a.token, first.batch.batchId, [{ id: first.ids[0], status: 'failed', reason: 'NO_SERVICE' }, { id: first.ids[1], status: 'sent' }]);
    const sent: number[] = [first.ids[1]];
    const order: number[] = [];
    for (;;) {
      const next = (await pull(t, a.token)).body.data.batch;
      if (!next) break;
      const got = next.items.map((i: { id: number }) => i.id) as number[];
      order.push(...got);
      await report(t, a.token, next.batchId, got.map((id) => ({ id, status: 'sent' as const })));
      sent.push(...got);
    }
    // the failed number is given back: the next batch takes it first, then fresh ones
    expect(order).toEqual([first.ids[0], first.ids[0] + 2, first.ids[0] + 3, first.ids[0] + 4]);
    expect(sent.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4].map((k) => first.ids[0] + k));
    await expectCountersMatchRows(t.ctx.db, taskId);
  });

  it('takes a late report only while nobody else has the number', async () => {
    const a = await newDevice();
    const b = await newDevice();
    const taskId = await insertSendingTask(t, ownerId, [a.machineCode, b.machineCode], phoneNumbers(4, 6000), { batchSendNum: 2, batchSendMaxNum: 2 });
    const batchA = (await pull(t, a.token)).body.data.batch;
    t.clock.advance(LEASE_MS + 1);
    // a's lease ended: b gets a's two numbers back (they went back to pending first)
    const batchB = (await pull(t, b.token)).body.data.batch;
    expect(batchB.items.map((i: { id: number }) => i.id)).toEqual(batchA.items.map((i: { id: number }) => i.id));
    const late = await report(t, a.token, batchA.batchId, batchA.items.map((i: { id: number }) => ({ id: i.id, status: 'sent' })));
    expect(late.body.data).toMatchObject({ sent: 0, ignored: 2 });
    expect((await report(t, b.token, batchB.batchId, batchB.items.map((i: { id: number }) => ({ id: i.id, status: 'sent' })))).body.data.sent).toBe(2);

    // a late report for numbers nobody took is accepted
    const batchA2 = (await pull(t, a.token)).body.data.batch;
    t.clock.advance(LEASE_MS + 1);
    const accepted = await report(t, a.token, batchA2.batchId, batchA2.items.map((i: { id: number }) => ({ id: i.id, status: 'sent' })));
    expect(accepted.body.data).toMatchObject({ sent: 2, ignored: 0, taskCompleted: true });
    await expectCountersMatchRows(t.ctx.db, taskId);
  });

  // Issue 12, D2: on PostgreSQL one NUL in a reason failed the whole report (500 on every retry), so
  // none of its results counted and the numbers went to another device when the lease ended.
  it('counts every result of a report whose failure reasons hold control characters or run long', async () => {
    const d = await newDevice();
    const taskId = await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(12, 9500), { batchSendNum: 12, batchSendMaxNum: 12 });
    const batch = (await pull(t, d.token)).body.data.batch;
    const ids = batch.items.map((i: { id: number }) => i.id) as number[];
    const reasons: unknown[] = ['bad\u0000radio', '\u0001\u001f\u007f\u0085', 'line\r\nbreak\tand\u0000', '长'.repeat(300), '\ud800lone', 42];
    const results = ids.map((id, k) => (k < reasons.length ? { id, status: 'failed', reason: reasons[k] } : { id, status: 'sent' }));
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await t.call('POST', '/device/v1/report', { headers: bearer(d.token), body: { batchId: batch.batchId, results } });
      expect([answer.status, answer.body.success], answer.body.msg).toEqual([200, true]);
      expect(answer.body.data).toEqual(attempt === 0
        ? { sent: 6, failed: 0, retrying: 6, ignored: 0, taskCompleted: false }
        : { sent: 0, failed: 0, retrying: 0, ignored: 12, taskCompleted: false }); // a repeat changes nothing
    }
    const stored = await t.ctx.db.selectFrom('sync_task_number').select(['id', 'failReason']).where('id', 'in', ids.slice(0, reasons.length)).orderBy('id').execute();
    expect(stored.map((r) => r.failReason)).toEqual(['badradio', null, 'line break and', '长'.repeat(200), '\ufffdlone', null]); // not a string: no reason (contract deviceText)
    await expectCountersMatchRows(t.ctx.db, taskId);

    // the heartbeat's app version likewise
    const beat = await t.call('POST', '/device/v1/heartbeat', { headers: bearer(d.token), body: { appVersion: 'v\u00001.0\u0007' } });
    expect(beat.body.success).toBe(true);
    const code = await t.ctx.db.selectFrom('sync_auth_code').select('appVersion').where('authCode', '=', d.code).executeTakeFirstOrThrow();
    expect(code.appVersion).toBe('v1.0');
  });

  it('refuses malformed reports with Chinese messages', async () => {
    const d = await newDevice();
    const cases: [unknown, string][] = [
      [{ results: [{ id: 1, status: 'sent' }] }, m.batchIdRequired],
      [{ batchId: 'b', results: [] }, m.resultsRequired],
      [{ batchId: 'b', results: [{ id: 1, status: 'maybe' }] }, m.resultStatusInvalid],
      [{ batchId: 'b\u0000', results: [{ id: 1, status: 'sent' }] }, m.batchIdRequired],
      [{ batchId: 'b', results: Array.from({ length: 1001 }, (_, i) => ({ id: i + 1, status: 'sent' })) }, '一次最多上报1000条结果'],
    ];
    for (const [body, message] of cases) {
      const answer = await t.call('POST', '/device/v1/report', { headers: bearer(d.token), body });
      expect([answer.status, answer.body.msg]).toEqual([400, message]);
    }
  });
});

describe('task files', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2dd5e6b0000000049454e44ae426082', 'hex');

  it('serve a task image to the devices assigned to it, and nothing else', async () => {
    const d = await newDevice();
    const stranger = await newDevice();
    const image = (await uploadVia(t, ownerToken, { fileName: 'banner.png', content: PNG }, { kind: 'image' })).body.data[0];
    await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(3, 8000), { showType: 2, imgUrl: downloadUrlOf(image.filePath) });
    const batch = (await pull(t, d.token)).body.data.batch;
    expect(batch.fileUrl).toBe(`/device/v1/file?filePath=${encodeURIComponent(image.filePath)}`);
    const got = await t.call('GET', batch.fileUrl, { headers: bearer(d.token) });
    expect(got.status).toBe(200);
    expect(got.raw.headers['content-type']).toBe('image/png');
    expect(got.raw.rawPayload.equals(PNG)).toBe(true);

    const refused = await t.call('GET', batch.fileUrl, { headers: bearer(stranger.token) });
    expect([refused.status, refused.body.msg]).toEqual([403, m.fileNotAssigned]);
    for (const filePath of ['../huiyun.db', '/etc/passwd', '']) {
      expect((await t.call('GET', `/device/v1/file?filePath=${encodeURIComponent(filePath)}`, { headers: bearer(d.token) })).status).toBe(404);
    }
    expect((await t.call('GET', batch.fileUrl)).status).toBe(401);
  });
});

describe('paused tasks', () => {
  it('give no new batch but still take the reports of batches out', async () => {
    const d = await newDevice();
    const taskId = await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(6, 9000), { batchSendNum: 3, batchSendMaxNum: 3 });
    const batch = (await pull(t, d.token)).body.data.batch;
    const paused = await t.call('POST', '/sync/pauseStartTaskInfo', { token: ownerToken, body: { taskId, taskStatus: TaskStatus.paused } });
    expect(paused.body.success, paused.body.msg).toBe(true);
    expect((await pull(t, d.token)).body.data.wait.reason).toBe(DeviceWaitReason.taskPaused);
    const answer = await report(t, d.token, batch.batchId, batch.items.map((i: { id: number }) => ({ id: i.id, status: 'sent' })));
    expect(answer.body.data.sent).toBe(3);
    await expectCountersMatchRows(t.ctx.db, taskId);
  });
});

describe('console device list and heartbeat', () => {
  it('shows status, last seen, sent today and held numbers, to the owner and administrators only', async () => {
    const d = await newDevice();
    await t.call('POST', '/device/v1/heartbeat', { headers: bearer(d.token), body: { battery: 77, signal: 3, appVersion: '1.2.0' } });
    await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(5, 7000), { batchSendNum: 3, batchSendMaxNum: 3 });
    const batch = (await pull(t, d.token)).body.data.batch;
    await report(t, d.token, batch.batchId, [{ id: batch.items[0].id, status: 'sent' }]);

    const list = await t.call('POST', '/sync/queryDeviceList', { token: ownerToken, body: { pageNum: 1, pageSize: 200 } });
    const row = list.body.data.find((r: { machineCode: string }) => r.machineCode === d.machineCode);
    expect(row).toMatchObject({ online: true, battery: 77, signal: 3, appVersion: '1.2.0', sentToday: 1, leased: 2, userName: 'dev_owner' });
    const otherToken = await t.login('dev_other', 'User@12345');
    const others = await t.call('POST', '/sync/queryDeviceList', { token: otherToken, body: {} });
    expect(others.body.data.some((r: { machineCode: string }) => r.machineCode === d.machineCode)).toBe(false);
    const admin = await t.call('POST', '/sync/queryDeviceList', { token: adminToken, body: { pageSize: 200 } });
    expect(admin.body.data.some((r: { machineCode: string }) => r.machineCode === d.machineCode)).toBe(true);

    t.clock.advance(200_000);
    try {
      const later = await t.call('POST', '/sync/queryDeviceList', { token: ownerToken, body: { pageSize: 200, machineName: `设备${d.machineCode.slice(4)}` } });
      expect(later.body.data[0]).toMatchObject({ machineCode: d.machineCode, online: false });
    } finally {
      t.clock.advance(-200_000);
    }
  });
});
