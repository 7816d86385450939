import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, RoleId, SUPER_ADMIN_USER_ID } from '@huiyun/contract';
import { type TestApp } from '../../../test/harness.ts';
import { readXlsxExport } from '../../../test/xlsx-export.ts';
import { validUser, startUserTestApp, type UserTestApp } from '../../../test/users.ts';

// 用户管理: the list and 新增 / 编辑.

const m = messages.user;

let t: TestApp;
let admin: string;
let demoDeptId: number;
let otherDeptId: number;
let demoAdmin: string;
let otherAdmin: string;
let list: UserTestApp['list'];
let save: UserTestApp['save'];
let userRow: UserTestApp['userRow'];
let isLive: UserTestApp['isLive'];

beforeAll(async () => {
  ({ t, admin, demoDeptId, otherDeptId, demoAdmin, otherAdmin, list, save, userRow, isLive } = await startUserTestApp());
});
afterAll(async () => t?.close());

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
    const added = await save(admin, { userName: 'newbie', ...validUser });
    expect(added.body).toMatchObject({ success: true, msg: '数据保存成功！' });
    const { userId, initialPassword } = added.body.data;
    expect(initialPassword).toMatch(/^[A-Za-z0-9]{12}$/);
    const row = await userRow(userId);
    expect(row).toMatchObject({ userName: 'newbie', deptId: demoDeptId, isLock: 'N', addUser: 'admin' });
    expect(row?.passwordHash).not.toContain(initialPassword);
    expect(await isLive(await t.login('newbie', initialPassword))).toBe(true);

    const edited = await save(admin, { userId: String(userId), userName: 'newbie', ...validUser, userRealName: '李四', userSex: '女', userMobile: '17612345678' });
    expect(edited.body).toMatchObject({ success: true, msg: '数据保存成功！' });
    expect(edited.body.data).not.toHaveProperty('initialPassword');
    expect(await userRow(userId)).toMatchObject({ userRealName: '李四', userSex: '女', userMobile: '17612345678', deptId: demoDeptId });
  });

  it('puts a company administrator\'s new user in its own company', async () => {
    const { body } = await save(otherAdmin, { userName: 'made_by_other', ...validUser });
    expect(body.success).toBe(true);
    expect((await userRow(body.data.userId))?.deptId).toBe(otherDeptId);
  });

  it('answers each field its SPEC message and writes nothing', async () => {
    const before = (await list(admin)).body.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...validUser }, '请输入用户名'],
      [{ ...validUser, userName: '  ' }, '请输入用户名'],
      [{ ...validUser, userName: 'has space' }, m.userNameFormat],
      [{ ...validUser, userName: 'a', userRealName: '' }, '请输入姓名'],
      [{ ...validUser, userName: 'a', roleId: '' }, '请选择角色'],
      [{ ...validUser, userName: 'a', roleId: undefined }, '请选择角色'],
      [{ ...validUser, userName: 'a', userSex: '' }, '请选择性别'],
      [{ ...validUser, userName: 'a', userSex: '未知' }, '请选择性别'],
      [{ ...validUser, userName: 'a', userMobile: '' }, '请输入手机号'],
      [{ ...validUser, userName: 'a', userEmail: '' }, '请输入邮箱'],
      [{ ...validUser, userName: 'a', userEmail: 'not-an-email' }, '请输入正确的邮箱'],
      [{ ...validUser, userName: 'a', userEmail: 'a@b' }, '请输入正确的邮箱'],
      [{ ...validUser, userName: 'a', userId: 'abc' }, messages.common.badParameter],
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
      const { body } = await save(admin, { userName: `mob_ok_${i}`, ...validUser, userMobile: mobile });
      expect(body.success, mobile).toBe(true);
    }
    for (const [i, mobile] of bad.entries()) {
      const { body } = await save(admin, { userName: `mob_bad_${i}`, ...validUser, userMobile: mobile });
      expect(body.msg, mobile).toBe('请输入正确的手机号');
    }
  });

  it('keeps user names unique', async () => {
    await save(admin, { userName: 'twin', ...validUser });
    const again = await save(admin, { userName: 'twin', ...validUser });
    expect(again.body).toMatchObject({ success: false, msg: m.userNameTaken });
    const other = (await save(admin, { userName: 'twin2', ...validUser })).body.data.userId;
    expect((await save(admin, { userId: other, userName: 'twin', ...validUser })).body.msg).toBe(m.userNameTaken);
  });

  it('refuses a company administrator the super administrator role, super administrators and other companies', async () => {
    const giveSuper = await save(demoAdmin, { userName: 'would_be_super', ...validUser, roleId: RoleId.superAdmin });
    expect(giveSuper.status).toBe(403);
    expect(giveSuper.body.msg).toBe(m.cannotGrantSuperAdmin);

    const editAdmin = await save(demoAdmin, { userId: SUPER_ADMIN_USER_ID, userName: 'admin', ...validUser });
    expect(editAdmin.status).toBe(403);
    expect(editAdmin.body.msg).toBe(m.superAdminProtected);
    expect((await userRow(SUPER_ADMIN_USER_ID))?.roleId).toBe(RoleId.superAdmin);

    const placeOutside = await save(demoAdmin, { userName: 'outside', ...validUser, deptId: otherDeptId });
    expect(placeOutside.status).toBe(403);
    expect(placeOutside.body.msg).toBe(messages.common.outOfScope);
    expect((await list(admin, { userName: 'outside' })).body.total).toBe(0);

    const target = await t.createUser({ userName: 'other_edit_target', deptId: otherDeptId });
    const editOutside = await save(demoAdmin, { userId: target, userName: 'other_edit_target', ...validUser, userRealName: '改名' });
    expect(editOutside.status).toBe(403);
    expect((await userRow(target))?.userRealName).toBe('other_edit_target');

    expect((await save(admin, { userId: 99999, userName: 'ghost', ...validUser })).body.msg).toBe(m.notFound);
    expect((await save(admin, { userName: 'norole', ...validUser, roleId: 999 })).body.msg).toBe(m.roleNotFound);
    expect((await save(admin, { userName: 'nodept', ...validUser, deptId: 999 })).body.msg).toBe(m.deptNotFound);
    expect((await save(admin, { userId: SUPER_ADMIN_USER_ID, userName: 'admin', ...validUser, roleId: RoleId.companyAdmin })).body.msg).toBe(m.adminRoleFixed);
  });

  it('lets the super administrator give the super administrator role and place users anywhere', async () => {
    const { body } = await save(admin, { userName: 'second_super', ...validUser, roleId: RoleId.superAdmin, deptId: otherDeptId });
    expect(body.success).toBe(true);
    expect(await userRow(body.data.userId)).toMatchObject({ roleId: RoleId.superAdmin, deptId: otherDeptId });
    // the other company's administrator cannot touch this super administrator
    expect((await save(otherAdmin, { userId: body.data.userId, userName: 'second_super', ...validUser })).status).toBe(403);
  });
});
