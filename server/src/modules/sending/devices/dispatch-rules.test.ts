import { describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES, DeviceWaitReason, messages, ShowType, TaskStatus } from '@huiyun/contract';
import { insertAuthCode, insertSendingTask, LEASE_MS, phoneNumbers, pull, report, setBeijingTime } from '../../../test/devices.ts';
import { newDevice, ownerId, ownerToken, t, useDeviceTestApp } from '../../../test/device-fixture.ts';

// What a device may be given: its declared capabilities, the task's sending window, and the attempt
// number of each item.

const m = messages.device;
const tm = messages.task;

let seq = 0;

useDeviceTestApp();

/** A device of the owner that declares `capabilities` at activation (undefined: sends none). */
async function deviceWith(capabilities: unknown) {
  const code = await insertAuthCode(t, ownerId);
  const machineCode = `cap-${++seq}`;
  const answer = await t.call('POST', '/device/v1/activate', { body: { authCode: code, machineCode, machineName: machineCode, capabilities } });
  return { code, machineCode, answer, token: answer.body.data?.deviceToken as string };
}

/** A session of the owner made now: moving the clock by hours ends the idle ones. */
const ownerSession = () => t.login('dev_owner', 'User@12345');

const deviceRow = async (machineCode: string) => {
  const list = await t.call('POST', '/sync/queryDeviceList', { token: ownerToken, body: { pageSize: 200 } });
  return list.body.data.find((r: { machineCode: string }) => r.machineCode === machineCode);
};

describe('capabilities', () => {
  it('a text-only device never gets an image task, and waits unsupportedType when that is all it has', async () => {
    const d = await deviceWith(['text']);
    expect(d.answer.body.success).toBe(true);
    expect((await deviceRow(d.machineCode)).capabilities).toEqual(['text']);
    // The image task is older, so it would come first if the device could send it.
    const imageTask = await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(3, 100), { showType: ShowType.image, imgUrl: 'https://example.com/a.png' });
    const bothTask = await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(3, 150), { showType: ShowType.textImage, content: 'x', imgUrl: 'https://example.com/a.png' });
    const textTask = await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(3, 200), { content: '您好', batchSendNum: 3, batchSendMaxNum: 3 });
    const batch = (await pull(t, d.token)).body.data.batch;
    expect(batch.taskId).toBe(textTask);
    await report(t, d.token, batch.batchId, batch.items.map((i: { id: number }) => ({ id: i.id, status: 'sent' })));
    // The text task is done: only tasks it cannot send are left.
    const waited = (await pull(t, d.token)).body.data;
    expect(waited).toEqual({ batch: null, wait: { reason: DeviceWaitReason.unsupportedType, message: m.waitUnsupportedType, retryAfterSeconds: 300 } });
    const untouched = await t.ctx.db.selectFrom('sync_task_cursor').select('taskId').where('taskId', 'in', [imageTask, bothTask]).execute();
    expect(untouched).toEqual([]); // no claim was ever made on them
  });

  it('an older activation without capabilities still gets everything; re-activation replaces what was declared', async () => {
    const old = await newDevice();
    expect((await deviceRow(old.machineCode)).capabilities).toEqual(ALL_CAPABILITIES);
    const taskId = await insertSendingTask(t, ownerId, [old.machineCode], phoneNumbers(2, 300), { showType: ShowType.file, content: 'x', imgUrl: 'https://example.com/a.pdf' });
    expect((await pull(t, old.token)).body.data.batch.taskId).toBe(taskId);

    const d = await deviceWith(['text', 'image', 'text']);
    expect((await deviceRow(d.machineCode)).capabilities).toEqual(['text', 'image']);
    const again = await t.call('POST', '/device/v1/activate', { body: { authCode: d.code, machineCode: d.machineCode, machineName: 'x', capabilities: [] } });
    expect(again.body.success).toBe(true);
    expect((await deviceRow(d.machineCode)).capabilities).toEqual(ALL_CAPABILITIES);
  });

  it('refuses capabilities it does not know, with a clear message, binding nothing', async () => {
    for (const capabilities of [['text', 'mms'], 'text', [1]]) {
      const d = await deviceWith(capabilities);
      expect([d.answer.status, d.answer.body.msg]).toEqual([400, m.capabilitiesInvalid]);
      const row = await t.ctx.db.selectFrom('sync_auth_code').select(['machineCode', 'capabilities']).where('authCode', '=', d.code).executeTakeFirstOrThrow();
      expect(row).toEqual({ machineCode: null, capabilities: null });
    }
  });

  it('the task dialog device choice carries each device’s capabilities', async () => {
    const d = await deviceWith(['text']);
    const devices = await t.call('POST', '/sync/queryUserCodeList', { token: ownerToken, body: {} });
    expect(devices.body.data).toContainEqual({ machineCode: d.machineCode, machineName: d.machineCode, capabilities: ['text'] });
  });
});

describe('sending window', () => {
  it('gives no batch outside the window: outsideWindow with the seconds to its start', async () => {
    const d = await newDevice();
    const taskId = await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(5, 400), { content: 'x', sendStartTime: '08:00', sendEndTime: '21:00' });
    const moved = setBeijingTime(t, '07:00');
    try {
      const { wait } = (await pull(t, d.token)).body.data;
      expect(wait.reason).toBe(DeviceWaitReason.outsideWindow);
      expect(wait.message).toBe('不在发送时段（08:00-21:00）');
      expect(wait.retryAfterSeconds).toBeGreaterThan(3600 - 60);
      expect(wait.retryAfterSeconds).toBeLessThanOrEqual(3600);
      const listed = await t.call('POST', '/sync/queryTaskInfoList', { token: await ownerSession(), body: { pageSize: 200 } });
      expect(listed.body.data.find((r: { taskId: number }) => r.taskId === taskId)).toMatchObject({ outsideWindow: true, sendStartTime: '08:00', sendEndTime: '21:00' });
    } finally {
      t.clock.advance(-moved);
    }
    const back = setBeijingTime(t, '12:00');
    try {
      expect((await pull(t, d.token)).body.data.batch.taskId).toBe(taskId);
      const listed = await t.call('POST', '/sync/queryTaskInfoList', { token: await ownerSession(), body: { pageSize: 200 } });
      expect(listed.body.data.find((r: { taskId: number }) => r.taskId === taskId).outsideWindow).toBe(false);
    } finally {
      t.clock.advance(-back);
    }
  });

  it('a window across midnight is open late and early, closed at noon; a closed task leaves the open one to send', async () => {
    const d = await newDevice();
    const night = await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(30, 500), { content: 'x', sendStartTime: '22:00', sendEndTime: '06:00', batchSendNum: 1, batchSendMaxNum: 1 });
    for (const at of ['23:00', '05:00']) {
      const moved = setBeijingTime(t, at);
      try {
        expect((await pull(t, d.token)).body.data.batch.taskId, at).toBe(night);
      } finally {
        t.clock.advance(-moved);
      }
    }
    const noon = setBeijingTime(t, '12:00');
    try {
      const { wait } = (await pull(t, d.token)).body.data;
      expect(wait).toMatchObject({ reason: DeviceWaitReason.outsideWindow, message: '不在发送时段（22:00-06:00）' });
      expect(wait.retryAfterSeconds).toBeGreaterThan(10 * 3600 - 60);
      expect(wait.retryAfterSeconds).toBeLessThanOrEqual(10 * 3600);
      // Another task with no window is sent meanwhile.
      const anyTime = await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(2, 600), { content: 'y' });
      expect((await pull(t, d.token)).body.data.batch.taskId).toBe(anyTime);
      // A paused task is not 不在发送时段 in the list: only a running one whose window is closed.
      await t.ctx.db.updateTable('sync_task').set({ taskStatus: TaskStatus.paused }).where('taskId', '=', night).execute();
      const listed = await t.call('POST', '/sync/queryTaskInfoList', { token: await ownerSession(), body: { pageSize: 200 } });
      expect(listed.body.data.find((r: { taskId: number }) => r.taskId === night).outsideWindow).toBe(false);
    } finally {
      t.clock.advance(-noon);
    }
  });

  it('is saved with the task; equal times, one time alone or a wrong format are refused with a clear message', async () => {
    const d = await newDevice();
    const ownerToken = await ownerSession();
    const base = { taskName: `窗口${++seq}`, showType: ShowType.text, content: '您好', machineCodeList: [d.machineCode] };
    const saved = await t.call('POST', '/sync/saveTaskInfo', { token: ownerToken, body: { ...base, sendStartTime: '08:00', sendEndTime: '21:00' } });
    expect(saved.body.success).toBe(true);
    const row = await t.ctx.db.selectFrom('sync_task').select(['sendStartTime', 'sendEndTime']).where('taskId', '=', saved.body.data.taskId).executeTakeFirstOrThrow();
    expect(row).toEqual({ sendStartTime: '08:00', sendEndTime: '21:00' });
    const none = await t.call('POST', '/sync/saveTaskInfo', { token: ownerToken, body: { ...base, taskName: `窗口${++seq}` } });
    const noneRow = await t.ctx.db.selectFrom('sync_task').select(['sendStartTime', 'sendEndTime']).where('taskId', '=', none.body.data.taskId).executeTakeFirstOrThrow();
    expect(noneRow).toEqual({ sendStartTime: '', sendEndTime: '' });

    const before = await t.ctx.db.selectFrom('sync_task').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    for (const [start, end, message] of [
      ['09:00', '09:00', tm.sendWindowEmpty], ['09:00', '', tm.sendWindowIncomplete], ['', '21:00', tm.sendWindowIncomplete],
      ['24:00', '21:00', tm.sendTimeInvalid], ['8:00', '21:00', tm.sendTimeInvalid], ['08:00', 2100, tm.sendTimeInvalid],
    ] as const) {
      const refused = await t.call('POST', '/sync/saveTaskInfo', { token: ownerToken, body: { ...base, taskName: `窗口${++seq}`, sendStartTime: start, sendEndTime: end } });
      expect([refused.status, refused.body.msg], `${start}-${end}`).toEqual([400, message]);
    }
    const after = await t.ctx.db.selectFrom('sync_task').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('attempt', () => {
  it('is 0 on a first try, goes up after a failure and stays after a lease expiry', async () => {
    const d = await newDevice();
    const other = await newDevice();
    await insertSendingTask(t, ownerId, [d.machineCode, other.machineCode], phoneNumbers(2, 700), { content: 'x', batchSendNum: 2, batchSendMaxNum: 2 });
    const first = (await pull(t, d.token)).body.data.batch;
    expect(first.items.map((i: { attempt: number }) => i.attempt)).toEqual([0, 0]);
    const [failed, unreported] = first.items;
    await report(t, d.token, first.batchId, [{ id: failed.id, status: 'failed', reason: 'RESULT_ERROR_GENERIC_FAILURE' }]);

    // The failed number is given back at once; the unreported one when the lease ends.
    const retry = (await pull(t, other.token)).body.data.batch;
    expect(retry.items.map((i: { id: number; attempt: number }) => [i.id, i.attempt])).toEqual([[failed.id, 1]]);
    t.clock.advance(LEASE_MS + 1000);
    try {
      const afterLease = (await pull(t, d.token)).body.data.batch;
      expect(afterLease.items.map((i: { id: number; attempt: number }) => [i.id, i.attempt])).toEqual([[failed.id, 1], [unreported.id, 0]]);
    } finally {
      t.clock.advance(-(LEASE_MS + 1000));
    }
  });
});
