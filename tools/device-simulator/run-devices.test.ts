import { afterAll, beforeAll, expect, it } from 'vitest';
import { TaskNumberState, TaskStatus } from '@huiyun/contract';
import { startTestApp, type TestApp } from '../../server/src/test/harness.ts';
import { expectCountersMatchRows, insertAuthCode, insertSendingTask, phoneNumbers } from '../../server/src/test/devices.ts';
import { runDevices } from './run-devices.ts';
import { seededRandom as seeded } from '../lib/seeded-random.ts';

// The simulator against the real server over loopback HTTP (SQLite, or PostgreSQL in the
// server-postgres project): a task sent to the end by 5 devices that fail, repeat and hold back
// reports. Leases last 5 s so held-back (late) reports come within the test.

const DEVICES = 5;
const NUMBERS = 400;
const QUOTA = 10_000;

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await startTestApp({ DEVICE_LEASE_SECONDS: '5', DEVICE_MAX_ATTEMPTS: '3' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t?.close());

// A report held back near the end arrives 6 s later, and the numbers its lease gave back may be held
// back again by the next device: about 10–17 s on a loaded machine, hence the longer timeout.
it('sends every number of a task exactly once: final once, counters equal a recount', { timeout: 40_000 }, async () => {
  const ownerId = await t.createUser({ userName: 'sim_owner' });
  const codes: string[] = [];
  for (let i = 0; i < DEVICES; i++) codes.push(await insertAuthCode(t, ownerId, { dueNum: QUOTA }));
  const prefix = 'sim-test';
  const machineCodes = codes.map((_, i) => `${prefix}-${i + 1}`);
  const taskId = await insertSendingTask(t, ownerId, machineCodes, phoneNumbers(NUMBERS), {
    batchSendNum: 5, batchSendMaxNum: 15, singleSendNumDay: QUOTA, intervalSeconds: 3, testNum: 50, testPhone: '13900000000',
  });

  const stats = await runDevices({
    server: url, codes, machinePrefix: prefix, speed: Infinity, failRate: 0.2, undeliveredRate: 0.1, duplicateRate: 0.2, lateRate: 0.15, reportEvery: 4,
    untilIdle: true, idleMs: 300, waitFloorMs: 100, retry: { firstDelayMs: 50, maxDelayMs: 500 }, random: seeded(7),
  });

  expect(stats).toMatchObject({ refused: 0, errors: 0, retries: 0, duplicatesApplied: 0 });
  expect(stats.duplicateReports).toBeGreaterThan(0);
  expect(stats.lateReports).toBeGreaterThan(0);
  expect(stats.waits.taskCompleted).toBeGreaterThan(0);

  const rows = await t.ctx.db.selectFrom('sync_task_number').select(['state', 'attempts']).where('taskId', '=', taskId).execute();
  expect(rows).toHaveLength(NUMBERS);
  const sent = rows.filter((r) => r.state === TaskNumberState.sent).length;
  const failed = rows.filter((r) => r.state === TaskNumberState.failed);
  expect(sent + failed.length).toBe(NUMBERS);
  expect(failed.every((r) => r.attempts === 3)).toBe(true);
  // What the answers said was applied adds up to the rows: no number counted twice, none lost
  // (no call was retried, so no answer was lost on the way).
  expect([stats.sent, stats.failed]).toEqual([sent, failed.length]);

  const task = await t.ctx.db.selectFrom('sync_task').select(['taskStatus', 'totalSendNum', 'failNum', 'deliveredNum', 'undeliveredNum']).where('taskId', '=', taskId).executeTakeFirstOrThrow();
  expect(task).toMatchObject({ taskStatus: TaskStatus.completed, totalSendNum: sent, failNum: failed.length });
  // Every sent number got one counted receipt, whatever was repeated; undelivered ones among them.
  const outcomes = await t.ctx.db.selectFrom('sync_task_number').select('deliveryState').where('taskId', '=', taskId).where('state', '=', TaskNumberState.sent).execute();
  expect(outcomes.every((r) => r.deliveryState !== null)).toBe(true);
  expect([stats.delivered, stats.undelivered]).toEqual([task.deliveredNum, task.undeliveredNum]);
  expect(task.deliveredNum + task.undeliveredNum).toBe(sent);
  expect(task.undeliveredNum).toBeGreaterThan(0);
  await expectCountersMatchRows(t.ctx.db, taskId, { quota: new Map(codes.map((c) => [c, QUOTA])) });
});

