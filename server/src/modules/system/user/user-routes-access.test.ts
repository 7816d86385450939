import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, RoleId, SUPER_ADMIN_USER_ID } from '@huiyun/contract';
import { type TestApp } from '../../../test/harness.ts';
import { validUser, startUserTestApp, type UserTestApp } from '../../../test/users.ts';

// 用户管理: who may call each route, and the operation log.

const m = messages.user;

let t: TestApp;
let admin: string;
let demoDeptId: number;
let list: UserTestApp['list'];
let save: UserTestApp['save'];
let userRow: UserTestApp['userRow'];
let isLive: UserTestApp['isLive'];

beforeAll(async () => {
  ({ t, admin, demoDeptId, list, save, userRow, isLive } = await startUserTestApp());
});
afterAll(async () => t?.close());

describe('who may call', () => {
  const routes: [string, string, unknown?][] = [
    ['POST', '/api/User/list', {}],
    ['POST', '/api/User/export', {}],
    ['POST', '/api/User/save', { userName: 'x', ...validUser }],
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
