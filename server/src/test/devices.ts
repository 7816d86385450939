import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { RoleId, TaskNumberState, TaskStatus } from '@huiyun/contract';
import type { Database } from '../db/schema.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './harness.ts';
import { TASK_DEFAULTS } from './rows.ts';
import { importNumbers } from '../modules/sending/tasks/index.ts';

// Helpers of the sending-engine tests (not used by the server).

const DAY_MS = 24 * 60 * 60 * 1000;
let codeSeq = 0;

/** An authorization code straight in the database; answers the code text. */
export async function insertAuthCode(t: TestApp, ownerId: number, values: { dueNum?: number; days?: number; deptId?: number | null } = {}): Promise<string> {
  const now = t.ctx.now();
  const authCode = `T${String(++codeSeq).padStart(5, '0')}${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  await t.ctx.db
    .insertInto('sync_auth_code')
    .values({
      authCode, authUserId: ownerId, dueNum: values.dueNum ?? 1_000_000, dueDateNum: values.days ?? 30,
      dueDate: now + (values.days ?? 30) * DAY_MS, addUserId: 1, deptId: values.deptId ?? 1, addTime: now, editTime: now,
    })
    .execute();
  return authCode;
}

/** Activates a device over the protocol; answers its token. */
export async function activate(t: TestApp, authCode: string, machineCode: string, machineName = machineCode): Promise<string> {
  const { body } = await t.call('POST', '/device/v1/activate', { body: { authCode, machineCode, machineName } });
  if (!body.success) throw new Error(`activation of ${machineCode} failed: ${body.msg}`);
  return body.data.deviceToken as string;
}

export type TaskValues = Partial<typeof TASK_DEFAULTS> & { taskStatus?: number; deptId?: number | null; sendStartTime?: string; sendEndTime?: string };

/** A task of the owner, assigned to the devices, holding the numbers (through the real import). */
export async function insertSendingTask(
  t: TestApp, ownerId: number, machineCodes: string[], numbers: string[], values: TaskValues = {},
): Promise<number> {
  const now = t.ctx.now();
  const { taskStatus, deptId, ...columns } = values;
  const row = await t.ctx.db
    .insertInto('sync_task')
    .values({ ...TASK_DEFAULTS, ...columns, taskName: `send_${now}_${Math.random()}`, userId: ownerId, deptId: deptId === undefined ? 1 : deptId, taskStatus: TaskStatus.running, addTime: now, editTime: now })
    .returning('taskId')
    .executeTakeFirstOrThrow();
  if (machineCodes.length) await t.ctx.db.insertInto('sync_task_device').values(machineCodes.map((machineCode) => ({ taskId: row.taskId, machineCode }))).execute();
  if (numbers.length) await importNumbers(t.ctx, { taskId: row.taskId, deptId: deptId === undefined ? 1 : deptId }, Readable.from([Buffer.from(numbers.join('\n'))]));
  if (taskStatus !== undefined) await t.ctx.db.updateTable('sync_task').set({ taskStatus }).where('taskId', '=', row.taskId).execute();
  return row.taskId;
}

/** `count` distinct valid mobile numbers starting at 138 00000000 + start. */
export const phoneNumbers = (count: number, start = 0) => Array.from({ length: count }, (_, i) => String(13_800_000_000 + start + i));

/** The device token where devices send it, the only place it is read: `Authorization: Bearer`. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const pull = (t: TestApp, token: string) => t.call('POST', '/device/v1/pull', { headers: bearer(token), body: {} });
export const report = (t: TestApp, token: string, batchId: string, results: { id: number; status: 'sent' | 'failed'; reason?: string }[]) =>
  t.call('POST', '/device/v1/report', { headers: bearer(token), body: { batchId, results } });

/**
 * The invariant of the engine: every counter equals a recount from the number rows. Checks the
 * task, its owner (all-time totals against everything the owner's tasks sent, when `ownerTotals`),
 * the per-day rows and the codes' remaining quota (`quota`: code → what it was granted).
 */
export async function expectCountersMatchRows(db: Kysely<Database>, taskId: number, options: { quota?: Map<string, number> } = {}) {
  const task = await db.selectFrom('sync_task').selectAll().where('taskId', '=', taskId).executeTakeFirstOrThrow();
  const byState = await db.selectFrom('sync_task_number').select(['state', 'carrier', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('taskId', '=', taskId).groupBy(['state', 'carrier']).execute();
  const count = (state: number, carrier?: number) =>
    byState.filter((r) => r.state === state && (carrier === undefined || r.carrier === carrier)).reduce((a, r) => a + Number(r.n), 0);
  expect(task.totalSendNum).toBe(count(TaskNumberState.sent));
  expect([task.smcount, task.sucount, task.stcount, task.socount]).toEqual([1, 2, 3, 4].map((c) => count(TaskNumberState.sent, c)));
  expect(task.failNum).toBe(count(TaskNumberState.failed));
  expect(task.doneNum).toBe(count(TaskNumberState.sent) + count(TaskNumberState.failed) + count(TaskNumberState.blocked));
  const open = count(TaskNumberState.pending) + count(TaskNumberState.leased);
  if (task.totalNum > 0) expect(task.taskStatus === TaskStatus.completed).toBe(open === 0);

  const owner = await db.selectFrom('sys_user').selectAll().where('userId', '=', task.userId).executeTakeFirstOrThrow();
  const ownerSent = await db.selectFrom('sync_task_number as n').innerJoin('sync_task as t', 't.taskId', 'n.taskId')
    .select((eb) => eb.fn.countAll<number | string>().as('n')).where('t.userId', '=', task.userId).where('n.state', '=', TaskNumberState.sent).executeTakeFirstOrThrow();
  expect(owner.totalSendNum).toBe(Number(ownerSent.n));
  expect(owner.hisTotalSendNum).toBe(Number(ownerSent.n));
  const daily = await db.selectFrom('sync_send_daily').select((eb) => eb.fn.sum<number | string>('sendCount').as('n')).where('userId', '=', task.userId).executeTakeFirst();
  expect(Number(daily?.n ?? 0)).toBe(Number(ownerSent.n));

  for (const [authCode, granted] of options.quota ?? []) {
    const code = await db.selectFrom('sync_auth_code').select(['dueNum', 'machineCode']).where('authCode', '=', authCode).executeTakeFirstOrThrow();
    const sentBy = await db.selectFrom('sync_task_number').select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('machineCode', '=', code.machineCode ?? '').where('state', '=', TaskNumberState.sent).executeTakeFirstOrThrow();
    expect(code.dueNum, authCode).toBe(granted - Number(sentBy.n));
    const deviceDaily = await db.selectFrom('sync_device_daily').select((eb) => eb.fn.sum<number | string>('sendCount').as('n')).where('machineCode', '=', code.machineCode ?? '').executeTakeFirst();
    expect(Number(deviceDaily?.n ?? 0), authCode).toBe(Number(sentBy.n));
  }
}

/**
 * Moves the test app's clock to the next instant at Beijing time `hhmm` (seconds `:ss` optional), so
 * tests of the sending window never depend on the real hour; answers the move, to undo with advance(-it).
 */
export function setBeijingTime(t: TestApp, hhmm: string): number {
  const [h, m, s = 0] = hhmm.split(':').map(Number);
  const target = (h * 3600 + m * 60 + s) * 1000;
  const sinceMidnight = (t.ctx.now() + 8 * 3_600_000) % DAY_MS;
  const move = (target - sinceMidnight + DAY_MS) % DAY_MS;
  t.clock.advance(move);
  return move;
}

/** A device's lease in the device tests (DEVICE_LEASE_SECONDS). */
export const LEASE_MS = 60_000;

/** What a device test file shares: its app, an owner, another user, and the tokens of the owner and the super administrator. */
export type DeviceTestApp = {
  t: TestApp;
  ownerId: number;
  otherId: number;
  ownerToken: string;
  adminToken: string;
  /** A fresh device of the owner (or of `owner`): its code, machineCode and token. */
  newDevice: (values?: { dueNum?: number; days?: number; owner?: number }) => Promise<{ code: string; machineCode: string; token: string }>;
};

/** The app of one device test file: leases of LEASE_MS, two tries a number. */
export async function startDeviceTestApp(): Promise<DeviceTestApp> {
  const t = await startTestApp({ DEVICE_LEASE_SECONDS: String(LEASE_MS / 1000), DEVICE_MAX_ATTEMPTS: '2' });
  const ownerId = await t.createUser({ userName: 'dev_owner' });
  const otherId = await t.createUser({ userName: 'dev_other' });
  await t.createUser({ userName: 'dev_admin', roleId: RoleId.companyAdmin });
  const ownerToken = await t.login('dev_owner', 'User@12345');
  const adminToken = await t.login('admin', ADMIN_PASSWORD);
  let deviceSeq = 0;
  const newDevice: DeviceTestApp['newDevice'] = async (values = {}) => {
    const code = await insertAuthCode(t, values.owner ?? ownerId, values);
    const machineCode = `dev-${++deviceSeq}`;
    const token = await activate(t, code, machineCode, `设备${deviceSeq}`);
    return { code, machineCode, token };
  };
  return { t, ownerId, otherId, ownerToken, adminToken, newDevice };
}
