import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES, AuthCodeUseStatus, fill, formatDateTime, messages, randomAuthCode, RoleId } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';

const m = messages.authcode;
const DAY_MS = 24 * 60 * 60 * 1000;

let t: TestApp;
let admin: string;
let demoAdmin: string;
let otherAdmin: string;
let user1: string;
let demoDeptId: number;
let otherDeptId: number;
let user1Id: number;
let user2Id: number;
let otherUserId: number;

/** What a device activation does: binds a device to the code. */
async function activate(id: number, machineCode: string, machineName: string) {
  await t.ctx.db
    .updateTable('sync_auth_code')
    .set({ useStatus: AuthCodeUseStatus.used, machineCode, machineName, activatedAt: Date.now() })
    .where('id', '=', id)
    .execute();
}

async function addTask(userId: number, deptId: number, machineCodes: string[]): Promise<number> {
  const now = Date.now();
  const task = await t.ctx.db
    .insertInto('sync_task')
    .values({
      taskName: 'task', showType: 1, content: 'hi', imgUrl: '', fileNo: '', fileName: '', qrUrl: 'http://', taskStatus: 0,
      singleSendNumDay: 300, batchSendNum: 10, batchSendMaxNum: 10, intervalSeconds: 1, testNum: 0, testPhone: '', clearNum: 0,
      isRandomNum: 0, randomPosition: 0, userId, deptId, addTime: now, editTime: now,
    })
    .returning('taskId')
    .executeTakeFirstOrThrow();
  if (machineCodes.length) await t.ctx.db.insertInto('sync_task_device').values(machineCodes.map((machineCode) => ({ taskId: task.taskId, machineCode }))).execute();
  return task.taskId;
}

const call = (url: string, token: string, body: unknown = {}) => t.call('POST', url, { token, body });
const save = (body: Record<string, unknown>, token = admin) => call('/sync/saveAuthCode', token, body);
const list = (body: Record<string, unknown> = {}, token = admin) => call('/sync/queryAuthCodeList', token, { pageNum: 1, pageSize: 10, ...body });
const codeRow = (id: number) => t.ctx.db.selectFrom('sync_auth_code').selectAll().where('id', '=', id).executeTakeFirst();

async function addCode(authUserId: number, extra: Record<string, unknown> = {}): Promise<{ id: number; authCode: string }> {
  const authCode = randomAuthCode();
  const answer = await save({ authCode, authUserId, dueNum: 100, dueDateNum: 30, ...extra });
  expect(answer.body).toMatchObject({ success: true, msg: m.saved });
  return { id: answer.body.data.id, authCode };
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  demoDeptId = (await t.ctx.db.selectFrom('sys_dept').select('deptId').where('deptNo', '=', 'DEMO').executeTakeFirstOrThrow()).deptId;
  otherDeptId = await t.createCompany('另一家公司', 'OTHER');
  await t.createUser({ userName: 'demoadmin', roleId: RoleId.companyAdmin, deptId: demoDeptId });
  await t.createUser({ userName: 'otheradmin', roleId: RoleId.companyAdmin, deptId: otherDeptId });
  user1Id = await t.createUser({ userName: 'user1', deptId: demoDeptId });
  user2Id = await t.createUser({ userName: 'user2', deptId: demoDeptId });
  otherUserId = await t.createUser({ userName: 'otheruser', deptId: otherDeptId });
  demoAdmin = await t.login('demoadmin', 'User@12345');
  otherAdmin = await t.login('otheradmin', 'User@12345');
  user1 = await t.login('user1', 'User@12345');
});
afterAll(async () => t?.close());

describe('authorization codes', () => {
  it('makes the random code of SPEC §2.15', () => {
    const codes = new Set(Array.from({ length: 50 }, () => randomAuthCode()));
    expect(codes.size).toBe(50);
    for (const code of codes) expect(code).toMatch(/^[0-9A-F]{12}$/);
  });

  it('adds a code (uppercased) and lists it with its owner, status and expiry', async () => {
    const before = Date.now();
    const answer = await save({ authCode: ' abcd-1234-xy ', authUserId: user1Id, dueNum: '500', dueDateNum: '30' });
    expect(answer.body).toMatchObject({ success: true, msg: m.saved, errorInfo: m.saved });
    const listed = await list({ authCode: 'abcd-1234' });
    expect(listed.body.total).toBe(1);
    const row = listed.body.data[0];
    expect(row).toMatchObject({
      id: answer.body.data.id, userName: 'user1', authCode: 'ABCD-1234-XY', useStatus: AuthCodeUseStatus.unused,
      machineName: '', dueNum: 500, dueDateNum: 30, authUserId: user1Id,
    });
    const stored = await codeRow(row.id);
    expect(stored!.dueDate).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(stored!.dueDate).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);
    expect(row.dueDateStr).toBe(formatDateTime(stored!.dueDate));
    expect(row.dueDateStr).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('accepts a form body like the original front end sent', async () => {
    const authCode = randomAuthCode();
    const raw = await t.app.inject({
      method: 'POST',
      url: '/sync/saveAuthCode',
      headers: { 'content-type': 'application/x-www-form-urlencoded', token: admin },
      payload: `authCode=${authCode}&authUserId=${user2Id}&dueNum=5&dueDateNum=1&userId=1&token=${admin}`,
    });
    expect(raw.json()).toMatchObject({ success: true, msg: m.saved });
    expect((await list({ authCode })).body.data[0]).toMatchObject({ userName: 'user2', dueNum: 5 });
  });

  it('answers each field its own message and writes nothing', async () => {
    const before = (await list()).body.total;
    const good = { authCode: 'GOOD-CODE-123', authUserId: user1Id, dueNum: 1, dueDateNum: 1 };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, authCode: undefined }, m.authCodeRequired],
      [{ ...good, authCode: '   ' }, m.authCodeRequired],
      [{ ...good, authCode: 'abc' }, m.authCodeTooShort],
      [{ ...good, authCode: 'ABCD-1234-X' }, m.authCodeTooShort], // 11: typed codes are at least as long as generated ones
      [{ ...good, authCode: 'AB CD' }, m.authCodeFormat],
      [{ ...good, authCode: '授权码一二三四' }, m.authCodeFormat],
      [{ ...good, authCode: 'A'.repeat(33) }, m.authCodeFormat],
      [{ ...good, authUserId: '' }, m.ownerRequired],
      [{ ...good, authUserId: 'x' }, m.ownerRequired],
      [{ ...good, dueNum: undefined }, m.quantityRequired],
      [{ ...good, dueNum: -1 }, m.quantityFormat],
      [{ ...good, dueNum: 1.5 }, m.quantityFormat],
      [{ ...good, dueNum: 'many' }, m.quantityFormat],
      [{ ...good, dueNum: 100_000_001 }, m.quantityFormat],
      [{ ...good, dueDateNum: '' }, m.validDaysRequired],
      [{ ...good, dueDateNum: 0 }, m.validDaysFormat],
      [{ ...good, dueDateNum: 3651 }, m.validDaysFormat],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await save(body);
      expect(status, message).toBe(400);
      expect(answer).toMatchObject({ success: false, msg: message, errorInfo: message });
    }
    expect((await list()).body.total).toBe(before);
  });

  it('keeps codes unique, whatever the case typed', async () => {
    const { authCode } = await addCode(user1Id);
    const again = await save({ authCode: authCode.toLowerCase(), authUserId: user2Id, dueNum: 1, dueDateNum: 1 });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe(m.authCodeTaken);
  });

  it('refuses an unknown owner or one outside the caller scope', async () => {
    expect((await save({ authCode: randomAuthCode(), authUserId: 99999, dueNum: 1, dueDateNum: 1 })).body.msg).toBe(m.ownerNotFound);
    const outside = await save({ authCode: 'OUT-OF-SCOPE', authUserId: otherUserId, dueNum: 1, dueDateNum: 1 }, demoAdmin);
    expect(outside.status).toBe(403);
    expect(outside.body.msg).toBe(messages.common.outOfScope);
    expect(await t.ctx.db.selectFrom('sync_auth_code').select('id').where('authCode', '=', 'OUT-OF-SCOPE').executeTakeFirst()).toBeUndefined();
    const inside = await save({ authCode: 'OTHER-OWN-123', authUserId: otherUserId, dueNum: 1, dueDateNum: 1 }, otherAdmin);
    expect(inside.body.success).toBe(true);
  });

  it('shows ordinary users their own codes and administrators those of their scope', async () => {
    await addCode(user1Id);
    await addCode(otherUserId);
    const own = await list({ pageSize: 100 }, user1);
    expect(own.body.total).toBeGreaterThan(0);
    expect(own.body.data.every((r: { authUserId: number }) => r.authUserId === user1Id)).toBe(true);
    const other = await list({ pageSize: 100 }, otherAdmin);
    expect(other.body.data.every((r: { authUserId: number }) => r.authUserId === otherUserId)).toBe(true);
    const demo = await list({ pageSize: 100 }, demoAdmin);
    expect(demo.body.data.some((r: { authUserId: number }) => r.authUserId === user1Id)).toBe(true);
    expect(demo.body.data.some((r: { authUserId: number }) => r.authUserId === otherUserId)).toBe(false);
    const all = await list({ pageSize: 100 });
    expect(all.body.total).toBe(demo.body.total! + other.body.total!);
  });

  it('pages by pageNum / pageSize, newest first', async () => {
    const owner = await t.createUser({ userName: 'pager', deptId: demoDeptId });
    const prefix = 'PAGE-OF-CODES-';
    for (let i = 0; i < 12; i++) await save({ authCode: `${prefix}${String(i).padStart(2, '0')}`, authUserId: owner, dueNum: i, dueDateNum: 1 });
    const first = await list({ authCode: prefix, pageNum: 1, pageSize: 10 });
    expect(first.body.total).toBe(12);
    expect(first.body.data).toHaveLength(10);
    expect(first.body.data[0].authCode).toBe('PAGE-OF-CODES-11');
    const second = await list({ authCode: prefix, pageNum: '2', pageSize: '10' });
    expect(second.body.data.map((r: { authCode: string }) => r.authCode)).toEqual(['PAGE-OF-CODES-01', 'PAGE-OF-CODES-00']);
    expect((await list({ authCode: prefix, pageNum: 'x', pageSize: 'y' })).body.data).toHaveLength(10);
  });

  it('recharges: adds the quantity and extends the expiry from the current one', async () => {
    const { id } = await addCode(user1Id, { dueNum: 100, dueDateNum: 10 });
    const before = await codeRow(id);
    const answer = await call('/sync/recAuthCode', admin, { id, dueNum: 50, dueDateNum: 5 });
    expect(answer.body).toMatchObject({ success: true, msg: m.recharged });
    const after = await codeRow(id);
    expect(after).toMatchObject({ dueNum: 150, dueDateNum: 15 });
    expect(Number(after!.dueDate)).toBe(Number(before!.dueDate) + 5 * DAY_MS);
    // quantity only, then days only
    await call('/sync/recAuthCode', admin, { id, dueNum: 1, dueDateNum: 0 });
    await call('/sync/recAuthCode', admin, { id: String(id), dueNum: '0', dueDateNum: '1' });
    expect(await codeRow(id)).toMatchObject({ dueNum: 151, dueDateNum: 16, dueDate: Number(before!.dueDate) + 6 * DAY_MS });
  });

  it('recharges an expired code from now', async () => {
    const { id } = await addCode(user1Id, { dueNum: 0, dueDateNum: 1 });
    await t.ctx.db.updateTable('sync_auth_code').set({ dueDate: Date.now() - 3 * DAY_MS }).where('id', '=', id).execute();
    const start = Date.now();
    await call('/sync/recAuthCode', admin, { id, dueNum: 10, dueDateNum: 2 });
    const after = await codeRow(id);
    expect(Number(after!.dueDate)).toBeGreaterThanOrEqual(start + 2 * DAY_MS);
    expect(Number(after!.dueDate)).toBeLessThanOrEqual(Date.now() + 2 * DAY_MS);
    expect(after!.dueNum).toBe(10);
  });

  it('refuses bad recharges and changes nothing', async () => {
    const { id } = await addCode(user1Id);
    const before = await codeRow(id);
    const cases: [Record<string, unknown>, string][] = [
      [{ id, dueNum: 0, dueDateNum: 0 }, m.rechargeEmpty],
      [{ id, dueNum: -5, dueDateNum: 1 }, m.rechargeNumFormat],
      [{ id, dueNum: 5, dueDateNum: -1 }, m.rechargeDaysFormat],
      [{ id, dueDateNum: 1 }, m.quantityRequired],
      [{ dueNum: 1, dueDateNum: 1 }, messages.common.badParameter],
    ];
    for (const [body, message] of cases) {
      const answer = await call('/sync/recAuthCode', admin, body);
      expect(answer.status, message).toBe(400);
      expect(answer.body.msg).toBe(message);
    }
    expect((await call('/sync/recAuthCode', admin, { id: 99999, dueNum: 1, dueDateNum: 1 })).body.msg).toBe(m.notFound);
    await t.ctx.db.updateTable('sync_auth_code').set({ dueNum: 1_999_999_990 }).where('id', '=', id).execute();
    const tooMuch = await call('/sync/recAuthCode', admin, { id, dueNum: 100, dueDateNum: 1 });
    expect(tooMuch.body.msg).toBe(m.quotaTooLarge);
    expect(await codeRow(id)).toMatchObject({ dueNum: 1_999_999_990, dueDate: before!.dueDate });
  });

  it('deletes a used code: its device loses the binding and leaves its tasks', async () => {
    const { id } = await addCode(user1Id);
    await activate(id, 'M-DEL-1', '一号机');
    const taskId = await addTask(user1Id, demoDeptId, ['M-DEL-1']);
    const answer = await call('/sync/deleteAuthCode', admin, { id });
    expect(answer.body).toMatchObject({ success: true, msg: m.deleted });
    expect(await codeRow(id)).toBeUndefined();
    expect(await t.ctx.db.selectFrom('sync_task_device').selectAll().where('taskId', '=', taskId).execute()).toEqual([]);
    expect((await call('/sync/deleteAuthCode', admin, { id })).body.msg).toBe(m.notFound);
    expect((await call('/sync/deleteAuthCode', admin, {})).body.msg).toBe(messages.common.badParameter);
  });

  it('keeps add, recharge and delete for administrators in scope', async () => {
    const { id } = await addCode(user1Id);
    const before = await codeRow(id);
    for (const [url, body] of [
      ['/sync/saveAuthCode', { authCode: 'USER-MADE-123', authUserId: user1Id, dueNum: 1, dueDateNum: 1 }],
      ['/sync/recAuthCode', { id, dueNum: 1, dueDateNum: 1 }],
      ['/sync/deleteAuthCode', { id }],
    ] as const) {
      const asUser = await call(url, user1, body);
      expect(asUser.status, url).toBe(403);
      expect(asUser.body.msg).toBe(messages.common.forbidden);
    }
    for (const [url, body] of [['/sync/recAuthCode', { id, dueNum: 1, dueDateNum: 1 }], ['/sync/deleteAuthCode', { id }]] as const) {
      // Another company's code answers like a missing one: its existence is not told.
      const outside = await call(url, otherAdmin, body);
      const missing = await call(url, otherAdmin, { ...body, id: 999_999 });
      expect([outside.status, outside.body], url).toEqual([404, { success: false, msg: messages.authcode.notFound, errorInfo: messages.authcode.notFound }]);
      expect(missing.body, url).toEqual(outside.body);
    }
    expect(await codeRow(id)).toEqual(before);
    expect(await t.ctx.db.selectFrom('sync_auth_code').select('id').where('authCode', '=', 'USER-MADE-123').executeTakeFirst()).toBeUndefined();
    expect((await call('/sync/queryAuthCodeList', '')).status).toBe(401);
  });

  it('offers the owners of the caller scope', async () => {
    const mine = await call('/sync/queryTaskUserList', user1);
    expect(mine.body.data).toEqual([{ userId: user1Id, userName: 'user1' }]);
    const demo = (await call('/sync/queryTaskUserList', demoAdmin)).body.data as { userName: string }[];
    expect(demo.map((u) => u.userName)).toEqual(expect.arrayContaining(['demoadmin', 'user1', 'user2']));
    expect(demo.map((u) => u.userName)).not.toContain('otheruser');
    const all = (await call('/sync/queryTaskUserList', admin)).body.data as { userName: string }[];
    expect(all.map((u) => u.userName)).toEqual(expect.arrayContaining(['admin', 'user1', 'otheruser']));
  });

  it('lists the devices activated by the caller own codes', async () => {
    const owner = await t.createUser({ userName: 'deviceowner', deptId: demoDeptId });
    const ownerToken = await t.login('deviceowner', 'User@12345');
    const a = await addCode(owner);
    const b = await addCode(owner);
    await addCode(owner); // not activated: no device
    await activate(a.id, 'M-A', '甲机');
    await activate(b.id, 'M-B', '乙机');
    const devices = [{ machineCode: 'M-A', machineName: '甲机', capabilities: ALL_CAPABILITIES }, { machineCode: 'M-B', machineName: '乙机', capabilities: ALL_CAPABILITIES }];
    expect((await call('/sync/queryUserCodeList', ownerToken)).body).toMatchObject({ success: true, data: devices });
    expect((await t.call('GET', '/sync/queryUserCodeList', { token: ownerToken })).body.data).toEqual(devices);
    expect((await call('/sync/queryUserCodeList', admin)).body.data).toEqual([]);
    // an administrator editing another account's task asks for that account's devices
    expect((await call('/sync/queryUserCodeList', demoAdmin, { userId: owner })).body.data).toEqual(devices);
    const outside = await call('/sync/queryUserCodeList', otherAdmin, { userId: owner });
    expect(outside.status).toBe(403);
    expect(outside.body.msg).toBe(messages.common.outOfScope);
    expect((await call('/sync/queryUserCodeList', user1, { userId: owner })).status).toBe(403);
    expect((await call('/sync/queryUserCodeList', admin, { userId: 99999 })).status).toBe(404);
  });

  it('exports the list with its filter as a spreadsheet', async () => {
    const answer = await t.call('POST', '/sync/exportAuthCodeList', { token: admin, body: { authCode: 'PAGE-' } });
    expect(answer.status).toBe(200);
    expect(answer.raw.headers['content-type']).toContain('spreadsheetml');
    expect(answer.raw.headers['content-disposition']).toContain(encodeURIComponent(`${m.title}.xlsx`));
    expect((await t.call('POST', '/sync/exportAuthCodeList', { token: '' })).status).toBe(401);
  });

  it('writes the operation log of changes', async () => {
    const { authCode } = await addCode(user1Id);
    // the log is written after the answer is sent
    const log = () => t.ctx.db.selectFrom('sys_oper_log').selectAll().where('target', '=', authCode).executeTakeFirst();
    await expect.poll(log).toBeDefined();
    expect(await log()).toMatchObject({ module: m.title, action: m.actionSave, success: 1, userName: 'admin' });
    expect(fill(m.confirmDelete, { authCode })).toContain(authCode);
  });
});
