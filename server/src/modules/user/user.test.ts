import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, RoleId, SUPER_ADMIN_USER_ID } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { readXlsxExport } from '../../test/xlsx-export.ts';

const m = messages.user;
let t: TestApp;
let admin: string;
let demoDeptId: number;
let otherDeptId: number;
let thirdDeptId: number;
/** Company administrator of the demo company (the one account 1 lives in). */
let demoAdmin: string;
let demoAdminId: number;
/** Company administrator of another company. */
let otherAdmin: string;
let otherAdminId: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  demoDeptId = (await t.ctx.db.selectFrom('sys_dept').select('deptId').where('deptNo', '=', 'DEMO').executeTakeFirstOrThrow()).deptId;
  otherDeptId = await t.createCompany('另一家公司', 'OTHER');
  thirdDeptId = await t.createCompany('第三家公司', 'THIRD');
  demoAdminId = await t.createUser({ userName: 'demoadmin', roleId: RoleId.companyAdmin, deptId: demoDeptId });
  otherAdminId = await t.createUser({ userName: 'otheradmin', roleId: RoleId.companyAdmin, deptId: otherDeptId });
  demoAdmin = await t.login('demoadmin', 'User@12345');
  otherAdmin = await t.login('otheradmin', 'User@12345');
});
afterAll(async () => t?.close());

const list = (token: string, body: Record<string, unknown> = {}) => t.call('POST', '/api/User/list', { token, body: { page: 1, limit: 10, ...body } });
const save = (token: string, body: Record<string, unknown>) => t.call('POST', '/api/User/save', { token, body });
const valid = { userRealName: '张三', roleId: RoleId.ordinaryUser, userSex: '男', userMobile: '13800138000', userEmail: 'zhang@example.com' };
const userRow = (userId: number) => t.ctx.db.selectFrom('sys_user').selectAll().where('userId', '=', userId).executeTakeFirst();
const isLive = async (token: string) => (await t.call('GET', '/sync/currentUser', { token })).status === 200;

describe('POST /api/User/list', () => {
  it('lists with role and company names, never the password hash, and filters', async () => {
    const userId = await t.createUser({ userName: 'listme', deptId: demoDeptId });
    await t.ctx.db.updateTable('sys_user').set({ userMobile: '13912345678' }).where('userId', '=', userId).execute();
    const { body } = await list(admin, { userName: 'listme' });
    expect(body.success).toBe(true);
    expect(body.total).toBe(1);
    expect(body.data[0]).toMatchObject({ userId, userName: 'listme', isLock: 'N', deptId: demoDeptId, deptName: '汇云演示公司', roleId: RoleId.ordinaryUser, roleName: '普通用户' });
    expect(body.data[0].editTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(body.data[0]).not.toHaveProperty('passwordHash');
    expect((await list(admin, { userMobile: '1391234' })).body.data.map((u: { userName: string }) => u.userName)).toEqual(['listme']);
    expect((await list(admin, { userName: 'LISTME', isLock: 'Y' })).body.total).toBe(0);
    expect((await list(admin, { userName: 'listme', isLock: 'N' })).body.total).toBe(1);
    expect((await list(admin, { isLock: 'X' })).body.msg).toBe(m.lockValue);
  });

  it('pages and sorts on whitelisted columns only', async () => {
    for (let i = 1; i <= 12; i++) await t.createUser({ userName: `pg_${String(i).padStart(2, '0')}`, deptId: demoDeptId });
    const first = await list(admin, { userName: 'pg_', sortField: 'userName', sortOrder: 'ascend' });
    expect(first.body.total).toBe(12);
    expect(first.body.data.map((u: { userName: string }) => u.userName)[0]).toBe('pg_01');
    const second = await list(admin, { userName: 'pg_', page: 2, sortField: 'userName', sortOrder: 'descend' });
    expect(second.body.data.map((u: { userName: string }) => u.userName)).toEqual(['pg_02', 'pg_01']);
    expect((await list(admin, { sortField: 'passwordHash', sortOrder: 'ascend' })).body.success).toBe(true);
  });

  it('shows a company administrator only the users of its companies', async () => {
    await t.createUser({ userName: 'other_member', deptId: otherDeptId });
    const names = (await list(otherAdmin, { limit: 200 })).body.data.map((u: { userName: string }) => u.userName);
    expect(names).toContain('other_member');
    expect(names).toContain('otheradmin');
    expect(names).not.toContain('admin');
    expect(names).not.toContain('demoadmin');
    const adminNames = (await list(admin, { limit: 200 })).body.data.map((u: { userName: string }) => u.userName);
    expect(adminNames).toEqual(expect.arrayContaining(['admin', 'demoadmin', 'otheradmin', 'other_member']));
  });

  it('exports the filtered list as xlsx', async () => {
    const { raw } = await t.call('POST', '/api/User/export', { token: admin, body: { userName: 'pg_' } });
    const rows = await readXlsxExport(raw, m.title);
    expect(rows).toHaveLength(13); // the header and pg_01 … pg_12
    for (const row of rows.slice(1)) expect(row.some((cell) => String(cell).startsWith('pg_'))).toBe(true);
  });
});

describe('POST /api/User/save', () => {
  it('adds a user with a one-time temporary password that logs in, then edits it', async () => {
    const added = await save(admin, { userName: 'newbie', ...valid });
    expect(added.body).toMatchObject({ success: true, msg: '数据保存成功！' });
    const { userId, initialPassword } = added.body.data;
    expect(initialPassword).toMatch(/^[A-Za-z0-9]{12}$/);
    const row = await userRow(userId);
    expect(row).toMatchObject({ userName: 'newbie', deptId: demoDeptId, isLock: 'N', addUser: 'admin' });
    expect(row?.passwordHash).not.toContain(initialPassword);
    expect(await isLive(await t.login('newbie', initialPassword))).toBe(true);

    const edited = await save(admin, { userId: String(userId), userName: 'newbie', ...valid, userRealName: '李四', userSex: '女', userMobile: '17612345678' });
    expect(edited.body).toMatchObject({ success: true, msg: '数据保存成功！' });
    expect(edited.body.data).not.toHaveProperty('initialPassword');
    expect(await userRow(userId)).toMatchObject({ userRealName: '李四', userSex: '女', userMobile: '17612345678', deptId: demoDeptId });
  });

  it('puts a company administrator\'s new user in its own company', async () => {
    const { body } = await save(otherAdmin, { userName: 'made_by_other', ...valid });
    expect(body.success).toBe(true);
    expect((await userRow(body.data.userId))?.deptId).toBe(otherDeptId);
  });

  it('answers each field its SPEC message and writes nothing', async () => {
    const before = (await list(admin)).body.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid }, '请输入用户名'],
      [{ ...valid, userName: '  ' }, '请输入用户名'],
      [{ ...valid, userName: 'has space' }, m.userNameFormat],
      [{ ...valid, userName: 'a', userRealName: '' }, '请输入姓名'],
      [{ ...valid, userName: 'a', roleId: '' }, '请选择角色'],
      [{ ...valid, userName: 'a', roleId: undefined }, '请选择角色'],
      [{ ...valid, userName: 'a', userSex: '' }, '请选择性别'],
      [{ ...valid, userName: 'a', userSex: '未知' }, '请选择性别'],
      [{ ...valid, userName: 'a', userMobile: '' }, '请输入手机号'],
      [{ ...valid, userName: 'a', userEmail: '' }, '请输入邮箱'],
      [{ ...valid, userName: 'a', userEmail: 'not-an-email' }, '请输入正确的邮箱'],
      [{ ...valid, userName: 'a', userEmail: 'a@b' }, '请输入正确的邮箱'],
      [{ ...valid, userName: 'a', userId: 'abc' }, messages.common.badParameter],
    ];
    for (const [body, message] of cases) {
      const answer = await save(admin, body);
      expect(answer.status, message).toBe(400);
      expect(answer.body).toMatchObject({ success: false, msg: message, errorInfo: message });
    }
    expect((await list(admin)).body.total).toBe(before);
  });

  it('checks mobiles with exactly the SPEC rule', async () => {
    const good = ['13012345678', '13912345678', '14712345678', '15012345678', '15312345678', '15512345678', '15912345678',
      '17012345678', '17112345678', '17612345678', '17712345678', '17812345678', '18012345678', '18912345678'];
    const bad = ['15412345678', '14612345678', '14812345678', '17212345678', '17512345678', '17912345678', '19912345678',
      '16612345678', '12345678901', '1381234567', '138123456789', 'abcdefghijk', '+8613812345678'];
    for (const [i, mobile] of good.entries()) {
      const { body } = await save(admin, { userName: `mob_ok_${i}`, ...valid, userMobile: mobile });
      expect(body.success, mobile).toBe(true);
    }
    for (const [i, mobile] of bad.entries()) {
      const { body } = await save(admin, { userName: `mob_bad_${i}`, ...valid, userMobile: mobile });
      expect(body.msg, mobile).toBe('请输入正确的手机号');
    }
  });

  it('keeps user names unique', async () => {
    await save(admin, { userName: 'twin', ...valid });
    const again = await save(admin, { userName: 'twin', ...valid });
    expect(again.body).toMatchObject({ success: false, msg: m.userNameTaken });
    const other = (await save(admin, { userName: 'twin2', ...valid })).body.data.userId;
    expect((await save(admin, { userId: other, userName: 'twin', ...valid })).body.msg).toBe(m.userNameTaken);
  });

  it('refuses a company administrator the super administrator role, super administrators and other companies', async () => {
    const giveSuper = await save(demoAdmin, { userName: 'would_be_super', ...valid, roleId: RoleId.superAdmin });
    expect(giveSuper.status).toBe(403);
    expect(giveSuper.body.msg).toBe(m.cannotGrantSuperAdmin);

    const editAdmin = await save(demoAdmin, { userId: SUPER_ADMIN_USER_ID, userName: 'admin', ...valid });
    expect(editAdmin.status).toBe(403);
    expect(editAdmin.body.msg).toBe(m.superAdminProtected);
    expect((await userRow(SUPER_ADMIN_USER_ID))?.roleId).toBe(RoleId.superAdmin);

    const placeOutside = await save(demoAdmin, { userName: 'outside', ...valid, deptId: otherDeptId });
    expect(placeOutside.status).toBe(403);
    expect(placeOutside.body.msg).toBe(messages.common.outOfScope);
    expect((await list(admin, { userName: 'outside' })).body.total).toBe(0);

    const target = await t.createUser({ userName: 'other_edit_target', deptId: otherDeptId });
    const editOutside = await save(demoAdmin, { userId: target, userName: 'other_edit_target', ...valid, userRealName: '改名' });
    expect(editOutside.status).toBe(403);
    expect((await userRow(target))?.userRealName).toBe('other_edit_target');

    expect((await save(admin, { userId: 99999, userName: 'ghost', ...valid })).body.msg).toBe(m.notFound);
    expect((await save(admin, { userName: 'norole', ...valid, roleId: 999 })).body.msg).toBe(m.roleNotFound);
    expect((await save(admin, { userName: 'nodept', ...valid, deptId: 999 })).body.msg).toBe(m.deptNotFound);
    expect((await save(admin, { userId: SUPER_ADMIN_USER_ID, userName: 'admin', ...valid, roleId: RoleId.companyAdmin })).body.msg).toBe(m.adminRoleFixed);
  });

  it('lets the super administrator give the super administrator role and place users anywhere', async () => {
    const { body } = await save(admin, { userName: 'second_super', ...valid, roleId: RoleId.superAdmin, deptId: otherDeptId });
    expect(body.success).toBe(true);
    expect(await userRow(body.data.userId)).toMatchObject({ roleId: RoleId.superAdmin, deptId: otherDeptId });
    // the other company's administrator cannot touch this super administrator
    expect((await save(otherAdmin, { userId: body.data.userId, userName: 'second_super', ...valid })).status).toBe(403);
  });
});

describe('DELETE /api/User/delete', () => {
  it('deletes users and ends their sessions', async () => {
    const a = await t.createUser({ userName: 'del_a' });
    const b = await t.createUser({ userName: 'del_b' });
    const session = await t.login('del_a', 'User@12345');
    const { body } = await t.call('DELETE', `/api/User/delete?ids=${a},${b}`, { token: admin });
    expect(body).toMatchObject({ success: true, msg: '数据已删除!' });
    expect(await userRow(a)).toBeUndefined();
    expect(await userRow(b)).toBeUndefined();
    expect(await isLive(session)).toBe(false);
  });

  it('never deletes account 1 or the caller, and deletes nothing of a refused batch', async () => {
    const keep = await t.createUser({ userName: 'del_keep' });
    const first = await t.call('DELETE', `/api/User/delete?ids=${keep},${SUPER_ADMIN_USER_ID}`, { token: admin });
    expect(first.body.msg).toBe(m.cannotDeleteAdmin);
    const self = await t.call('DELETE', `/api/User/delete?ids=${demoAdminId}`, { token: demoAdmin });
    expect(self.body.msg).toBe(m.cannotDeleteSelf);
    expect(await userRow(keep)).toBeDefined();
    expect(await userRow(demoAdminId)).toBeDefined();
    expect((await t.call('DELETE', `/api/User/delete?ids=${keep},99999`, { token: admin })).body.msg).toBe(m.notFound);
    expect(await userRow(keep)).toBeDefined();
    expect((await t.call('DELETE', '/api/User/delete', { token: admin })).body.msg).toBe(messages.common.idsRequired);
  });

  it('refuses users outside the caller\'s scope and changes nothing', async () => {
    const mine = await t.createUser({ userName: 'del_mine', deptId: demoDeptId });
    const theirs = await t.createUser({ userName: 'del_theirs', deptId: otherDeptId });
    const { status, body } = await t.call('DELETE', `/api/User/delete?ids=${mine},${theirs}`, { token: demoAdmin });
    expect(status).toBe(403);
    expect(body.msg).toBe(messages.common.outOfScope);
    expect(await userRow(mine)).toBeDefined();
    expect(await userRow(theirs)).toBeDefined();
  });
});

describe('GET /api/User/lock', () => {
  it('locks (ending the sessions, refusing the login) and unlocks', async () => {
    const userId = await t.createUser({ userName: 'lockme' });
    const session = await t.login('lockme', 'User@12345');
    const locked = await t.call('GET', `/api/User/lock?userId=${userId}&lock=Y`, { token: admin });
    expect(locked.body).toMatchObject({ success: true, msg: '状态修改成功' });
    expect((await userRow(userId))?.isLock).toBe('Y');
    expect(await isLive(session)).toBe(false);
    const login = await t.call('POST', '/sync/login', { body: { userName: 'lockme', passwd: 'User@12345' } });
    expect(login.body.success).toBe(false);

    expect((await t.call('GET', `/api/User/lock?userId=${userId}&lock=N`, { token: admin })).body.msg).toBe('状态修改成功');
    expect(await isLive(await t.login('lockme', 'User@12345'))).toBe(true);
  });

  it('refuses account 1, the caller itself, bad values and other companies', async () => {
    expect((await t.call('GET', `/api/User/lock?userId=${SUPER_ADMIN_USER_ID}&lock=Y`, { token: admin })).body.msg).toBe(m.cannotLockAdmin);
    expect((await t.call('GET', `/api/User/lock?userId=${demoAdminId}&lock=Y`, { token: demoAdmin })).body.msg).toBe(m.cannotLockSelf);
    expect((await t.call('GET', `/api/User/lock?userId=${demoAdminId}&lock=X`, { token: admin })).body.msg).toBe(m.lockValue);
    expect((await t.call('GET', '/api/User/lock?lock=Y', { token: admin })).body.msg).toBe(messages.common.badParameter);
    const theirs = await t.createUser({ userName: 'lock_theirs', deptId: otherDeptId });
    const refused = await t.call('GET', `/api/User/lock?userId=${theirs}&lock=Y`, { token: demoAdmin });
    expect(refused.status).toBe(403);
    expect((await userRow(theirs))?.isLock).toBe('N');
    expect((await userRow(SUPER_ADMIN_USER_ID))?.isLock).toBe('N');
    expect(await isLive(demoAdmin)).toBe(true);
  });
});

describe('POST /api/User/pwd', () => {
  it('gives a new temporary password once, ends the sessions, and the new password logs in', async () => {
    const userId = await t.createUser({ userName: 'resetme' });
    const session = await t.login('resetme', 'User@12345');
    const { body } = await t.call('POST', '/api/User/pwd', { token: admin, body: { userId } });
    expect(body).toMatchObject({ success: true, msg: '重置密码成功！', data: { userId, userName: 'resetme' } });
    expect(body.data.password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(await isLive(session)).toBe(false);
    expect((await t.call('POST', '/sync/login', { body: { userName: 'resetme', passwd: 'User@12345' } })).body.success).toBe(false);
    expect(await isLive(await t.login('resetme', body.data.password))).toBe(true);
  });

  it('keeps the caller\'s own session when it resets itself', async () => {
    const userId = await t.createUser({ userName: 'selfreset', roleId: RoleId.companyAdmin });
    const token = await t.login('selfreset', 'User@12345');
    const other = await t.login('selfreset', 'User@12345');
    const { body } = await t.call('POST', '/api/User/pwd', { token, body: { userId } });
    expect(body.success).toBe(true);
    expect(await isLive(token)).toBe(true);
    expect(await isLive(other)).toBe(false);
  });

  it('refuses other companies and super administrators, changing nothing', async () => {
    const theirs = await t.createUser({ userName: 'pwd_theirs', deptId: otherDeptId });
    const before = (await userRow(theirs))?.passwordHash;
    expect((await t.call('POST', '/api/User/pwd', { token: demoAdmin, body: { userId: theirs } })).status).toBe(403);
    expect((await userRow(theirs))?.passwordHash).toBe(before);
    const refused = await t.call('POST', '/api/User/pwd', { token: demoAdmin, body: { userId: SUPER_ADMIN_USER_ID } });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe(m.superAdminProtected);
    expect(await isLive(admin)).toBe(true);
    expect((await t.call('POST', '/api/User/pwd', { token: admin, body: { userId: 99999 } })).body.msg).toBe(m.notFound);
    expect((await t.call('POST', '/api/User/pwd', { token: admin, body: {} })).body.msg).toBe(messages.common.badParameter);
  });
});

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

describe('force offline and refresh cache', () => {
  it('refuses accounts outside the caller\'s scope', async () => {
    await t.createUser({ userName: 'kick_theirs', deptId: otherDeptId });
    const session = await t.login('kick_theirs', 'User@12345');
    const kicked = await t.call('GET', '/api/User/expireToken/kick_theirs', { token: demoAdmin });
    expect(kicked.status).toBe(403);
    expect(kicked.body.msg).toBe(messages.common.outOfScope);
    expect(await isLive(session)).toBe(true);
    expect((await t.call('GET', '/api/User/flashCache/kick_theirs', { token: demoAdmin })).status).toBe(403);
    expect((await t.call('GET', '/api/User/expireToken/admin', { token: demoAdmin })).status).toBe(403);
    expect(await isLive(admin)).toBe(true);

    const ok = await t.call('GET', '/api/User/expireToken/kick_theirs', { token: otherAdmin });
    expect(ok.body).toMatchObject({ success: true, msg: '用户kick_theirs强制下线成功！' });
    expect(await isLive(session)).toBe(false);
    expect((await t.call('GET', '/api/User/flashCache/kick_theirs', { token: otherAdmin })).body.msg).toBe('刷新成功！');
  });
});

describe('who may call', () => {
  const routes: [string, string, unknown?][] = [
    ['POST', '/api/User/list', {}],
    ['POST', '/api/User/export', {}],
    ['POST', '/api/User/save', { userName: 'x', ...valid }],
    ['DELETE', '/api/User/delete?ids=1'],
    ['GET', '/api/User/lock?userId=1&lock=Y'],
    ['POST', '/api/User/pwd', { userId: 1 }],
    ['POST', '/api/User/change/dept', { userIds: '1', deptId: 1 }],
    ['GET', '/api/UserDept/deptTree/0'],
    ['GET', '/api/UserDept/tree/1'],
    ['POST', '/api/UserDept/save', { userId: 1, deptIds: '[1]' }],
    ['GET', '/api/User/expireToken/admin'],
    ['GET', '/api/User/flashCache/admin'],
  ];

  it('answers 401 without a login and 403 to an ordinary user, changing nothing', async () => {
    await t.createUser({ userName: 'plain_user', roleId: RoleId.ordinaryUser });
    const plain = await t.login('plain_user', 'User@12345');
    for (const [method, url, body] of routes) {
      expect((await t.call(method, url, { body })).status, url).toBe(401);
      const refused = await t.call(method, url, { token: plain, body });
      expect(refused.status, url).toBe(403);
      expect(refused.body.msg).toBe(messages.common.forbidden);
    }
    expect(await userRow(SUPER_ADMIN_USER_ID)).toMatchObject({ isLock: 'N', deptId: demoDeptId });
    expect(await isLive(admin)).toBe(true);
  });

  it('writes the operation log without passwords', async () => {
    const userId = await t.createUser({ userName: 'audited' });
    const { body } = await t.call('POST', '/api/User/pwd', { token: admin, body: { userId } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logs = await t.ctx.db.selectFrom('sys_oper_log').selectAll().where('action', '=', m.actionResetPwd).execute();
    expect(logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(logs)).not.toContain(body.data.password);
    expect(logs.at(-1)).toMatchObject({ module: m.title, userName: 'admin', success: 1, target: `userId ${userId}` });
  });
});
