import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, RoleId } from '@huiyun/contract';
import { type TestApp } from '../../../test/harness.ts';
import { startUserTestApp, type UserTestApp } from '../../../test/users.ts';

// 用户管理: 变更公司 and 数据权限 (the companies of an account).

const m = messages.user;

let t: TestApp;
let admin: string;
let demoDeptId: number;
let otherDeptId: number;
let thirdDeptId: number;
let demoAdmin: string;
let demoAdminId: number;
let otherAdmin: string;
let list: UserTestApp['list'];
let save: UserTestApp['save'];
let userRow: UserTestApp['userRow'];

beforeAll(async () => {
  ({ t, admin, demoDeptId, otherDeptId, thirdDeptId, demoAdmin, demoAdminId, otherAdmin, list, save, userRow } = await startUserTestApp());
});
afterAll(async () => t?.close());

describe('POST /api/User/change/dept', () => {
  it('moves several users to one company', async () => {
    const a = await t.createUser({ userName: 'move_a' });
    const b = await t.createUser({ userName: 'move_b' });
    const { body } = await t.call('POST', '/api/User/change/dept', { token: admin, body: { userIds: `${a},${b}`, deptId: otherDeptId, deptName: '另一家公司' } });
    expect(body).toMatchObject({ success: true, msg: '部门设置成功！' });
    expect((await userRow(a))?.deptId).toBe(otherDeptId);
    expect((await userRow(b))?.deptId).toBe(otherDeptId);
  });

  it('checks its input', async () => {
    const a = await t.createUser({ userName: 'move_check' });
    expect((await t.call('POST', '/api/User/change/dept', { token: admin, body: { userIds: '', deptId: 1 } })).body.msg).toBe(m.usersRequired);
    expect((await t.call('POST', '/api/User/change/dept', { token: admin, body: { userIds: String(a) } })).body.msg).toBe(m.deptRequired);
    expect((await t.call('POST', '/api/User/change/dept', { token: admin, body: { userIds: String(a), deptId: 999 } })).body.msg).toBe(m.deptNotFound);
    expect((await t.call('POST', '/api/User/change/dept', { token: admin, body: { userIds: `${a},99999`, deptId: otherDeptId } })).body.msg).toBe(m.notFound);
    expect((await userRow(a))?.deptId).toBe(demoDeptId);
  });

  it('refuses a company or a user outside the caller\'s scope, changing nothing', async () => {
    const mine = await t.createUser({ userName: 'move_mine', deptId: demoDeptId });
    const theirs = await t.createUser({ userName: 'move_theirs', deptId: otherDeptId });
    const toOther = await t.call('POST', '/api/User/change/dept', { token: demoAdmin, body: { userIds: String(mine), deptId: otherDeptId } });
    expect(toOther.status).toBe(403);
    expect(toOther.body.msg).toBe(messages.common.outOfScope);
    const fromOther = await t.call('POST', '/api/User/change/dept', { token: demoAdmin, body: { userIds: `${mine},${theirs}`, deptId: demoDeptId } });
    expect(fromOther.status).toBe(403);
    expect((await userRow(mine))?.deptId).toBe(demoDeptId);
    expect((await userRow(theirs))?.deptId).toBe(otherDeptId);
  });
});

describe('data permission (/api/UserDept)', () => {
  it('lists the caller\'s companies as tree items', async () => {
    const all = await t.call('GET', '/api/UserDept/deptTree/0', { token: admin });
    expect(all.body.success).toBe(true);
    expect(all.body.data).toEqual(expect.arrayContaining([
      { id: demoDeptId, pId: 0, name: '汇云演示公司', open: true, checked: false },
      { id: otherDeptId, pId: 0, name: '另一家公司', open: true, checked: false },
    ]));
    const theirs = await t.call('GET', '/api/UserDept/deptTree/0', { token: otherAdmin });
    expect(theirs.body.data.map((n: { id: number }) => n.id)).toEqual([otherDeptId]);
    expect((await t.call('GET', '/api/UserDept/deptTree/x', { token: admin })).body.msg).toBe(messages.common.badParameter);
  });

  it('saves grants (JSON text or array), ticks them, and widens the administrator\'s scope at once', async () => {
    await t.createUser({ userName: 'other_member', deptId: otherDeptId });
    const grantee = await t.createUser({ userName: 'grantee', roleId: RoleId.companyAdmin, deptId: demoDeptId });
    const token = await t.login('grantee', 'User@12345');
    expect((await list(token, { userName: 'other_member' })).body.total).toBe(0);

    const saved = await t.call('POST', '/api/UserDept/save', { token: admin, body: { userId: grantee, deptIds: `[${otherDeptId},${thirdDeptId}]` } });
    expect(saved.body).toMatchObject({ success: true, msg: '权限保存成功' });
    const tree = await t.call('GET', `/api/UserDept/tree/${grantee}`, { token: admin });
    const checked = tree.body.data.filter((n: { checked: boolean }) => n.checked).map((n: { id: number }) => n.id);
    expect(checked.sort()).toEqual([otherDeptId, thirdDeptId].sort());
    expect((await list(token, { userName: 'other_member' })).body.total).toBe(1);

    expect((await t.call('POST', '/api/UserDept/save', { token: admin, body: { userId: grantee, deptIds: [thirdDeptId] } })).body.success).toBe(true);
    expect((await list(token, { userName: 'other_member' })).body.total).toBe(0);
    expect((await t.call('POST', '/api/UserDept/save', { token: admin, body: { userId: grantee, deptIds: '[]' } })).body.success).toBe(true);
    expect(await t.ctx.db.selectFrom('sys_user_dept').selectAll().where('userId', '=', grantee).execute()).toEqual([]);
  });

  it('keeps grants outside the caller\'s scope and refuses anything beyond it', async () => {
    const grantee = await t.createUser({ userName: 'grantee2', roleId: RoleId.companyAdmin, deptId: otherDeptId });
    await t.call('POST', '/api/UserDept/save', { token: admin, body: { userId: grantee, deptIds: [thirdDeptId] } });
    // The other company's administrator sees only its company and may grant only that.
    const tree = await t.call('GET', `/api/UserDept/tree/${grantee}`, { token: otherAdmin });
    expect(tree.body.data).toEqual([{ id: otherDeptId, pId: 0, name: '另一家公司', open: true, checked: false }]);
    expect((await t.call('POST', '/api/UserDept/save', { token: otherAdmin, body: { userId: grantee, deptIds: [otherDeptId] } })).body.success).toBe(true);
    const grants = (await t.ctx.db.selectFrom('sys_user_dept').select('deptId').where('userId', '=', grantee).execute()).map((r) => r.deptId);
    expect(grants.sort()).toEqual([otherDeptId, thirdDeptId].sort());

    const beyond = await t.call('POST', '/api/UserDept/save', { token: otherAdmin, body: { userId: grantee, deptIds: [demoDeptId] } });
    expect(beyond.status).toBe(403);
    expect(beyond.body.msg).toBe(messages.common.outOfScope);
    const targetOutside = await t.call('POST', '/api/UserDept/save', { token: otherAdmin, body: { userId: demoAdminId, deptIds: [otherDeptId] } });
    expect(targetOutside.status).toBe(403);
    expect((await t.call('GET', `/api/UserDept/tree/${demoAdminId}`, { token: otherAdmin })).status).toBe(403);
    expect(await t.ctx.db.selectFrom('sys_user_dept').selectAll().where('userId', '=', demoAdminId).execute()).toEqual([]);
    expect((await t.call('POST', '/api/UserDept/save', { token: admin, body: { userId: grantee, deptIds: [999] } })).body.msg).toBe(m.deptNotFound);
    expect((await t.call('POST', '/api/UserDept/save', { token: admin, body: { userId: grantee, deptIds: '[1,' } })).body.msg).toBe(messages.common.badParameter);
    const after = (await t.ctx.db.selectFrom('sys_user_dept').select('deptId').where('userId', '=', grantee).execute()).map((r) => r.deptId);
    expect(after.sort()).toEqual([otherDeptId, thirdDeptId].sort());
  });
});
