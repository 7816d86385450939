import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRoutes, messages, RoleId } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { menuUrls } from './access.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOGIN_SLOWDOWN_AFTER: '3', LOGIN_LOCKOUT_AFTER: '5', LOGIN_ACCOUNT_LOCKOUT_AFTER: '20', SESSION_IDLE_MINUTES: '30' });
});
afterAll(async () => t?.close());

describe('POST /sync/login', () => {
  it('logs the administrator in with code 1 and a token', async () => {
    const { status, body } = await t.call('POST', '/sync/login', { body: { userName: 'admin', passwd: ADMIN_PASSWORD } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, msg: messages.login.success, errorInfo: messages.login.success, data: { userId: 1, code: 1 } });
    expect(body.data.token).toMatch(/^[\w-]{40,}$/);
  });

  it('gives an ordinary user code 0', async () => {
    await t.createUser({ userName: 'plain', roleId: RoleId.ordinaryUser });
    const { body } = await t.call('POST', '/sync/login', { body: { userName: 'plain', passwd: 'User@12345' } });
    expect(body.data.code).toBe(0);
  });

  it('accepts a form body', async () => {
    const { body } = await t.call('POST', '/sync/login', {
      body: `userName=admin&passwd=${encodeURIComponent(ADMIN_PASSWORD)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(body.success).toBe(true);
  });

  it('answers one message for a wrong password and an unknown account', async () => {
    await t.createUser({ userName: 'wrongpw' });
    const wrong = await t.call('POST', '/sync/login', { body: { userName: 'wrongpw', passwd: 'nope-nope' } });
    const unknown = await t.call('POST', '/sync/login', { body: { userName: 'nobody-here', passwd: 'nope-nope' } });
    expect(wrong.body).toMatchObject({ success: false, errorInfo: messages.login.badCredentials });
    expect(unknown.body).toMatchObject({ success: false, errorInfo: messages.login.badCredentials });
  });

  it('asks for the account and the password', async () => {
    expect((await t.call('POST', '/sync/login', { body: { passwd: 'x' } })).body.msg).toBe(messages.login.accountRequired);
    expect((await t.call('POST', '/sync/login', { body: { userName: 'admin', passwd: '' } })).body.msg).toBe(messages.login.passwordRequired);
    expect((await t.call('POST', '/sync/login', { body: { userName: 42, passwd: 'x' } })).body.msg).toBe(messages.login.accountRequired);
  });

  it('refuses a locked account with its own message', async () => {
    await t.createUser({ userName: 'locked1', isLock: 'Y' });
    const { body } = await t.call('POST', '/sync/login', { body: { userName: 'locked1', passwd: 'User@12345' } });
    expect(body).toMatchObject({ success: false, msg: messages.login.locked });
  });

  it('refuses an account for a while after repeated failures, even with the right password', async () => {
    await t.createUser({ userName: 'throttled' });
    for (let i = 0; i < 5; i++) {
      const { body } = await t.call('POST', '/sync/login', { body: { userName: 'throttled', passwd: 'bad-password' } });
      expect(body.msg).toBe(messages.login.badCredentials);
    }
    const refused = await t.call('POST', '/sync/login', { body: { userName: 'throttled', passwd: 'User@12345' } });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toBe('登录失败次数过多，请15分钟后再试');
    t.clock.advance(16 * 60_000);
    const after = await t.call('POST', '/sync/login', { body: { userName: 'throttled', passwd: 'User@12345' } });
    expect(after.body.success).toBe(true);
  });
});

// Login attacks, in parallel as an attacker sends them; on the memory store here and on
// Redis in the PostgreSQL project (TEST_REDIS_URL). Limits of this file: 5 per (account, address), 20 per account.
describe('the login throttle under parallel requests', () => {
  const loginFrom = async (ip: string, userName: string, passwd: string) => {
    const raw = await t.app.inject({ method: 'POST', url: '/sync/login', remoteAddress: ip, payload: { userName, passwd } });
    return { status: raw.statusCode, msg: raw.json().msg as string };
  };
  const tally = (answers: { status: number; msg: string }[]) => ({
    checked: answers.filter((a) => a.msg === messages.login.badCredentials).length,
    refused: answers.filter((a) => a.status === 429).length,
    loggedIn: answers.filter((a) => a.msg === messages.login.success).length,
  });

  it('checks no more passwords of a burst than the limit, and lets no right password hidden in it through', async () => {
    await t.createUser({ userName: 'burst' });
    const burst = await Promise.all(Array.from({ length: 40 }, () => loginFrom('10.9.0.1', 'burst', 'bad-password')));
    expect(tally(burst)).toEqual({ checked: 5, refused: 35, loggedIn: 0 });

    await t.createUser({ userName: 'hidden' });
    const attempts = [...Array.from({ length: 39 }, () => 'bad-password'), 'User@12345'];
    const hidden = await Promise.all(attempts.map((passwd) => loginFrom('10.9.0.2', 'hidden', passwd)));
    expect(tally(hidden)).toEqual({ checked: 5, refused: 35, loggedIn: 0 });
  });

  it('keeps admin usable from elsewhere while one address hammers it', async () => {
    const hammer = await Promise.all(Array.from({ length: 40 }, () => loginFrom('10.9.1.66', 'admin', 'guess-guess')));
    expect(tally(hammer)).toEqual({ checked: 5, refused: 35, loggedIn: 0 });
    expect((await loginFrom('10.9.1.66', 'admin', ADMIN_PASSWORD)).status).toBe(429); // the attacker's address stays refused
    expect((await loginFrom('10.9.1.1', 'admin', ADMIN_PASSWORD)).msg).toBe(messages.login.success);
  });

  it('locks an account attacked from many addresses for new addresses only', async () => {
    await t.createUser({ userName: 'spread' });
    expect((await loginFrom('10.9.2.1', 'spread', 'User@12345')).msg).toBe(messages.login.success); // a known address
    const attackers = Array.from({ length: 8 }, (_, i) => `10.9.3.${i + 1}`);
    const spread = await Promise.all(attackers.flatMap((ip) => Array.from({ length: 5 }, () => loginFrom(ip, 'spread', 'bad-password'))));
    // 40 attempts, each address under its limit of 5: the account takes 20 failures, then refuses new addresses
    expect(tally(spread)).toEqual({ checked: 20, refused: 20, loggedIn: 0 });
    expect((await loginFrom('10.9.3.200', 'spread', 'User@12345')).status).toBe(429);
    expect((await loginFrom('10.9.2.1', 'spread', 'User@12345')).msg).toBe(messages.login.success);
  });

  it('refuses an address that fails on many accounts', async () => {
    const burst = await Promise.all(Array.from({ length: 60 }, (_, i) => loginFrom('10.9.4.1', `nobody${i}`, 'bad-password')));
    expect(tally(burst)).toEqual({ checked: 50, refused: 10, loggedIn: 0 });
    expect((await loginFrom('10.9.4.1', 'admin', ADMIN_PASSWORD)).status).toBe(429);
  });
});

describe('the token', () => {
  it('is read from the token header, Authorization: Bearer, the query and the body', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const places = [
      await t.call('GET', '/sync/currentUser', { headers: { token } }),
      await t.call('GET', '/sync/currentUser', { headers: { authorization: `Bearer ${token}` } }),
      await t.call('GET', `/sync/currentUser?token=${token}`),
      await t.call('POST', '/api/Variable/list', { body: { token, page: 1, limit: 10 } }),
    ];
    for (const { status, body } of places) {
      expect(status).toBe(200);
      expect(body.success).toBe(true);
    }
  });

  it('is required, and a made-up one is refused', async () => {
    const none = await t.call('GET', '/sync/currentUser');
    expect(none.status).toBe(401);
    expect(none.body.msg).toBe(messages.common.loginRequired);
    const fake = await t.call('GET', '/sync/currentUser', { token: 'made-up-token' });
    expect(fake.status).toBe(401);
    expect(fake.body.msg).toBe(messages.common.sessionExpired);
  });

  it('expires when idle, and 记住密码 keeps it longer', async () => {
    const short = await t.login('admin', ADMIN_PASSWORD);
    const remembered = await t.login('admin', ADMIN_PASSWORD, { remember: true });
    t.clock.advance(20 * 60_000);
    expect((await t.call('GET', '/sync/currentUser', { token: short })).status).toBe(200); // activity restarts the idle clock
    t.clock.advance(31 * 60_000);
    expect((await t.call('GET', '/sync/currentUser', { token: short })).status).toBe(401);
    expect((await t.call('GET', '/sync/currentUser', { token: remembered })).status).toBe(200);
  });

  it('is revoked by logout', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const out = await t.call('POST', '/sync/logout', { token });
    expect(out.body).toMatchObject({ success: true, msg: messages.login.loggedOut });
    expect((await t.call('GET', '/sync/currentUser', { token })).status).toBe(401);
  });

  it('is revoked by 强制下线 on every session of the account', async () => {
    await t.createUser({ userName: 'kicked' });
    const first = await t.login('kicked', 'User@12345');
    const second = await t.login('kicked', 'User@12345');
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const { body } = await t.call('GET', '/api/User/expireToken/kicked', { token: admin });
    expect(body).toMatchObject({ success: true, msg: '用户kicked强制下线成功！' });
    expect((await t.call('GET', '/sync/currentUser', { token: first })).status).toBe(401);
    expect((await t.call('GET', '/sync/currentUser', { token: second })).status).toBe(401);
    expect((await t.call('GET', '/sync/currentUser', { token: admin })).status).toBe(200);
  });

  it('of a user locked after login stops working', async () => {
    const userId = await t.createUser({ userName: 'lockedlater' });
    const token = await t.login('lockedlater', 'User@12345');
    await t.ctx.db.updateTable('sys_user').set({ isLock: 'Y' }).where('userId', '=', userId).execute();
    await t.ctx.accessCache.invalidate(userId);
    const { status, body } = await t.call('GET', '/sync/currentUser', { token });
    expect(status).toBe(401);
    expect(body.msg).toBe(messages.login.locked);
  });
});

describe('GET /sync/currentUser', () => {
  it('gives the administrator every screen', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const { body } = await t.call('GET', '/sync/currentUser', { token });
    expect(body.data).toMatchObject({ userId: 1, userName: 'admin', code: 1, roleId: RoleId.superAdmin, roleName: '超级管理员' });
    expect(menuUrls(body.data.menus).sort()).toEqual(consoleRoutes.map((r) => r.url).sort());
    expect(body.data.menus.map((m: { moduleName: string }) => m.moduleName)).toEqual(['任务管理', '系统管理', '支付管理', '设备管理', '统计分析', '系统监控']);
    expect(body.data.permissions).toContain('system:Variable:list');
  });

  it('gives an ordinary user exactly the six task links', async () => {
    await t.createUser({ userName: 'fourlinks', roleId: RoleId.ordinaryUser });
    const token = await t.login('fourlinks', 'User@12345');
    const { body } = await t.call('GET', '/sync/currentUser', { token });
    expect(body.data.code).toBe(0);
    expect(body.data.menus).toHaveLength(1);
    expect(body.data.menus[0].moduleName).toBe('任务管理');
    expect(body.data.menus[0].children.map((c: { moduleName: string }) => c.moduleName)).toEqual(['任务列表', '授权码列表', '用户发送统计', '修改密码', '黑名单', '回复记录']);
    expect(body.data.permissions).not.toContain('system:Variable:list');
  });

  it('gives a company administrator the system screens too', async () => {
    await t.createUser({ userName: 'compadmin', roleId: RoleId.companyAdmin });
    const token = await t.login('compadmin', 'User@12345');
    const { body } = await t.call('GET', '/sync/currentUser', { token });
    expect(body.data.code).toBe(1);
    expect(menuUrls(body.data.menus)).toContain('/system/Variable');
  });
});

describe('GET /sync/profile', () => {
  it("answers the caller's own account and its login before this one", async () => {
    const userId = await t.createUser({ userName: 'profiled', roleId: RoleId.ordinaryUser });
    await t.ctx.db.updateTable('sys_user').set({ userMobile: '13800138000', userEmail: 'p@example.com' }).where('userId', '=', userId).execute();
    const first = await t.login('profiled', 'User@12345');
    const once = await t.call('GET', '/sync/profile', { token: first });
    expect(once.status).toBe(200);
    expect(once.body.data).toEqual({
      userId, userName: 'profiled', userRealName: 'profiled', userMobile: '13800138000', userEmail: 'p@example.com',
      deptName: expect.any(String), roleName: '普通用户', lastLoginTime: '', lastLoginIp: '',
    });
    await t.call('POST', '/sync/login', { body: { userName: 'profiled', passwd: 'wrong-password' } });
    const second = await t.login('profiled', 'User@12345');
    const { body } = await t.call('GET', '/sync/profile', { token: second });
    expect(body.data.lastLoginTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(body.data.lastLoginIp).toBe('127.0.0.1');
  });

  it('needs a session', async () => {
    expect((await t.call('GET', '/sync/profile')).status).toBe(401);
  });
});

describe('permissions', () => {
  it('refuses a call whose code the role lacks, and 刷新缓存 picks up a new grant', async () => {
    await t.createUser({ userName: 'nogrant', roleId: RoleId.ordinaryUser });
    const token = await t.login('nogrant', 'User@12345');
    const refused = await t.call('POST', '/api/Variable/list', { token, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, msg: messages.common.forbidden });
    expect((await t.call('GET', '/api/User/expireToken/admin', { token })).status).toBe(403);
    expect((await t.call('GET', '/api/User/flashCache/admin', { token })).status).toBe(403);

    const permission = await t.ctx.db.selectFrom('sys_permission').select('permissionId').where('permission', '=', 'system:Variable:list').executeTakeFirstOrThrow();
    await t.ctx.db.insertInto('sys_role_permission').values({ roleId: RoleId.ordinaryUser, permissionId: permission.permissionId }).execute();
    expect((await t.call('POST', '/api/Variable/list', { token, body: {} })).status).toBe(403); // still cached

    const admin = await t.login('admin', ADMIN_PASSWORD);
    const refresh = await t.call('GET', '/api/User/flashCache/nogrant', { token: admin });
    expect(refresh.body).toMatchObject({ success: true, msg: messages.user.flashCacheOk });
    expect((await t.call('POST', '/api/Variable/list', { token, body: {} })).status).toBe(200);
    await t.ctx.db.deleteFrom('sys_role_permission').where('roleId', '=', RoleId.ordinaryUser).where('permissionId', '=', permission.permissionId).execute();
  });

  it('answers an unknown account on force offline and refresh clearly', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    for (const url of ['/api/User/expireToken/ghost', '/api/User/flashCache/ghost']) {
      const { status, body } = await t.call('GET', url, { token: admin });
      expect(status).toBe(404);
      expect(body.msg).toBe(messages.user.notFound);
    }
  });
});

describe('POST /sync/update/password', () => {
  it('checks every field, the old password and the confirmation', async () => {
    await t.createUser({ userName: 'pwcheck' });
    const token = await t.login('pwcheck', 'User@12345');
    const cases: [Record<string, unknown>, string][] = [
      [{ passwd: 'Newpass1', confirmPasswd: 'Newpass1' }, messages.password.oldRequired],
      [{ oldPasswd: 'User@12345', confirmPasswd: 'Newpass1' }, messages.password.newRequired],
      [{ oldPasswd: 'User@12345', passwd: 'Newpass1' }, messages.password.confirmRequired],
      [{ oldPasswd: 'User@12345', passwd: 'short', confirmPasswd: 'short' }, messages.password.tooShort],
      [{ oldPasswd: 'User@12345', passwd: 'Newpass1', confirmPasswd: 'Newpass2' }, messages.password.mismatch],
      [{ oldPasswd: 'wrong-old', passwd: 'Newpass1', confirmPasswd: 'Newpass1' }, messages.password.oldWrong],
    ];
    for (const [body, message] of cases) {
      const answer = await t.call('POST', '/sync/update/password', { token, body });
      expect(answer.body).toMatchObject({ success: false, msg: message });
    }
    expect((await t.call('POST', '/sync/login', { body: { userName: 'pwcheck', passwd: 'User@12345' } })).body.success).toBe(true);
  });

  it('changes only the caller, keeps this session and ends the others', async () => {
    await t.createUser({ userName: 'pwchange' });
    const current = await t.login('pwchange', 'User@12345');
    const other = await t.login('pwchange', 'User@12345');
    const { body } = await t.call('POST', '/sync/update/password', {
      token: current,
      body: { userId: 1, userName: 'admin', oldPasswd: 'User@12345', passwd: 'Changed@123', confirmPasswd: 'Changed@123' },
    });
    expect(body).toMatchObject({ success: true, msg: messages.password.saved });
    expect((await t.call('GET', '/sync/currentUser', { token: current })).status).toBe(200);
    expect((await t.call('GET', '/sync/currentUser', { token: other })).status).toBe(401);
    expect((await t.call('POST', '/sync/login', { body: { userName: 'pwchange', passwd: 'User@12345' } })).body.success).toBe(false);
    expect((await t.call('POST', '/sync/login', { body: { userName: 'pwchange', passwd: 'Changed@123' } })).body.success).toBe(true);
    expect((await t.call('POST', '/sync/login', { body: { userName: 'admin', passwd: ADMIN_PASSWORD } })).body.success).toBe(true);
  });
});
