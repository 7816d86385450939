import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, RoleId, shanghaiDay } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';

const m = messages.statistics;
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
let admin: string;
let demoAdmin: string;
let otherAdmin: string;
let user1: string;
let demoDeptId: number;
let otherDeptId: number;
let demoAdminId: number;
let user1Id: number;
let otherUserId: number;

const counters = { totalSendNum: 0, smcount: 0, sucount: 0, stcount: 0, socount: 0, sendNum: 0, hisTotalSendNum: 0 };
type Counters = typeof counters;

/** What the sending engine moves: set directly here. */
async function setCounters(userId: number, values: Partial<Counters>) {
  await t.ctx.db.updateTable('sys_user').set(values).where('userId', '=', userId).execute();
}
const countersOf = (userId: number) =>
  t.ctx.db
    .selectFrom('sys_user')
    .select(['totalSendNum', 'smcount', 'sucount', 'stcount', 'socount', 'sendNum', 'hisTotalSendNum'])
    .where('userId', '=', userId)
    .executeTakeFirst();

async function setDaily(userId: number, day: string, sendCount: number, deliveredCount = 0) {
  await t.ctx.db.deleteFrom('sync_send_daily').where('userId', '=', userId).where('day', '=', day).execute();
  await t.ctx.db.insertInto('sync_send_daily').values({ userId, day, sendCount, deliveredCount }).execute();
}

const call = (url: string, token: string, body: unknown = {}) => t.call('POST', url, { token, body });
const totals = (token: string) => call('/sync/queryStatisticsTotal', token);
const list = (token: string, body: Record<string, unknown> = {}) =>
  call('/sync/queryTaskUserStatisticsList', token, { pageNum: 1, pageSize: 100, ...body });

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  demoDeptId = (await t.ctx.db.selectFrom('sys_dept').select('deptId').where('deptNo', '=', 'DEMO').executeTakeFirstOrThrow()).deptId;
  otherDeptId = await t.createCompany('另一家公司', 'OTHER');
  demoAdminId = await t.createUser({ userName: 'demoadmin', roleId: RoleId.companyAdmin, deptId: demoDeptId });
  await t.createUser({ userName: 'otheradmin', roleId: RoleId.companyAdmin, deptId: otherDeptId });
  user1Id = await t.createUser({ userName: 'user1', deptId: demoDeptId });
  otherUserId = await t.createUser({ userName: 'otheruser', deptId: otherDeptId });
  demoAdmin = await t.login('demoadmin', 'User@12345');
  otherAdmin = await t.login('otheradmin', 'User@12345');
  user1 = await t.login('user1', 'User@12345');
});
afterAll(async () => t?.close());

describe('send statistics', () => {
  it('starts at zero: nothing fake is seeded', async () => {
    expect((await totals(admin)).body).toMatchObject({ success: true, data: { hisTotalCount: 0, totalCount: 0, todayCount: 0, yesterdayCount: 0, todayDeliveredCount: 0 } });
    const rows = (await list(admin)).body.data as Counters[];
    for (const row of rows) expect(row).toMatchObject({ totalSendNum: 0, smcount: 0, sucount: 0, stcount: 0, socount: 0, sendNum: 0 });
  });

  it('sums the visible accounts; today and yesterday are Asia/Shanghai days', async () => {
    const now = Date.now();
    const today = shanghaiDay(now);
    const yesterday = shanghaiDay(now - DAY_MS);
    const before = shanghaiDay(now - 2 * DAY_MS);
    await setCounters(user1Id, { totalSendNum: 100, smcount: 50, sucount: 30, stcount: 15, socount: 5, sendNum: 7, hisTotalSendNum: 1000 });
    await setCounters(otherUserId, { totalSendNum: 20, smcount: 20, sendNum: 3, hisTotalSendNum: 200 });
    await setDaily(user1Id, today, 11, 9);
    await setDaily(user1Id, yesterday, 22, 20);
    await setDaily(user1Id, before, 999);
    await setDaily(otherUserId, today, 4);

    expect((await totals(admin)).body.data).toEqual({ hisTotalCount: 1200, totalCount: 120, todayCount: 15, yesterdayCount: 22, todayDeliveredCount: 9 });
    expect((await totals(demoAdmin)).body.data).toEqual({ hisTotalCount: 1000, totalCount: 100, todayCount: 11, yesterdayCount: 22, todayDeliveredCount: 9 });
    expect((await totals(otherAdmin)).body.data).toEqual({ hisTotalCount: 200, totalCount: 20, todayCount: 4, yesterdayCount: 0, todayDeliveredCount: 0 });
    expect((await totals(user1)).body.data).toEqual({ hisTotalCount: 1000, totalCount: 100, todayCount: 11, yesterdayCount: 22, todayDeliveredCount: 9 });
  });

  it('lists the counters of the visible accounts, filtered and paged', async () => {
    const mine = await list(user1);
    expect(mine.body.total).toBe(1);
    expect(mine.body.data[0]).toEqual({ userId: user1Id, userName: 'user1', totalSendNum: 100, smcount: 50, sucount: 30, stcount: 15, socount: 5, sendNum: 7, deliveredNum: 0 });
    const demo = (await list(demoAdmin)).body.data as { userName: string }[];
    expect(demo.map((r) => r.userName)).toEqual(expect.arrayContaining(['demoadmin', 'user1']));
    expect(demo.map((r) => r.userName)).not.toContain('otheruser');
    const filtered = await list(admin, { userName: 'OTHER' });
    expect(filtered.body.data.map((r: { userName: string }) => r.userName).sort()).toEqual(['otheradmin', 'otheruser']);
    for (let i = 0; i < 11; i++) await t.createUser({ userName: `pagesub${String(i).padStart(2, '0')}`, deptId: demoDeptId });
    const first = await list(admin, { userName: 'pagesub', pageNum: 1, pageSize: 10 });
    expect(first.body.total).toBe(11);
    expect(first.body.data).toHaveLength(10);
    // Newest first, like every list: the last account made leads page 1.
    expect(first.body.data[0].userName).toBe('pagesub10');
    const second = await list(admin, { userName: 'pagesub', pageNum: 2, pageSize: 10 });
    expect(second.body.data.map((r: { userName: string }) => r.userName)).toEqual(['pagesub00']);
  });

  it('creates a sub-account: an ordinary user of the creator company who can log in and sees the task links', async () => {
    const answer = await call('/sync/saveTaskUser', otherAdmin, { userName: 'sub.one', passwd: 'secret1' });
    expect(answer.body).toMatchObject({ success: true, msg: m.saved });
    const created = await t.ctx.db.selectFrom('sys_user').selectAll().where('userName', '=', 'sub.one').executeTakeFirstOrThrow();
    expect(created).toMatchObject({ roleId: RoleId.ordinaryUser, deptId: otherDeptId, isLock: 'N', totalSendNum: 0, hisTotalSendNum: 0 });
    expect(created.passwordHash).not.toContain('secret1');
    const token = await t.login('sub.one', 'secret1');
    const me = await t.call('GET', '/sync/currentUser', { token });
    expect(me.body.data.code).toBe(0);
    const links = (me.body.data.menus as { moduleUrl: string; children: { moduleUrl: string }[] }[]).flatMap((g) => g.children.map((c) => c.moduleUrl));
    expect(links).toEqual(['/task/index', '/task/authcode', '/task/userStatistics', '/task/updatePasswd', '/task/blacklist', '/task/reply']);
    expect((await list(token)).body.data.map((r: { userName: string }) => r.userName)).toEqual(['sub.one']);
    expect((await list(otherAdmin)).body.data.map((r: { userName: string }) => r.userName)).toContain('sub.one');
  });

  it('answers each field its own message, keeps names unique and writes nothing', async () => {
    const count = async () => (await t.ctx.db.selectFrom('sys_user').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    const before = Number(await count());
    const cases: [Record<string, unknown>, string][] = [
      [{ passwd: 'secret1' }, m.userNameRequired],
      [{ userName: '  ', passwd: 'secret1' }, m.userNameRequired],
      [{ userName: 'has space', passwd: 'secret1' }, m.userNameFormat],
      [{ userName: 'x'.repeat(65), passwd: 'secret1' }, m.userNameTooLong],
      [{ userName: 'nopass' }, m.passwdRequired],
      [{ userName: 'nopass', passwd: '' }, m.passwdRequired],
      [{ userName: 'shortpass', passwd: '12345' }, m.passwdTooShort],
      [{ userName: 'user1', passwd: 'secret1' }, m.userNameTaken],
    ];
    for (const [body, message] of cases) {
      const answer = await call('/sync/saveTaskUser', admin, body);
      expect(answer.status, message).toBe(400);
      expect(answer.body).toMatchObject({ success: false, msg: message, errorInfo: message });
    }
    expect(Number(await count())).toBe(before);
  });

  it('clears the total (with split) and the single-run count', async () => {
    await setCounters(user1Id, { totalSendNum: 100, smcount: 50, sucount: 30, stcount: 15, socount: 5, sendNum: 7, hisTotalSendNum: 1000 });
    const total = await call('/sync/chearTaskUserTotalSendNum', demoAdmin, { taskUserId: user1Id });
    expect(total.body).toMatchObject({ success: true, msg: m.cleared });
    expect(await countersOf(user1Id)).toEqual({ ...counters, sendNum: 7, hisTotalSendNum: 1000 });
    const single = await call('/sync/chearTaskUserSendNum', demoAdmin, { taskUserId: String(user1Id) });
    expect(single.body).toMatchObject({ success: true, msg: m.cleared });
    expect(await countersOf(user1Id)).toEqual({ ...counters, hisTotalSendNum: 1000 });
  });

  it('refuses clears to ordinary users, outside the scope, on unknown accounts, and changes nothing', async () => {
    await setCounters(user1Id, { totalSendNum: 9, sendNum: 9 });
    const before = await countersOf(user1Id);
    for (const url of ['/sync/chearTaskUserTotalSendNum', '/sync/chearTaskUserSendNum', '/sync/deleteTaskUser']) {
      const asUser = await call(url, user1, { taskUserId: user1Id });
      expect(asUser.status, url).toBe(403);
      expect(asUser.body.msg).toBe(messages.common.forbidden);
      const outside = await call(url, otherAdmin, { taskUserId: user1Id });
      expect(outside.status, url).toBe(403);
      expect(outside.body.msg).toBe(messages.common.outOfScope);
      expect((await call(url, admin, { taskUserId: 99999 })).body.msg).toBe(m.notFound);
      expect((await call(url, admin, {})).body.msg).toBe(messages.common.badParameter);
    }
    const asUser = await call('/sync/saveTaskUser', user1, { userName: 'byuser', passwd: 'secret1' });
    expect(asUser.status).toBe(403);
    // a company administrator never touches the super administrator's account
    const onAdmin = await call('/sync/chearTaskUserSendNum', demoAdmin, { taskUserId: 1 });
    expect(onAdmin.status).toBe(403);
    expect(onAdmin.body.msg).toBe(m.superAdminProtected);
    expect(await countersOf(user1Id)).toEqual(before);
  });

  it('clears every history total for account 1 only', async () => {
    await setCounters(user1Id, { hisTotalSendNum: 1000 });
    await setCounters(otherUserId, { hisTotalSendNum: 200 });
    for (const token of [demoAdmin, otherAdmin, user1]) {
      const refused = await call('/sync/chearHisTaskUserTotalSendNum', token);
      expect(refused.status).toBe(403);
    }
    expect((await call('/sync/chearHisTaskUserTotalSendNum', demoAdmin)).body.msg).toBe(m.onlyAccountOne);
    expect((await totals(admin)).body.data.hisTotalCount).toBe(1200);
    // demoadmin and otheradmin hold the clear permission: the rule is the account, not the code
    const answer = await call('/sync/chearHisTaskUserTotalSendNum', admin);
    expect(answer.body).toMatchObject({ success: true, msg: m.cleared });
    expect((await totals(admin)).body.data.hisTotalCount).toBe(0);
    expect((await countersOf(user1Id))!.hisTotalSendNum).toBe(0);
  });

  it('deletes an account with its tasks, codes and daily counts; never account 1 nor yourself', async () => {
    const subId = await t.createUser({ userName: 'doomed', deptId: demoDeptId });
    const subToken = await t.login('doomed', 'User@12345');
    const now = Date.now();
    const task = await t.ctx.db
      .insertInto('sync_task')
      .values({
        taskName: 'doomed task', showType: 1, content: 'x', imgUrl: '', fileNo: '', fileName: '', qrUrl: 'http://', taskStatus: 0,
        singleSendNumDay: 300, batchSendNum: 10, batchSendMaxNum: 10, intervalSeconds: 1, testNum: 0, testPhone: '', clearNum: 0,
        isRandomNum: 0, randomPosition: 0, userId: subId, deptId: demoDeptId, addTime: now, editTime: now,
      })
      .returning('taskId')
      .executeTakeFirstOrThrow();
    await t.ctx.db.insertInto('sync_task_number').values({ taskId: task.taskId, phone: 13800138000, carrier: 1 }).execute();
    await t.ctx.db.insertInto('sync_task_device').values({ taskId: task.taskId, machineCode: 'DOOMED-M' }).execute();
    await t.ctx.db
      .insertInto('sync_auth_code')
      .values({ authCode: 'DOOMED-CODE', authUserId: subId, useStatus: 1, machineCode: 'DOOMED-M', machineName: 'x', dueNum: 1, dueDateNum: 1, dueDate: now, addTime: now, editTime: now })
      .execute();
    await setDaily(subId, shanghaiDay(now), 5);
    await t.ctx.db.insertInto('sync_reply').values({
      deptId: demoDeptId, userId: subId, authCodeId: 0, machineCode: 'DOOMED-M', machineName: 'x', messageId: 'in-1', phone: '13800138000',
      content: 'TD', receivedAt: now, createdAt: now, taskId: task.taskId, unsubscribed: 1,
    }).execute();

    expect((await call('/sync/deleteTaskUser', admin, { taskUserId: 1 })).body.msg).toBe(m.cannotDeleteAdmin);
    expect((await call('/sync/deleteTaskUser', demoAdmin, { taskUserId: demoAdminId })).body.msg).toBe(m.cannotDeleteSelf);

    const answer = await call('/sync/deleteTaskUser', demoAdmin, { taskUserId: subId });
    expect(answer.body).toMatchObject({ success: true, msg: m.deleted });
    const db = t.ctx.db;
    expect(await db.selectFrom('sys_user').select('userId').where('userId', '=', subId).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('sync_task').select('taskId').where('userId', '=', subId).execute()).toEqual([]);
    expect(await db.selectFrom('sync_task_number').select('id').where('taskId', '=', task.taskId).execute()).toEqual([]);
    expect(await db.selectFrom('sync_task_device').select('taskId').where('machineCode', '=', 'DOOMED-M').execute()).toEqual([]);
    expect(await db.selectFrom('sync_reply').select('id').where('userId', '=', subId).execute()).toEqual([]);
    expect(await db.selectFrom('sync_auth_code').select('id').where('authUserId', '=', subId).execute()).toEqual([]);
    expect(await db.selectFrom('sync_send_daily').select('day').where('userId', '=', subId).execute()).toEqual([]);
    expect((await totals(subToken)).status).toBe(401);
  });

  it('exports the list as a spreadsheet', async () => {
    const answer = await t.call('POST', '/sync/exportTaskUserStatisticsList', { token: admin, body: { userName: 'user' } });
    expect(answer.status).toBe(200);
    expect(answer.raw.headers['content-type']).toContain('spreadsheetml');
  });
});
