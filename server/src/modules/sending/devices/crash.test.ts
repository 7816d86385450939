import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyCarrier, TaskNumberState, TaskStatus } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { serverOnTestDatabase, type ServerProcess } from '../../../test/server-process.ts';
import { TASK_DEFAULTS } from '../../../test/rows.ts';
import { DeviceClient } from '../../../../../tools/device-simulator/device-client.ts';
import { expectCountersMatchRows, phoneNumbers } from '../../../test/devices.ts';

// The crash test: a real server process is killed with SIGKILL twice while ten devices
// send over HTTP, and started again on the same database. Devices retry what failed (reports are
// idempotent), leases of the dead process end and their numbers go back to pending. Afterwards every
// number is final exactly once and every counter equals a recount from the number rows.

const DEVICES = 10;
const NUMBERS = 4_000;
const LEASE_SECONDS = 2;

let db: Kysely<Database>;
let server: ServerProcess;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ server, db, close } = await serverOnTestDatabase({ DEVICE_LEASE_SECONDS: String(LEASE_SECONDS), DEVICE_MAX_ATTEMPTS: '3' }));
}, 60_000);

afterAll(async () => close?.());

async function setUp(): Promise<{ taskId: number; codes: string[] }> {
  const now = Date.now();
  const owner = await db.insertInto('sys_user').values({
    userName: 'crash_owner', userRealName: 'crash', passwordHash: 'x', userSex: '男', userMobile: '', userEmail: '', isLock: 'N', deptId: 1,
    roleId: 2, systemNo: 'huiyun', addUser: 't', editUser: 't', addTime: now, editTime: now,
  }).returning('userId').executeTakeFirstOrThrow();
  const codes = Array.from({ length: DEVICES }, (_, i) => `CRASH${String(i).padStart(4, '0')}`);
  await db.insertInto('sync_auth_code').values(codes.map((authCode) => ({
    authCode, authUserId: owner.userId, dueNum: 100_000, dueDateNum: 30, dueDate: now + 30 * 86_400_000, addUserId: 1, deptId: 1, addTime: now, editTime: now,
  }))).execute();
  const task = await db.insertInto('sync_task').values({
    ...TASK_DEFAULTS, taskName: 'crash', batchSendNum: 20, batchSendMaxNum: 50, singleSendNumDay: 100_000, userId: owner.userId, deptId: 1,
    taskStatus: TaskStatus.running, totalNum: NUMBERS, addTime: now, editTime: now,
  }).returning('taskId').executeTakeFirstOrThrow();
  await db.insertInto('sync_task_device').values(codes.map((_, i) => ({ taskId: task.taskId, machineCode: `crash-${i}` }))).execute();
  const phones = phoneNumbers(NUMBERS);
  for (let i = 0; i < phones.length; i += 500) {
    await db.insertInto('sync_task_number')
      .values(phones.slice(i, i + 500).map((p) => ({ taskId: task.taskId, phone: Number(p), carrier: classifyCarrier(p) })))
      .execute();
  }
  return { taskId: task.taskId, codes };
}

describe('SIGKILL during sending', () => {
  it('loses no number and counts none twice', async () => {
    const { taskId, codes } = await setUp();
    let reportsSent = 0;
    // The simulator's protocol client: network errors and 5xx (the server is being restarted) are
    // retried until it answers; reports are idempotent, so a retried one never counts twice.
    const device = async (code: string, i: number) => {
      const client = new DeviceClient(server.url, { retry: { firstDelayMs: 20, maxDelayMs: 500 } });
      await client.activate({ authCode: code, machineCode: `crash-${i}`, machineName: `crash-${i}` });
      for (;;) {
        const pulled = await client.pull();
        if (pulled.wait) {
          if (pulled.wait.reason === 'taskCompleted') return;
          await new Promise((r) => setTimeout(r, 100)); // numbers held by the dead process come back when their lease ends
          continue;
        }
        const { batchId, items } = pulled.batch;
        const results = items.flatMap((it, k) => (it.id === null ? [] : [{ id: it.id, status: (it.id + k) % 13 === 0 ? 'failed' as const : 'sent' as const }]));
        for (let k = 0; k < results.length; k += 10) {
          await client.report({ batchId, results: results.slice(k, k + 10) });
          reportsSent += 1;
        }
      }
    };
    const devices = Promise.all(codes.map(device));

    const finalAtKill: number[] = [];
    for (const share of [0.25, 0.6]) {
      for (;;) {
        const row = await db.selectFrom('sync_task').select(['totalSendNum', 'failNum']).where('taskId', '=', taskId).executeTakeFirstOrThrow();
        if (row.totalSendNum + row.failNum >= NUMBERS * share) {
          finalAtKill.push(row.totalSendNum + row.failNum);
          break;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      await server.kill();
      await server.start();
    }
    await devices;

    const open = await db.selectFrom('sync_task_number').select('id').where('taskId', '=', taskId)
      .where('state', 'in', [TaskNumberState.pending, TaskNumberState.leased]).execute();
    expect(open).toEqual([]);
    expect(reportsSent).toBeGreaterThan(0);
    for (const done of finalAtKill) expect(done).toBeLessThan(NUMBERS); // both kills landed mid-sending
    await expectCountersMatchRows(db, taskId, { quota: new Map(codes.map((c) => [c, 100_000])) });
  }, 120_000);
});
