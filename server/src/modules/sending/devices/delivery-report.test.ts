import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DeliveryState, DEVICE_REPORT_MAX, messages, TaskNumberState } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { bearer, insertSendingTask, phoneNumbers, pull, report } from '../../../test/devices.ts';
import { newDevice, ownerId, ownerToken, t, useDeviceTestApp } from '../../../test/device-fixture.ts';

// Delivery reports (送达 / 未送达) of numbers a device reported sent: counted once, only for the device
// that sent them, on the task and on its owner's statistics, all or nothing.

const m = messages.device;

useDeviceTestApp();

type Result = { id: number; status: string; reason?: unknown };
const deliver = (token: string, results: Result[] | unknown) =>
  t.call('POST', '/device/v1/delivery', { headers: bearer(token), body: { results } });

/** A task of `size` numbers pulled by a new device in one batch, `sent` of them reported sent. */
async function sentBatch(size: number, sent: number, start: number) {
  const d = await newDevice();
  const taskId = await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(size, start), { content: 'x', batchSendNum: size, batchSendMaxNum: size });
  const batch = (await pull(t, d.token)).body.data.batch;
  const ids: number[] = batch.items.map((i: { id: number }) => i.id);
  await report(t, d.token, batch.batchId, ids.slice(0, sent).map((id) => ({ id, status: 'sent' })));
  return { d, taskId, ids };
}

/** Every delivery counter equals a recount of the number rows: the task's, its owner's all-time and per-day. */
async function expectDeliveryCountersMatchRows(db: Kysely<Database>, taskId: number) {
  const count = async (state: number, where: { taskId?: number; userId?: number }) => {
    let q = db.selectFrom('sync_task_number as n').innerJoin('sync_task as t', 't.taskId', 'n.taskId')
      .select((eb) => eb.fn.countAll<number | string>().as('n')).where('n.deliveryState', '=', state);
    if (where.taskId !== undefined) q = q.where('n.taskId', '=', where.taskId);
    if (where.userId !== undefined) q = q.where('t.userId', '=', where.userId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const task = await db.selectFrom('sync_task').select(['deliveredNum', 'undeliveredNum', 'userId']).where('taskId', '=', taskId).executeTakeFirstOrThrow();
  expect([task.deliveredNum, task.undeliveredNum]).toEqual([await count(DeliveryState.delivered, { taskId }), await count(DeliveryState.undelivered, { taskId })]);
  const owner = await db.selectFrom('sys_user').select('deliveredNum').where('userId', '=', task.userId).executeTakeFirstOrThrow();
  const ownerDelivered = await count(DeliveryState.delivered, { userId: task.userId });
  expect(owner.deliveredNum).toBe(ownerDelivered);
  const daily = await db.selectFrom('sync_send_daily')
    .select((eb) => [eb.fn.sum<number | string>('deliveredCount').as('d'), eb.fn.sum<number | string>('undeliveredCount').as('u')])
    .where('userId', '=', task.userId).executeTakeFirstOrThrow();
  expect([Number(daily.d ?? 0), Number(daily.u ?? 0)]).toEqual([ownerDelivered, await count(DeliveryState.undelivered, { userId: task.userId })]);
}

describe('delivery reports', () => {
  it('count a delivered number once; repeats, late contrary events, unsent, unknown and foreign numbers are ignored', async () => {
    const { d, taskId, ids } = await sentBatch(4, 3, 0);
    const [a, b, c, unsent] = ids;
    const stranger = await newDevice();

    const first = await deliver(d.token, [
      { id: a, status: 'delivered' },
      { id: a, status: 'delivered' }, // a second part's event in the same report
      { id: b, status: 'undelivered', reason: `Delivery result: ${'x'.repeat(300)}` },
      { id: unsent, status: 'delivered' }, // leased, never reported sent
      { id: 99_999_999, status: 'delivered' },
    ]);
    expect(first.body).toMatchObject({ success: true, msg: m.deliveryReported, data: { delivered: 1, undelivered: 1, ignored: 3 } });
    // Later: the same event again, the contrary event after the outcome, and another device's report.
    expect((await deliver(d.token, [{ id: a, status: 'delivered' }, { id: a, status: 'undelivered' }, { id: b, status: 'delivered' }])).body.data)
      .toEqual({ delivered: 0, undelivered: 0, ignored: 3 });
    expect((await deliver(stranger.token, [{ id: c, status: 'delivered' }])).body.data).toEqual({ delivered: 0, undelivered: 0, ignored: 1 });

    const rows = await t.ctx.db.selectFrom('sync_task_number').select(['id', 'state', 'deliveryState', 'deliveryReason']).where('id', 'in', ids).orderBy('id').execute();
    expect(rows.map((r) => r.deliveryState)).toEqual([DeliveryState.delivered, DeliveryState.undelivered, null, null]);
    expect(rows[1].deliveryReason).toHaveLength(200);
    expect(rows[3].state).not.toBe(TaskNumberState.sent);
    await expectDeliveryCountersMatchRows(t.ctx.db, taskId);

    // The sending device reports c later: counted.
    expect((await deliver(d.token, [{ id: c, status: 'delivered' }])).body.data).toEqual({ delivered: 1, undelivered: 0, ignored: 0 });
    await expectDeliveryCountersMatchRows(t.ctx.db, taskId);

    // 任务列表 and 发送统计 show them.
    const tasks = await t.call('POST', '/sync/queryTaskInfoList', { token: ownerToken, body: { pageSize: 200 } });
    expect(tasks.body.data.find((r: { taskId: number }) => r.taskId === taskId)).toMatchObject({ totalSendNum: 3, deliveredNum: 2, undeliveredNum: 1 });
    const stats = await t.call('POST', '/sync/queryTaskUserStatisticsList', { token: ownerToken, body: {} });
    const ownerDelivered = await t.ctx.db.selectFrom('sys_user').select('deliveredNum').where('userId', '=', ownerId).executeTakeFirstOrThrow();
    expect(stats.body.data.find((r: { userId: number }) => r.userId === ownerId)?.deliveredNum).toBe(ownerDelivered.deliveredNum);
  });

  it('refuses bad input with a clear 400, writing nothing', async () => {
    const { d, taskId, ids } = await sentBatch(2, 2, 100);
    const refusals: [unknown, string][] = [
      [[], m.deliveryResultsRequired],
      ['x', m.deliveryResultsRequired],
      [[{ id: ids[0], status: 'delivered' }, { id: ids[1], status: 'read' }], m.deliveryStatusInvalid],
      [[{ id: ids[0], status: 'delivered' }, { id: 'abc', status: 'delivered' }], m.deliveryResultsRequired],
      [Array.from({ length: DEVICE_REPORT_MAX + 1 }, () => ({ id: ids[0], status: 'delivered' })), m.deliveryResultsTooMany.replace('{max}', String(DEVICE_REPORT_MAX))],
    ];
    for (const [results, message] of refusals) {
      const answer = await deliver(d.token, results);
      expect([answer.status, answer.body.msg]).toEqual([400, message]);
    }
    const rows = await t.ctx.db.selectFrom('sync_task_number').select('deliveryState').where('id', 'in', ids).execute();
    expect(rows.every((r) => r.deliveryState === null)).toBe(true);
    const task = await t.ctx.db.selectFrom('sync_task').select(['deliveredNum', 'undeliveredNum']).where('taskId', '=', taskId).executeTakeFirstOrThrow();
    expect(task).toEqual({ deliveredNum: 0, undeliveredNum: 0 });
    // A reason that is not text never refuses a report (like a sending report's reason).
    expect((await deliver(d.token, [{ id: ids[0], status: 'undelivered', reason: { x: 1 } }])).body.data).toEqual({ delivered: 0, undelivered: 1, ignored: 0 });
    expect((await t.call('POST', '/device/v1/delivery', { body: { results: [{ id: ids[1], status: 'delivered' }] } })).status).toBe(401);
    await expectDeliveryCountersMatchRows(t.ctx.db, taskId);
  });
});

describe('heartbeat state', () => {
  it('shows the last heartbeat’s state in the device list, cleared by a heartbeat without one; online means seen in the last 60 s', async () => {
    const d = await newDevice();
    const row = async () => {
      const list = await t.call('POST', '/sync/queryDeviceList', { token: await t.login('dev_owner', 'User@12345'), body: { pageSize: 200 } });
      return list.body.data.find((r: { machineCode: string }) => r.machineCode === d.machineCode);
    };
    await t.call('POST', '/device/v1/heartbeat', { headers: bearer(d.token), body: { state: '限额已满\n' } });
    expect(await row()).toMatchObject({ online: true, state: '限额已满' });
    await t.call('POST', '/device/v1/heartbeat', { headers: bearer(d.token), body: { battery: 50 } });
    expect(await row()).toMatchObject({ state: '', battery: 50 });
    t.clock.advance(61_000);
    try {
      expect((await row()).online).toBe(false);
    } finally {
      t.clock.advance(-61_000);
    }
  });
});
