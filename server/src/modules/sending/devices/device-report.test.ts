import { describe, expect, it } from 'vitest';
import { messages, TaskNumberState, TaskStatus } from '@huiyun/contract';
import { bearer, expectCountersMatchRows, insertSendingTask, phoneNumbers, pull, report, LEASE_MS } from '../../../test/devices.ts';
import { newDevice, ownerId, ownerToken, t, useDeviceTestApp } from '../../../test/device-fixture.ts';

// The device app: reporting results.

const m = messages.device;

useDeviceTestApp();

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

  // On PostgreSQL one NUL in a reason failed the whole report (500 on every retry), so
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
