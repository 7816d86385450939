import { describe, expect, it } from 'vitest';
import { DeviceWaitReason, messages, shanghaiDay, TaskNumberState, TaskStatus } from '@huiyun/contract';
import { expectCountersMatchRows, insertSendingTask, phoneNumbers, pull, report, LEASE_MS } from '../../../test/devices.ts';
import { newDevice, otherId, ownerId, ownerToken, t, useDeviceTestApp } from '../../../test/device-fixture.ts';

// The device app: pulling batches, and paused tasks.

const m = messages.device;

useDeviceTestApp();

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
