import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeviceWaitReason, TaskNumberState, TaskStatus } from '@huiyun/contract';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { leaseFaults } from './number-leases.ts';
import { activate, expectCountersMatchRows, insertAuthCode, insertSendingTask, phoneNumbers, pull, report } from '../../../test/devices.ts';

// A process that dies inside a pull, right after the lapse of a batch whose lease ended:
// on PostgreSQL the lapse committed on its own and the numbers were given back by later statements, so
// a crash in between left them pending with no batch below the task's cursor — never handed out again,
// the task never completed. The fault is injected where that window was; afterwards the devices must
// finish the task with every number sent exactly once.

const LEASE_MS = 60_000;
const NUMBERS = 30;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ DEVICE_LEASE_SECONDS: String(LEASE_MS / 1000), DEVICE_MAX_ATTEMPTS: '3' });
});
afterAll(async () => t?.close());
afterEach(() => void (leaseFaults.afterLapse = undefined));

describe('a crash between the lapse of a batch and the give-back of its numbers', () => {
  it('strands no number: the task completes with every number sent once', async () => {
    const ownerId = await t.createUser({ userName: 'window_owner' });
    const tokens: string[] = [];
    for (const machineCode of ['window-a', 'window-b']) tokens.push(await activate(t, await insertAuthCode(t, ownerId), machineCode));
    const taskId = await insertSendingTask(t, ownerId, ['window-a', 'window-b'], phoneNumbers(NUMBERS, 42_000), { batchSendNum: 10, batchSendMaxNum: 10 });

    // a's batch is never reported; its lease ends
    const abandoned = (await pull(t, tokens[0])).body.data.batch;
    expect(abandoned.items).toHaveLength(10);
    t.clock.advance(LEASE_MS + 1);

    let crashes = 0;
    leaseFaults.afterLapse = () => {
      leaseFaults.afterLapse = undefined;
      crashes += 1;
      throw new Error('injected: the process dies after the lapse');
    };
    const crashed = await pull(t, tokens[1]);
    expect(crashed.status).toBe(500);
    expect(crashes).toBe(1);

    const sentOnce = new Map<number, number>();
    let completed = false;
    for (let round = 0; round < 20 && !completed; round++) {
      for (const token of tokens) {
        const { body } = await pull(t, token);
        expect(body.success, body.msg).toBe(true);
        if (body.data.wait) {
          completed ||= body.data.wait.reason === DeviceWaitReason.taskCompleted;
          continue;
        }
        const ids = (body.data.batch.items as { id: number | null }[]).flatMap((i) => (i.id === null ? [] : [i.id]));
        const answer = await report(t, token, body.data.batch.batchId, ids.map((id) => ({ id, status: 'sent' as const })));
        expect(answer.body.data.sent).toBe(ids.length);
        for (const id of ids) sentOnce.set(id, (sentOnce.get(id) ?? 0) + 1);
      }
    }
    expect(completed).toBe(true);
    expect(sentOnce.size).toBe(NUMBERS);
    expect([...sentOnce.values()].every((n) => n === 1)).toBe(true);
    for (const item of abandoned.items as { id: number }[]) expect(sentOnce.get(item.id)).toBe(1);

    const open = await t.ctx.db.selectFrom('sync_task_number').select('id').where('taskId', '=', taskId)
      .where('state', 'in', [TaskNumberState.pending, TaskNumberState.leased]).execute();
    expect(open).toEqual([]);
    const task = await t.ctx.db.selectFrom('sync_task').select('taskStatus').where('taskId', '=', taskId).executeTakeFirstOrThrow();
    expect(task.taskStatus).toBe(TaskStatus.completed);
    await expectCountersMatchRows(t.ctx.db, taskId);
  });
});
