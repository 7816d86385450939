import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceWaitReason, TaskNumberState, TaskStatus } from '@huiyun/contract';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { activate, expectCountersMatchRows, insertAuthCode, insertSendingTask, phoneNumbers, pull, report } from '../../../test/devices.ts';

// Exactly-once under concurrency: 50 devices share a 20,000-number task through the real
// routes at the same time (on PostgreSQL through a pool of connections, so claims and reports truly
// overlap), with random failures, repeated reports, batches held back and reported after their
// lease ended, and one lease expiry in the middle. Every number must end final exactly once, and
// every counter equal a recount from the number rows.

const DEVICES = 50;
const NUMBERS = 20_000;
const LEASE_MS = 60_000;
const QUOTA = 1_000_000;

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

type Batch = { batchId: string; items: { id: number | null }[] };
type Result = { id: number; status: 'sent' | 'failed'; reason?: string };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ DEVICE_LEASE_SECONDS: String(LEASE_MS / 1000), DEVICE_MAX_ATTEMPTS: '3' });
});
afterAll(async () => t?.close());

describe('50 devices on one task at once', () => {
  it('sends every number exactly once and every counter equals a recount', async () => {
    const seed = Number(process.env.EXACTLY_ONCE_SEED ?? Date.now() % 100_000);
    const random = seeded(seed);
    const ownerId = await t.createUser({ userName: 'once_owner' });
    const codes: string[] = [];
    const tokens: string[] = [];
    for (let i = 0; i < DEVICES; i++) {
      codes.push(await insertAuthCode(t, ownerId, { dueNum: QUOTA }));
      tokens.push(await activate(t, codes[i], `once-${i}`));
    }
    const taskId = await insertSendingTask(t, ownerId, codes.map((_, i) => `once-${i}`), phoneNumbers(NUMBERS), {
      batchSendNum: 20, batchSendMaxNum: 60, singleSendNumDay: QUOTA,
    });

    let acceptedSent = 0;
    let acceptedFailed = 0;
    let expired = false;
    const heldBack: { token: string; batchId: string; results: Result[] }[] = [];
    const finalCount = async () => {
      const row = await t.ctx.db.selectFrom('sync_task').select(['totalSendNum', 'failNum', 'taskStatus']).where('taskId', '=', taskId).executeTakeFirstOrThrow();
      return row;
    };
    const send = async (token: string, batchId: string, results: Result[]) => {
      if (results.length === 0) return;
      const answer = await report(t, token, batchId, results);
      expect(answer.body.success, answer.body.msg).toBe(true);
      acceptedSent += answer.body.data.sent;
      acceptedFailed += answer.body.data.failed;
    };

    const deviceLoop = async (token: string) => {
      for (let idle = 0; idle < 2000;) {
        const { body } = await pull(t, token);
        expect(body.success, body.msg).toBe(true);
        if (body.data.wait) {
          if (body.data.wait.reason === DeviceWaitReason.taskCompleted) return;
          expect(body.data.wait.reason).toBe(DeviceWaitReason.noPending);
          idle += 1;
          await new Promise((r) => setTimeout(r, 2));
          continue;
        }
        idle = 0;
        const batch = body.data.batch as Batch;
        const results: Result[] = batch.items.filter((i) => i.id !== null).map((i) => ({
          id: i.id as number, status: random() < 0.1 ? 'failed' : 'sent', reason: 'SIM_FAIL',
        }));
        if (!expired && random() < 0.03) {
          heldBack.push({ token, batchId: batch.batchId, results }); // reported only after its lease ended
          continue;
        }
        const cut = Math.floor(random() * results.length);
        await send(token, batch.batchId, results.slice(0, cut));
        if (random() < 0.1) await send(token, batch.batchId, results.slice(0, cut)); // a repeat
        await send(token, batch.batchId, results.slice(cut));
        if (random() < 0.1) await send(token, batch.batchId, results); // a repeat of the whole batch
      }
      throw new Error('a device waited too long for numbers');
    };

    // The lease expiry in the middle: once about 40% is final, every open lease ends; then the
    // held-back batches report late (their numbers may have gone to other devices by then).
    const expiry = (async () => {
      for (;;) {
        const row = await finalCount();
        if (row.totalSendNum + row.failNum >= NUMBERS * 0.4 || row.taskStatus === TaskStatus.completed) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      t.clock.advance(LEASE_MS + 1);
      expired = true;
      await new Promise((r) => setTimeout(r, 20));
      for (const late of heldBack) await send(late.token, late.batchId, late.results);
    })();

    await Promise.all([...tokens.map(deviceLoop), expiry]);
    // Batches held back after the expiry check started would still be leased: expire and report them.
    t.clock.advance(LEASE_MS + 1);
    for (const late of heldBack) await send(late.token, late.batchId, late.results);
    await Promise.all(tokens.map(deviceLoop));

    const states = await t.ctx.db.selectFrom('sync_task_number').select(['state', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('taskId', '=', taskId).groupBy('state').execute();
    const byState = Object.fromEntries(states.map((r) => [r.state, Number(r.n)]));
    expect(byState[TaskNumberState.pending] ?? 0, `seed ${seed}`).toBe(0);
    expect(byState[TaskNumberState.leased] ?? 0, `seed ${seed}`).toBe(0);
    expect((byState[TaskNumberState.sent] ?? 0) + (byState[TaskNumberState.failed] ?? 0), `seed ${seed}`).toBe(NUMBERS);
    // What the devices were told was counted is exactly what the rows say.
    expect(acceptedSent, `seed ${seed}`).toBe(byState[TaskNumberState.sent]);
    expect(acceptedFailed, `seed ${seed}`).toBe(byState[TaskNumberState.failed] ?? 0);
    expect(heldBack.length, `seed ${seed}`).toBeGreaterThan(0);

    const task = await finalCount();
    expect(task.taskStatus).toBe(TaskStatus.completed);
    await expectCountersMatchRows(t.ctx.db, taskId, { quota: new Map(codes.map((c) => [c, QUOTA])) });
    const overTried = await t.ctx.db.selectFrom('sync_task_number').select('id').where('taskId', '=', taskId).where('attempts', '>', 3).limit(1).execute();
    expect(overTried).toEqual([]);
  }, 120_000);
});
