import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, messages, RoleId } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { readXlsxExport } from '../../../test/xlsx-export.ts';

const m = messages.dept;
let t: TestApp;
let token: string;
let demoDeptId: number;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  demoDeptId = (await t.ctx.db.selectFrom('sys_dept').select('deptId').where('deptNo', '=', 'DEMO').executeTakeFirstOrThrow()).deptId;
});
afterAll(async () => t?.close());

const lastLog = () =>
  t.ctx.db.selectFrom('sys_oper_log').selectAll().where('module', '=', m.title).orderBy('operId', 'desc').executeTakeFirst();

const save = (body: unknown, as = token) => t.call('POST', '/api/Dept/save', { token: as, body });
const list = (body: Record<string, unknown> = {}, as = token) =>
  t.call('POST', '/api/Dept/list', { token: as, body: { page: 1, limit: 10, ...body } });
const remove = (ids: string, as = token, method = 'GET') => t.call(method, `/api/Dept/delete?ids=${ids}`, { token: as });
const count = async () => Number((await t.ctx.db.selectFrom('sys_dept').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const deptRow = (deptId: number) => t.ctx.db.selectFrom('sys_dept').selectAll().where('deptId', '=', deptId).executeTakeFirst();

async function addDept(deptName: string, deptNo: string): Promise<number> {
  const answer = await save({ deptName, deptNo });
  expect(answer.body).toMatchObject({ success: true, msg: m.saved });
  return answer.body.data.deptId;
}

describe('公司管理', () => {
  it('adds, lists, edits and deletes (GET and DELETE)', async () => {
    const deptId = await addDept('测试公司甲', 'T_A');
    const listed = await list({ deptNo: 'T_A' });
    expect(listed.body).toMatchObject({ success: true, total: 1 });
    expect(listed.body.data[0]).toMatchObject({ deptId, deptName: '测试公司甲', deptNo: 'T_A', parentId: 0, addUser: 'admin', editUser: 'admin' });
    expect(listed.body.data[0].addTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(listed.body.data[0].editTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const edited = await save({ deptId: String(deptId), deptName: '测试公司乙', deptNo: 'T_A2' });
    expect(edited.body).toMatchObject({ success: true, msg: m.saved, data: { deptId } });
    expect(await deptRow(deptId)).toMatchObject({ deptName: '测试公司乙', deptNo: 'T_A2' });

    const deleted = await remove(String(deptId));
    expect(deleted.body).toMatchObject({ success: true, msg: m.deleted });
    expect(await deptRow(deptId)).toBeUndefined();

    const other = await addDept('删除方式', 'T_DEL');
    expect((await remove(String(other), token, 'DELETE')).body).toMatchObject({ success: true, msg: m.deleted });
    expect(await deptRow(other)).toBeUndefined();
  });

  it('answers each field its own message and writes nothing', async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ deptNo: 'X1' }, m.deptNameRequired],
      [{ deptName: '   ', deptNo: 'X1' }, m.deptNameRequired],
      [{ deptName: 'x' }, m.deptNoRequired],
      [{ deptName: 'x', deptNo: '' }, m.deptNoRequired],
      [{ deptName: 'x', deptNo: 'has space' }, m.deptNoFormat],
      [{ deptName: 'x'.repeat(101), deptNo: 'X1' }, m.tooLong],
      [{ deptName: 'x', deptNo: 'X'.repeat(51) }, m.tooLong],
      [{ deptName: 42, deptNo: 'X1' }, m.deptNameRequired],
      [{ deptId: 'abc', deptName: 'x', deptNo: 'X1' }, messages.common.badParameter],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await save(body);
      expect(status).toBe(400);
      expect(answer).toMatchObject({ success: false, msg: message, errorInfo: message });
    }
    expect(await count()).toBe(before);
  });

  it('keeps company codes unique on add and edit', async () => {
    const first = await addDept('唯一甲', 'UNIQ_1');
    await addDept('唯一乙', 'UNIQ_2');
    expect((await save({ deptName: '重复', deptNo: 'UNIQ_1' })).body).toMatchObject({ success: false, msg: m.deptNoTaken });
    expect((await save({ deptId: first, deptName: '改成重复', deptNo: 'UNIQ_2' })).body).toMatchObject({ success: false, msg: m.deptNoTaken });
    expect(await deptRow(first)).toMatchObject({ deptName: '唯一甲', deptNo: 'UNIQ_1' });
    // Saving a company under its own code is no conflict.
    expect((await save({ deptId: first, deptName: '唯一甲改', deptNo: 'UNIQ_1' })).body.success).toBe(true);
  });

  it('refuses to delete a company that still has users, deleting nothing', async () => {
    const answer = await remove(String(demoDeptId));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, msg: fill(m.hasUsers, { deptName: '汇云演示公司' }) });
    expect(await deptRow(demoDeptId)).toBeDefined();

    const empty = await addDept('空公司', 'EMPTY_1');
    const staffed = await addDept('有人公司', 'STAFFED_1');
    await t.createUser({ userName: 'staff1', deptId: staffed });
    const mixed = await remove(`${empty},${staffed}`);
    expect(mixed.body).toMatchObject({ success: false, msg: fill(m.hasUsers, { deptName: '有人公司' }) });
    expect(await deptRow(empty)).toBeDefined();
    expect(await deptRow(staffed)).toBeDefined();
  });

  it('refuses to edit or delete what does not exist, and a delete without ids', async () => {
    const missing = await save({ deptId: 99999, deptName: 'ghost', deptNo: 'GHOST' });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe(messages.common.notFoundRecord);
    expect((await remove('99999')).body.msg).toBe(messages.common.notFoundRecord);
    expect((await t.call('GET', '/api/Dept/delete', { token })).body.msg).toBe(messages.common.idsRequired);
    expect((await remove('1,x')).body.msg).toBe(messages.common.badParameter);
  });

  it('pages, sorts and filters by name and code', async () => {
    for (let i = 1; i <= 13; i++) await addDept(`分页公司${String(i).padStart(2, '0')}`, `PG_${String(i).padStart(2, '0')}`);
    const page1 = await list({ deptNo: 'PG_', sortField: 'deptNo', sortOrder: 'ascend' });
    expect(page1.body.total).toBe(13);
    expect(page1.body.data.map((d: { deptNo: string }) => d.deptNo)).toEqual(Array.from({ length: 10 }, (_, i) => `PG_${String(i + 1).padStart(2, '0')}`));
    const page2 = await list({ deptNo: 'pg_', page: 2, sortField: 'deptName', sortOrder: 'descend' });
    expect(page2.body.data.map((d: { deptNo: string }) => d.deptNo)).toEqual(['PG_03', 'PG_02', 'PG_01']);
    expect((await list({ deptName: '分页公司07' })).body.total).toBe(1);
    for (const sortField of ['editTime', 'editUser']) {
      const sorted = await list({ deptNo: 'PG_', sortField, sortOrder: 'ascend' });
      expect(sorted.body).toMatchObject({ success: true, total: 13 });
    }
    expect((await list({ sortField: 'passwordHash', sortOrder: 'ascend' })).body.success).toBe(true);
  });

  it('exports the filtered list as an .xlsx', async () => {
    const { raw } = await t.call('POST', '/api/Dept/export', { token, body: { deptNo: 'PG_1' } });
    const rows = await readXlsxExport(raw, m.title);
    expect(rows[0]).toContain(m.deptNo);
    const codes = rows.slice(1).map((row) => String(row[1])).sort();
    expect(codes).toEqual(['PG_10', 'PG_11', 'PG_12', 'PG_13']);
  });

  it('writes the operation log', async () => {
    await addDept('审计公司', 'AUDIT_1');
    // The log is written after the answer is sent: wait for it.
    await expect.poll(lastLog, { timeout: 2000 }).toMatchObject({ userName: 'admin', action: messages.common.actionSave, target: 'AUDIT_1 审计公司', success: 1, message: m.saved });
  });
});

describe('公司管理: who may do what', () => {
  let companyB: number;
  let companyC: number;
  let adminB: string;
  let adminBUserId: number;
  let user: string;

  beforeAll(async () => {
    companyB = await addDept('另一家公司', 'OTHER_B');
    companyC = await addDept('授权公司', 'OTHER_C');
    adminBUserId = await t.createUser({ userName: 'adminB', roleId: RoleId.companyAdmin, deptId: companyB });
    adminB = await t.login('adminB', 'User@12345');
    await t.createUser({ userName: 'plain1', roleId: RoleId.ordinaryUser, deptId: demoDeptId });
    user = await t.login('plain1', 'User@12345');
  });

  it('shows a company administrator only the companies of its scope', async () => {
    const listed = await list({ limit: 100 }, adminB);
    expect(listed.body.data.map((d: { deptId: number }) => d.deptId)).toEqual([companyB]);
    expect(listed.body.total).toBe(1);
    const { raw } = await t.call('POST', '/api/Dept/export', { token: adminB, body: {} });
    const rows = await readXlsxExport(raw);
    expect(rows).toHaveLength(2);
    expect(rows[1][1]).toBe('OTHER_B');
  });

  it('refuses edits and deletes outside the scope and changes nothing', async () => {
    const before = await deptRow(demoDeptId);
    const edit = await save({ deptId: demoDeptId, deptName: '越权', deptNo: 'HACK' }, adminB);
    expect(edit.status).toBe(403);
    expect(edit.body).toMatchObject({ success: false, msg: messages.common.outOfScope });
    expect(await deptRow(demoDeptId)).toEqual(before);

    const del = await remove(String(companyC), adminB);
    expect(del.status).toBe(403);
    expect(del.body.msg).toBe(messages.common.outOfScope);
    expect(await deptRow(companyC)).toBeDefined();
    // One id out of scope spoils the whole request.
    expect((await remove(`${companyB},${companyC}`, adminB)).status).toBe(403);
  });

  it('lets only the super administrator add companies', async () => {
    const before = await count();
    const add = await save({ deptName: '自建公司', deptNo: 'SELF_B' }, adminB);
    expect(add.status).toBe(403);
    expect(add.body.msg).toBe(m.createSuperAdminOnly);
    expect(await count()).toBe(before);
  });

  it('lets a company administrator edit its own company and companies it was granted', async () => {
    expect((await save({ deptId: companyB, deptName: '另一家公司（改）', deptNo: 'OTHER_B' }, adminB)).body).toMatchObject({ success: true, msg: m.saved });
    await t.ctx.db.insertInto('sys_user_dept').values({ userId: adminBUserId, deptId: companyC }).execute();
    await t.ctx.accessCache.invalidate(adminBUserId);
    const listed = await list({ sortField: 'deptNo', sortOrder: 'ascend' }, adminB);
    expect(listed.body.data.map((d: { deptNo: string }) => d.deptNo)).toEqual(['OTHER_B', 'OTHER_C']);
    // Its own company holds adminB itself: protected.
    expect((await remove(String(companyB), adminB)).body.msg).toBe(fill(m.hasUsers, { deptName: '另一家公司（改）' }));
    expect((await remove(String(companyC), adminB)).body).toMatchObject({ success: true, msg: m.deleted });
    expect(await deptRow(companyC)).toBeUndefined();
    // The grant went with the company.
    expect((await list({}, adminB)).body.data.map((d: { deptId: number }) => d.deptId)).toEqual([companyB]);
  });

  it('offers each caller the companies of its scope to pick, on every screen that picks one', async () => {
    const choices = async (as?: string) => t.call('POST', '/api/Dept/choices', { token: as, body: {} });
    expect((await choices(adminB)).body).toMatchObject({ success: true, data: [{ deptId: companyB, deptName: expect.any(String) }] });
    const all = (await choices(token)).body.data.map((d: { deptId: number }) => d.deptId);
    expect(all).toEqual(expect.arrayContaining([demoDeptId, companyB]));
    expect(all).toEqual([...all].sort((a, b) => a - b));
    // 黑名单 is an ordinary user's screen: it reads its own company
    expect((await choices(user)).body.data).toEqual([{ deptId: demoDeptId, deptName: expect.any(String) }]);
    // a role with none of the screens that pick a company, and no login
    const bare = await t.ctx.db.insertInto('sys_role').values({ systemNo: 'test', roleNo: 'no_screens', roleName: '无屏幕', isAdmin: 0, addTime: 1, editTime: 1 }).returning('roleId').executeTakeFirstOrThrow();
    await t.createUser({ userName: 'bare1', roleId: bare.roleId, deptId: demoDeptId });
    const refused = await choices(await t.login('bare1', 'User@12345'));
    expect([refused.status, refused.body.msg]).toEqual([403, messages.common.forbidden]);
    expect((await choices()).status).toBe(401);
  });

  it('refuses callers without the permission or without a login', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/Dept/list', {}],
      ['POST', '/api/Dept/export', {}],
      ['POST', '/api/Dept/save', { deptName: 'x', deptNo: 'NOPE' }],
      ['GET', `/api/Dept/delete?ids=${companyB}`, undefined],
      ['DELETE', `/api/Dept/delete?ids=${companyB}`, undefined],
    ] as const) {
      const asUser = await t.call(method, url, { token: user, body });
      expect(asUser.status).toBe(403);
      expect(asUser.body).toMatchObject({ success: false, msg: messages.common.forbidden });
      const anonymous = await t.call(method, url, { body });
      expect(anonymous.status).toBe(401);
    }
    expect(await deptRow(companyB)).toBeDefined();
    expect(await t.ctx.db.selectFrom('sys_dept').select('deptId').where('deptNo', '=', 'NOPE').executeTakeFirst()).toBeUndefined();
  });
});
