import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthCodeUseStatus, fill, messages, RoleId, ShowType, TaskStatus } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';

const m = messages.task;

let t: TestApp;
let admin: string;
let user1: string;
let user2: string;
let adminA: string;
let adminB: string;
let user1Id: number;
let user2Id: number;
let userBId: number;

beforeAll(async () => {
  t = await startTestApp();
  const now = Date.now();
  const companyB = await t.createCompany('另一家公司', 'TASK_B');
  user1Id = await t.createUser({ userName: 'task_user1' });
  user2Id = await t.createUser({ userName: 'task_user2' });
  userBId = await t.createUser({ userName: 'task_userB', deptId: companyB });
  await t.createUser({ userName: 'task_adminA', roleId: RoleId.companyAdmin, deptId: 1 });
  await t.createUser({ userName: 'task_adminB', roleId: RoleId.companyAdmin, deptId: companyB });
  admin = await t.login('admin', ADMIN_PASSWORD);
  user1 = await t.login('task_user1', 'User@12345');
  user2 = await t.login('task_user2', 'User@12345');
  adminA = await t.login('task_adminA', 'User@12345');
  adminB = await t.login('task_adminB', 'User@12345');

  // Devices: user1 activated DEV-A1 and DEV-A2; DEV-U is user1's but never activated; DEV-2 is user2's.
  const code = (authCode: string, authUserId: number, machineCode: string | null, useStatus: number) => ({
    authCode, authUserId, machineCode, machineName: machineCode, useStatus, dueNum: 100, dueDateNum: 30, dueDate: now + 86_400_000, addTime: now, editTime: now,
  });
  await t.ctx.db
    .insertInto('sync_auth_code')
    .values([
      code('CODEA1', user1Id, 'DEV-A1', AuthCodeUseStatus.used),
      code('CODEA2', user1Id, 'DEV-A2', AuthCodeUseStatus.used),
      code('CODEU', user1Id, 'DEV-U', AuthCodeUseStatus.unused),
      code('CODE2', user2Id, 'DEV-2', AuthCodeUseStatus.used),
    ])
    .execute();
});
afterAll(async () => t?.close());

const call = (token: string, url: string, body: unknown = {}) => t.call('POST', url, { token, body });
const save = (token: string, body: Record<string, unknown>) => call(token, '/sync/saveTaskInfo', body);
const list = (token: string, body: Record<string, unknown> = {}) => call(token, '/sync/queryTaskInfoList', body);
const textTask = (taskName: string, extra: Record<string, unknown> = {}) => ({ taskName, showType: ShowType.text, content: '您好', ...extra });

async function addTask(token: string, taskName: string, extra: Record<string, unknown> = {}): Promise<number> {
  const answer = await save(token, textTask(taskName, extra));
  expect(answer.body).toMatchObject({ success: true, msg: m.saved });
  return answer.body.data.taskId as number;
}
async function taskRow(taskId: number) {
  return t.ctx.db.selectFrom('sync_task').selectAll().where('taskId', '=', taskId).executeTakeFirstOrThrow();
}
async function setStatus(taskId: number, taskStatus: number) {
  await t.ctx.db.updateTable('sync_task').set({ taskStatus }).where('taskId', '=', taskId).execute();
}
async function storeUpload(fileNo: string, userId: number, deptId: number | null) {
  await t.ctx.db
    .insertInto('sys_upload')
    .values({ fileNo, fileName: `${fileNo}.png`, filePath: `image/${fileNo}.png`, kind: 'image', size: 10, userId, deptId, addTime: Date.now() })
    .execute();
}

describe('task list', () => {
  it('adds a task with the SPEC §9 defaults and lists it with every Task field', async () => {
    const taskId = await addTask(user1, 'list_defaults', { machineCodeList: ['DEV-A1', 'DEV-A2'] });
    const answer = await list(user1, { taskName: 'list_defaults' });
    expect(answer.body).toMatchObject({ success: true, total: 1 });
    expect(answer.body.data[0]).toMatchObject({
      taskId, taskName: 'list_defaults', showType: ShowType.text, content: '您好', imgUrl: '', fileNo: '', fileName: '', qrUrl: 'http://',
      taskStatus: TaskStatus.running, singleSendNumDay: 300, batchSendNum: 10, batchSendMaxNum: 10, intervalSeconds: 1,
      machineCodeList: ['DEV-A1', 'DEV-A2'], testNum: 0, testPhone: '', clearNum: 0, isRandomNum: 0, randomPosition: 0,
      totalNum: 0, mcount: 0, ucount: 0, tcount: 0, ocount: 0, totalSendNum: 0, smcount: 0, sucount: 0, stcount: 0, socount: 0,
      userName: 'task_user1', userId: user1Id, deptId: 1,
    });
    expect(answer.body.data[0].addTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('pages with pageNum / pageSize (default 40), newest first, filters by name literally', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 45; i++) ids.push(await addTask(user2, `paging_${String(i).padStart(2, '0')}`));
    const first = await list(user2, { taskName: 'paging_' });
    expect(first.body.total).toBe(45);
    expect(first.body.data).toHaveLength(40);
    expect(first.body.data[0].taskId).toBe(ids[44]);
    const second = await list(user2, { taskName: 'paging_', pageNum: '2', pageSize: '40' });
    expect(second.body.data.map((r: { taskId: number }) => r.taskId)).toEqual(ids.slice(0, 5).reverse());
    const small = await list(user2, { taskName: 'paging_', pageNum: 3, pageSize: 10 });
    expect(small.body.data[0].taskName).toBe('paging_24');
    expect((await list(user2, { taskName: 'PAGING_4' })).body.total).toBe(5);
    expect((await list(user2, { taskName: '%' })).body.total).toBe(0);
    // GET with a query and a form body both work
    const viaGet = await t.call('GET', '/sync/queryTaskInfoList?pageNum=1&pageSize=5&taskName=paging_', { token: user2 });
    expect(viaGet.body.data).toHaveLength(5);
    const viaForm = await t.call('POST', '/sync/queryTaskInfoList', {
      token: user2, body: 'pageNum=1&pageSize=3&taskName=paging_', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(viaForm.body.data).toHaveLength(3);
  });

  it('shows ordinary users their own tasks and administrators those of their companies', async () => {
    const own1 = await addTask(user1, 'scope_u1');
    const own2 = await addTask(user2, 'scope_u2');
    const ownB = await addTask(await t.login('task_userB', 'User@12345'), 'scope_uB');
    const names = async (token: string) => (await list(token, { taskName: 'scope_' })).body.data.map((r: { taskId: number }) => r.taskId).sort();
    expect(await names(user1)).toEqual([own1]);
    expect(await names(user2)).toEqual([own2]);
    expect(await names(adminA)).toEqual([own1, own2].sort());
    expect(await names(adminB)).toEqual([ownB]);
    expect(await names(admin)).toEqual([own1, own2, ownB].sort());
    expect(userBId).toBeGreaterThan(0);
  });

  it('needs a login and the list permission', async () => {
    expect((await t.call('POST', '/sync/queryTaskInfoList', { body: {} })).status).toBe(401);
    const demo = await t.createUser({ userName: 'task_nolist', roleId: RoleId.demo });
    await t.ctx.db.deleteFrom('sys_role_permission').where('roleId', '=', RoleId.demo).execute();
    t.ctx.accessCache.invalidate('all');
    const token = await t.login('task_nolist', 'User@12345');
    const answer = await list(token);
    expect(answer.status).toBe(403);
    expect(answer.body.msg).toBe(messages.common.forbidden);
    expect(demo).toBeGreaterThan(0);
  });
});

describe('saving a task', () => {
  it('answers each field its own message and writes nothing', async () => {
    const before = (await list(admin)).body.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ showType: 1, content: 'x' }, m.taskNameRequired],
      [{ taskName: '   ', content: 'x' }, m.taskNameRequired],
      [textTask('x'.repeat(101)), m.taskNameTooLong],
      [textTask('v', { batchSendNum: 20, batchSendMaxNum: 10 }), m.batchMinAboveMax],
      [textTask('v', { batchSendNum: '20', batchSendMaxNum: '19' }), m.batchMinAboveMax],
      [textTask('v', { showType: 7 }), m.showTypeInvalid],
      [textTask('v', { showType: 'abc' }), m.showTypeInvalid],
      [textTask('v', { singleSendNumDay: 0 }), m.singleSendNumDayInvalid],
      [textTask('v', { singleSendNumDay: 1.5 }), m.singleSendNumDayInvalid],
      [textTask('v', { batchSendNum: -1 }), m.batchSendNumInvalid],
      [textTask('v', { batchSendMaxNum: 10_001 }), m.batchSendMaxNumInvalid],
      [textTask('v', { intervalSeconds: 3601 }), m.intervalSecondsInvalid],
      [textTask('v', { clearNum: -3 }), m.clearNumInvalid],
      [textTask('v', { isRandomNum: 2 }), m.isRandomNumInvalid],
      [textTask('v', { randomPosition: 5 }), m.randomPositionInvalid],
      [textTask('v', { testPhone: '12345' }), m.testPhoneInvalid],
      [textTask('v', { qrUrl: 'javascript:alert(1)' }), m.qrUrlInvalid],
      [textTask('v', { content: 'x'.repeat(4001) }), m.contentTooLong],
      [textTask('v', { content: '' }), m.contentRequired],
      [textTask('v', { machineCodeList: [{ a: 1 }] }), m.machineCodeInvalid],
      [{ taskName: 'v', showType: ShowType.image }, m.imageRequired],
      [{ taskName: 'v', showType: ShowType.file, content: 'x' }, m.fileRequired],
      [{ taskName: 'v', showType: ShowType.image, imgUrl: 'ftp://x/y.png' }, m.imgUrlInvalid],
      [{ taskName: 'v', showType: ShowType.image, fileNo: 'nosuchfile' }, m.fileUnknown],
      [textTask('v', { taskId: 'abc' }), messages.common.badParameter],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await save(admin, body);
      expect({ body, status, msg: answer.msg }).toEqual({ body, status: 400, msg: message });
      expect(answer.errorInfo).toBe(message);
    }
    expect((await list(admin)).body.total).toBe(before);
  });

  it('applies the showType rules of SPEC §4 on save', async () => {
    await storeUpload('img_u1', user1Id, 1);
    const full = { content: '正文', fileNo: 'img_u1', fileName: 'x.png' };
    const saved = async (showType: number) => taskRow(await addTask(user1, `show_${showType}`, { showType, ...full }));
    const link = '/download/file?filePath=image%2Fimg_u1.png';
    expect(await saved(ShowType.text)).toMatchObject({ content: '正文', imgUrl: '', fileNo: '', fileName: '' });
    expect(await saved(ShowType.image)).toMatchObject({ content: '', imgUrl: link, fileNo: 'img_u1', fileName: 'img_u1.png' });
    expect(await saved(ShowType.textImage)).toMatchObject({ content: '正文', imgUrl: link, fileNo: 'img_u1' });
    expect(await saved(ShowType.file)).toMatchObject({ content: '正文', imgUrl: link, fileNo: 'img_u1' });
    expect(await saved(ShowType.contact)).toMatchObject({ content: '', imgUrl: '', fileNo: '', fileName: '' });
    expect(await saved(ShowType.schedule)).toMatchObject({ content: '', imgUrl: '', fileNo: '' });
  });

  it('refuses a file the caller may not see', async () => {
    await storeUpload('img_u2', user2Id, 1);
    const answer = await save(user1, { taskName: 'foreign_file', showType: ShowType.image, fileNo: 'img_u2' });
    expect(answer.body).toMatchObject({ success: false, msg: m.fileUnknown });
    // the company administrator may use its company's files
    expect((await save(adminA, { taskName: 'admin_file', showType: ShowType.image, fileNo: 'img_u2' })).body.success).toBe(true);
  });

  it('accepts a form body with machineCodeList as a comma list', async () => {
    const answer = await t.call('POST', '/sync/saveTaskInfo', {
      token: user1,
      body: 'taskName=form_task&showType=1&content=hi&machineCodeList=DEV-A2,DEV-A1,DEV-A1&batchSendNum=5&batchSendMaxNum=8&isRandomNum=1&randomPosition=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.body).toMatchObject({ success: true, msg: m.saved });
    const row = (await list(user1, { taskName: 'form_task' })).body.data[0];
    expect(row).toMatchObject({ machineCodeList: ['DEV-A1', 'DEV-A2'], batchSendNum: 5, batchSendMaxNum: 8, isRandomNum: 1, randomPosition: 1 });
  });

  it('takes only devices the task owner activated', async () => {
    const refused = await save(user1, textTask('devices', { machineCodeList: ['DEV-A1', 'DEV-U', 'DEV-2', 'NOPE'] }));
    expect(refused.body).toMatchObject({ success: false, msg: fill(m.devicesNotActivated, { codes: 'DEV-U, DEV-2, NOPE' }) });
    expect((await list(user1, { taskName: 'devices' })).body.total).toBe(0);
    // an administrator editing user1's task chooses among user1's devices, not its own
    const taskId = await addTask(user1, 'devices_owner', { machineCodeList: 'DEV-A1' });
    const edited = await save(adminA, textTask('devices_owner', { taskId, machineCodeList: ['DEV-A2'] }));
    expect(edited.body.success).toBe(true);
    expect((await list(user1, { taskName: 'devices_owner' })).body.data[0].machineCodeList).toEqual(['DEV-A2']);
    expect((await save(adminA, textTask('devices_owner', { taskId, machineCodeList: ['DEV-2'] }))).body.success).toBe(false);
  });

  it('edits a task, keeps owner and counters, and refuses completed or invisible tasks', async () => {
    const taskId = await addTask(user1, 'edit_me');
    await t.ctx.db.updateTable('sync_task').set({ totalNum: 7, mcount: 7 }).where('taskId', '=', taskId).execute();
    const edited = await save(user1, textTask('edit_me2', { taskId: String(taskId), batchSendNum: 3, batchSendMaxNum: 9 }));
    expect(edited.body).toMatchObject({ success: true, msg: m.saved, data: { taskId } });
    expect(await taskRow(taskId)).toMatchObject({ taskName: 'edit_me2', batchSendNum: 3, batchSendMaxNum: 9, totalNum: 7, mcount: 7, userId: user1Id });

    const byOther = await save(user2, textTask('stolen', { taskId }));
    // Another's task answers like a missing one: its existence is not told.
    expect([byOther.status, byOther.body.msg]).toEqual([404, messages.common.notFoundRecord]);
    const byOtherCompany = await save(adminB, textTask('stolen', { taskId }));
    expect([byOtherCompany.status, byOtherCompany.body.msg]).toEqual([404, messages.common.notFoundRecord]);
    expect((await save(user1, textTask('ghost', { taskId: 999_999 }))).body.msg).toBe(messages.common.notFoundRecord);
    expect((await taskRow(taskId)).taskName).toBe('edit_me2');

    await setStatus(taskId, TaskStatus.completed);
    const completed = await save(user1, textTask('too_late', { taskId }));
    expect(completed.body).toMatchObject({ success: false, msg: m.completedRefused });
    expect((await taskRow(taskId)).taskName).toBe('edit_me2');
  });

  it('lets only administrators set test numbers through the task form', async () => {
    const byUser = await taskRow(await addTask(user1, 'form_test_user', { testNum: 50, testPhone: '13800138000' }));
    expect(byUser).toMatchObject({ testNum: 0, testPhone: '' });
    const byAdmin = await taskRow(await addTask(adminA, 'form_test_admin', { testNum: 50, testPhone: '13800138000' }));
    expect(byAdmin).toMatchObject({ testNum: 50, testPhone: '13800138000' });
  });

  it('needs the save permission', async () => {
    await t.createUser({ userName: 'task_demo_save', roleId: RoleId.demo });
    const token = await t.login('task_demo_save', 'User@12345');
    expect((await save(token, textTask('nope'))).status).toBe(403);
  });
});

describe('pause, start and delete', () => {
  it('pauses and starts, refusing completed tasks and bad statuses', async () => {
    const taskId = await addTask(user1, 'toggle');
    const pause = await call(user1, '/sync/pauseStartTaskInfo', { taskId, taskStatus: TaskStatus.paused, taskName: 'ignored' });
    expect(pause.body).toMatchObject({ success: true, msg: m.pauseStartOk });
    expect((await taskRow(taskId)).taskStatus).toBe(TaskStatus.paused);
    const start = await call(user1, '/sync/pauseStartTaskInfo', { taskId: String(taskId), taskStatus: '0' });
    expect(start.body.success).toBe(true);
    expect((await taskRow(taskId)).taskStatus).toBe(TaskStatus.running);

    expect((await call(user1, '/sync/pauseStartTaskInfo', { taskId, taskStatus: TaskStatus.completed })).body.msg).toBe(m.statusInvalid);
    expect((await call(user1, '/sync/pauseStartTaskInfo', { taskId })).body.msg).toBe(m.statusInvalid);
    expect((await call(user1, '/sync/pauseStartTaskInfo', { taskStatus: 1 })).body.msg).toBe(m.taskIdRequired);
    expect((await call(user2, '/sync/pauseStartTaskInfo', { taskId, taskStatus: 1 })).status).toBe(404);
    expect((await call(adminB, '/sync/pauseStartTaskInfo', { taskId, taskStatus: 1 })).status).toBe(404);
    expect((await taskRow(taskId)).taskStatus).toBe(TaskStatus.running);
    expect((await call(adminA, '/sync/pauseStartTaskInfo', { taskId, taskStatus: 1 })).body.success).toBe(true);

    await setStatus(taskId, TaskStatus.completed);
    const refused = await call(user1, '/sync/pauseStartTaskInfo', { taskId, taskStatus: TaskStatus.running });
    expect(refused.body).toMatchObject({ success: false, msg: m.completedRefused });
    expect((await taskRow(taskId)).taskStatus).toBe(TaskStatus.completed);
  });

  it('deletes a paused task with its numbers and devices, refuses a running one', async () => {
    const taskId = await addTask(user1, 'delete_me', { machineCodeList: ['DEV-A1'] });
    await t.ctx.db.insertInto('sync_task_number').values([
      { taskId, phone: 13800138000, carrier: 1 },
      { taskId, phone: 13000000000, carrier: 2 },
    ]).execute();

    const running = await call(user1, '/sync/deleteTaskInfo', { taskId });
    expect(running.body).toMatchObject({ success: false, msg: m.runningDeleteRefused });
    expect(await taskRow(taskId)).toBeTruthy();

    await setStatus(taskId, TaskStatus.paused);
    // Another's task and a missing one answer the same, so ids cannot be probed.
    const missing = await call(user1, '/sync/deleteTaskInfo', { taskId: 999_999 });
    for (const other of [user2, adminB]) {
      const answer = await call(other, '/sync/deleteTaskInfo', { taskId });
      expect([answer.status, answer.body]).toEqual([missing.status, missing.body]);
    }
    expect(missing.status).toBe(404);
    expect((await call(user1, '/sync/deleteTaskInfo', {})).body.msg).toBe(m.taskIdRequired);

    const deleted = await call(user1, '/sync/deleteTaskInfo', { taskId, taskName: 'delete_me' });
    expect(deleted.body).toMatchObject({ success: true, msg: m.deleted });
    expect(await t.ctx.db.selectFrom('sync_task').select('taskId').where('taskId', '=', taskId).executeTakeFirst()).toBeUndefined();
    expect(await t.ctx.db.selectFrom('sync_task_number').select('id').where('taskId', '=', taskId).execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('sync_task_device').select('taskId').where('taskId', '=', taskId).execute()).toEqual([]);
    expect((await call(user1, '/sync/deleteTaskInfo', { taskId })).body.msg).toBe(messages.common.notFoundRecord);

    const completed = await addTask(user1, 'delete_completed');
    await setStatus(completed, TaskStatus.completed);
    expect((await call(user1, '/sync/deleteTaskInfo', { taskId: completed })).body.success).toBe(true);
  });

  it('writes the operation log', async () => {
    const taskId = await addTask(user1, 'audited');
    // the log row is written after the answer is sent
    const log = await vi.waitFor(async () => {
      const rows = await t.ctx.db.selectFrom('sys_oper_log').selectAll().where('target', 'like', '%audited%').execute();
      expect(rows.length).toBeGreaterThan(0);
      return rows;
    });
    expect(log[0]).toMatchObject({ module: m.title, success: 1, message: m.saved });
    expect(taskId).toBeGreaterThan(0);
  });
});

describe('insert test number', () => {
  it('lets administrators set testNum and testPhone', async () => {
    const taskId = await addTask(user1, 'test_number');
    const answer = await call(adminA, '/sync/saveTest', { taskId, testNum: '100', testPhone: '13900139000' });
    expect(answer.body).toMatchObject({ success: true, msg: m.testSaved });
    expect(await taskRow(taskId)).toMatchObject({ testNum: 100, testPhone: '13900139000' });
    expect((await call(admin, '/sync/saveTest', { taskId, testNum: 5, testPhone: '19900000000' })).body.success).toBe(true);
    // the original client sent only {taskId, testNum}: the task's phone stays
    expect((await call(adminA, '/sync/saveTest', { taskId: String(taskId), testNum: 7 })).body.success).toBe(true);
    expect(await taskRow(taskId)).toMatchObject({ testNum: 7, testPhone: '19900000000' });
  });

  it('validates and refuses ordinary users, other companies and completed tasks', async () => {
    const taskId = await addTask(user1, 'test_refusals');
    const cases: [Record<string, unknown>, string][] = [
      [{ taskId, testPhone: '13900139000' }, m.testNumInvalid],
      [{ taskId, testNum: 0, testPhone: '13900139000' }, m.testNumInvalid],
      [{ taskId, testNum: 'x', testPhone: '13900139000' }, m.testNumInvalid],
      [{ taskId, testNum: 10 }, m.testPhoneRequired],
      [{ taskId, testNum: 10, testPhone: ' ' }, m.testPhoneRequired],
      [{ taskId, testNum: 10, testPhone: '12800000000' }, m.testPhoneInvalid],
      [{ taskId, testNum: 10, testPhone: '1380013800' }, m.testPhoneInvalid],
      [{ testNum: 10, testPhone: '13900139000' }, m.taskIdRequired],
    ];
    for (const [body, message] of cases) {
      const answer = await call(adminA, '/sync/saveTest', body);
      expect({ body, status: answer.status, msg: answer.body.msg }).toEqual({ body, status: 400, msg: message });
    }
    const byUser = await call(user1, '/sync/saveTest', { taskId, testNum: 10, testPhone: '13900139000' });
    expect(byUser.status).toBe(403);
    expect((await call(adminB, '/sync/saveTest', { taskId, testNum: 10, testPhone: '13900139000' })).status).toBe(404);
    expect(await taskRow(taskId)).toMatchObject({ testNum: 0, testPhone: '' });

    await setStatus(taskId, TaskStatus.completed);
    const completed = await call(adminA, '/sync/saveTest', { taskId, testNum: 10, testPhone: '13900139000' });
    expect(completed.body).toMatchObject({ success: false, msg: m.completedRefused });
  });

  it('refuses a non-administrator role even when granted the code', async () => {
    const { permissionId } = await t.ctx.db.selectFrom('sys_permission').select('permissionId').where('permission', '=', 'task:Task:insertTest').executeTakeFirstOrThrow();
    await t.ctx.db.insertInto('sys_role_permission').values({ roleId: RoleId.ordinaryUser, permissionId }).execute();
    t.ctx.accessCache.invalidate('all');
    try {
      const taskId = await addTask(user1, 'test_granted');
      const answer = await call(user1, '/sync/saveTest', { taskId, testNum: 10, testPhone: '13900139000' });
      expect(answer.body).toMatchObject({ success: false, msg: m.adminOnly });
      expect(answer.status).toBe(403);
    } finally {
      await t.ctx.db.deleteFrom('sys_role_permission').where('roleId', '=', RoleId.ordinaryUser).where('permissionId', '=', permissionId).execute();
      t.ctx.accessCache.invalidate('all');
    }
  });
});

describe('QR image', () => {
  it('renders a PNG of qrUrl, stores it and answers its download link', async () => {
    const answer = await call(user1, '/sync/generateQRCodeImage', { taskName: 'qr', qrUrl: 'https://example.com/join?a=1' });
    expect(answer.body).toMatchObject({ success: true, msg: m.qrGenerated });
    const url: string = answer.body.data;
    expect(url).toMatch(/^\/download\/file\?filePath=\d{4}%2F\d{2}%2F[0-9a-f]{32}\.png$/);
    const filePath = decodeURIComponent(url.split('filePath=')[1]);
    const stored = await t.ctx.db.selectFrom('sys_upload').selectAll().where('filePath', '=', filePath).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ kind: 'qr', userId: user1Id, deptId: 1 });
    const bytes = fs.readFileSync(path.join(t.ctx.config.dataDir, 'uploads', ...filePath.split('/')));
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(Number(stored.size)).toBe(bytes.length);
  });

  it('refuses an address that is not http(s) with a host', async () => {
    for (const qrUrl of ['http://', 'https://', 'example.com', 'ftp://example.com', 'javascript:alert(1)', '', undefined]) {
      const answer = await call(user1, '/sync/generateQRCodeImage', { qrUrl });
      expect({ qrUrl, status: answer.status, msg: answer.body.msg }).toEqual({ qrUrl, status: 400, msg: m.qrUrlInvalid });
    }
  });
});
