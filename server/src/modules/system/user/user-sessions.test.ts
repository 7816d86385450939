import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, RoleId, SUPER_ADMIN_USER_ID } from '@huiyun/contract';
import { type TestApp } from '../../../test/harness.ts';
import { startUserTestApp, type UserTestApp } from '../../../test/users.ts';

// 用户管理: delete, lock, reset password and force offline (each ends sessions).

const m = messages.user;

let t: TestApp;
let admin: string;
let demoDeptId: number;
let otherDeptId: number;
let demoAdmin: string;
let demoAdminId: number;
let otherAdmin: string;
let userRow: UserTestApp['userRow'];
let isLive: UserTestApp['isLive'];

beforeAll(async () => {
  ({ t, admin, demoDeptId, otherDeptId, demoAdmin, demoAdminId, otherAdmin, userRow, isLive } = await startUserTestApp());
});
afterAll(async () => t?.close());

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
