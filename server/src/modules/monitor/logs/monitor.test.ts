import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeUserAgent, fill, LogResult, messages, operLogModules, RoleId, shanghaiDay, shanghaiDayRange } from '@huiyun/contract';
import { hashToken } from '../../../http/token.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { readXlsxExport } from '../../../test/xlsx-export.ts';

const m = messages.monitor;
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

let t: TestApp;
let admin: string; // super administrator, company 1
let adminA: string; // company administrator of company 1 (the demo company)
let adminB: string; // company administrator of another company
let plain: string; // ordinary user of company 1
let deptB: number;

async function loginAs(userName: string, passwd: string, userAgent = CHROME_WINDOWS): Promise<string> {
  const { body } = await t.call('POST', '/sync/login', { body: { userName, passwd }, headers: { 'user-agent': userAgent } });
  if (!body.success) throw new Error(`login of ${userName} failed: ${body.msg}`);
  return body.data.token;
}

beforeAll(async () => {
  t = await startTestApp();
  const now = Date.now();
  deptB = (await t.ctx.db
    .insertInto('sys_dept')
    .values({ deptName: '另一家公司', deptNo: 'OTHER', parentId: 0, addUser: 'test', editUser: 'test', addTime: now, editTime: now })
    .returning('deptId')
    .executeTakeFirstOrThrow()).deptId;
  await t.createUser({ userName: 'adminA', roleId: RoleId.companyAdmin, deptId: 1 });
  await t.createUser({ userName: 'adminB', roleId: RoleId.companyAdmin, deptId: deptB });
  await t.createUser({ userName: 'plain', roleId: RoleId.ordinaryUser, deptId: 1 });
  admin = await loginAs('admin', ADMIN_PASSWORD);
  adminA = await loginAs('adminA', 'User@12345');
  adminB = await loginAs('adminB', 'User@12345');
  plain = await loginAs('plain', 'User@12345');
});
afterAll(async () => t?.close());

const post = (url: string, token: string, body: Record<string, unknown> = {}) => t.call('POST', url, { token, body });
const operLogs = (token: string, body: Record<string, unknown> = {}) => post('/api/OperLog/list', token, { page: 1, limit: 50, ...body });
const loginLogs = (token: string, body: Record<string, unknown> = {}) => post('/api/LoginLog/list', token, { page: 1, limit: 50, ...body });
const online = (token: string, body: Record<string, unknown> = {}) => post('/api/Online/list', token, { page: 1, limit: 50, ...body });


describe('who may call', () => {
  const routes: [string, Record<string, unknown>][] = [
    ['/api/OperLog/list', {}], ['/api/OperLog/export', {}], ['/api/LoginLog/list', {}], ['/api/LoginLog/export', {}],
    ['/api/Online/list', {}], ['/api/Online/export', {}], ['/api/Online/forceLogout', { sessionId: 'a'.repeat(64) }],
  ];
  it('refuses callers without a session (401) and ordinary users (403)', async () => {
    for (const [url, body] of routes) {
      expect((await t.call('POST', url, { body })).status, url).toBe(401);
      const refused = await post(url, plain, body);
      expect(refused.status, url).toBe(403);
      expect(refused.body).toMatchObject({ success: false, msg: messages.common.forbidden });
    }
  });

  it('lets company administrators and the super administrator list', async () => {
    for (const token of [admin, adminA, adminB]) {
      for (const [url] of routes.filter(([url]) => url.endsWith('/list'))) {
        const { status, body } = await post(url, token, { page: 1, limit: 10 });
        expect(status, url).toBe(200);
        expect(body.success).toBe(true);
      }
    }
  });
});

describe('操作日志', () => {
  it('shows a variable save with who, what, target, address and result', async () => {
    await post('/api/Variable/save', admin, { varLable: '监控测试', varName: 'monitor.oper', varValue: 'top-secret-value' });
    await post('/api/Variable/save', admin, { varLable: '', varName: 'monitor.bad', varValue: '1' });
    const { body } = await operLogs(admin, { userName: 'admin', module: messages.variable.title });
    expect(body.success).toBe(true);
    const [failed, saved] = body.data;
    expect(saved).toMatchObject({
      userName: 'admin', module: messages.variable.title, action: messages.common.actionSave, target: 'monitor.oper',
      method: 'POST', url: '/api/Variable/save', success: LogResult.success, message: messages.variable.saved,
    });
    expect(saved.ip).toBeTruthy();
    expect(saved.operTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(typeof saved.costMs).toBe('number');
    expect(failed).toMatchObject({ success: LogResult.failure, message: messages.variable.varLableRequired });
    expect(JSON.stringify(body)).not.toContain('top-secret-value');
  });

  it('offers as 模块 choices every module a route writes', () => {
    expect(t.app.auditedModules.size).toBeGreaterThanOrEqual(10);
    const missing = [...t.app.auditedModules].filter((module) => !(operLogModules as readonly string[]).includes(module));
    expect(missing, 'add them to operLogModules (contract/src/operLogModules.ts)').toEqual([]);
  });

  it('filters by result, user name and module', async () => {
    const failures = (await operLogs(admin, { success: 0 })).body;
    expect(failures.total).toBeGreaterThan(0);
    expect(failures.data.every((r: { success: number }) => r.success === LogResult.failure)).toBe(true);
    const successes = (await operLogs(admin, { success: '1' })).body;
    expect(successes.data.every((r: { success: number }) => r.success === LogResult.success)).toBe(true);
    expect((await operLogs(admin, { userName: 'nobody-wrote-this' })).body.total).toBe(0);
    // the module is picked from operLogModules and compared whole: a fragment finds nothing
    expect((await operLogs(admin, { module: messages.variable.title })).body.total).toBe(2);
    expect((await operLogs(admin, { module: '系统环境' })).body.total).toBe(0);
    expect((await operLogs(admin, { module: messages.variable.title, success: 0 })).body.data.map((r: { message: string }) => r.message)).toEqual([messages.variable.varLableRequired]);
    // refused calls are logged too: an ordinary user's attempt to force someone offline
    expect((await operLogs(admin, { userName: 'plain', module: m.onlineTitle })).body.data[0]).toMatchObject({ success: LogResult.failure, message: messages.common.forbidden });
  });

  it('filters by Asia/Shanghai days, 00:00 to 24:00', async () => {
    // 2025-03-10 00:00 Shanghai is 2025-03-09 16:00 UTC.
    const at = (iso: string) => Date.parse(iso);
    const rows = [
      ['before', at('2025-03-09T15:59:59.999Z')],
      ['first', at('2025-03-09T16:00:00.000Z')],
      ['last', at('2025-03-11T15:59:59.999Z')],
      ['after', at('2025-03-11T16:00:00.000Z')],
    ] as const;
    for (const [target, operTime] of rows) {
      await t.ctx.db.insertInto('sys_oper_log').values({
        userId: 1, userName: 'admin', deptId: 1, module: 'day-test', action: 'x', target, method: 'POST', url: '/x', ip: '', success: 1, message: '', costMs: 1, operTime,
      }).execute();
    }
    const targets = async (body: Record<string, unknown>) =>
      (await operLogs(admin, { module: 'day-test', sortField: 'operTime', sortOrder: 'ascend', ...body })).body.data.map((r: { target: string }) => r.target);
    expect(await targets({ beginTime: '2025-03-10', endTime: '2025-03-11' })).toEqual(['first', 'last']);
    expect(await targets({ beginTime: '2025-03-10', endTime: '2025-03-10' })).toEqual(['first']);
    expect(await targets({ beginTime: '2025-03-11' })).toEqual(['last', 'after']);
    expect(await targets({ endTime: '2025-03-09' })).toEqual(['before']);
    expect(await targets({})).toEqual(['before', 'first', 'last', 'after']);
    // today's entries are found by today's Shanghai day
    const today = shanghaiDay(t.ctx.now());
    expect((await operLogs(admin, { module: messages.variable.title, beginTime: today, endTime: today })).body.total).toBeGreaterThan(0);
  });

  it('answers each bad filter its own message', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ beginTime: '2025/03/10' }, m.badDate],
      [{ endTime: '2025-02-30' }, m.badDate],
      [{ beginTime: 20250310 }, m.badDate],
      [{ beginTime: '2025-03-11', endTime: '2025-03-10' }, m.dateOrder],
      [{ success: 'yes' }, messages.common.badParameter],
      [{ success: 2 }, messages.common.badParameter],
    ];
    for (const [body, message] of cases) {
      for (const url of ['/api/OperLog/list', '/api/LoginLog/list']) {
        const answer = await post(url, admin, body);
        expect(answer.status, `${url} ${JSON.stringify(body)}`).toBe(400);
        expect(answer.body).toMatchObject({ success: false, msg: message });
      }
    }
  });

  it('shows a company administrator only the entries of its companies', async () => {
    await t.ctx.db.insertInto('sys_oper_log').values({
      userId: null, userName: 'adminB', deptId: deptB, module: 'scope-test', action: 'x', target: 'of B', method: 'POST', url: '/x', ip: '', success: 1, message: '', costMs: 1, operTime: t.ctx.now(),
    }).execute();
    const ofB = (await operLogs(adminB)).body;
    expect(ofB.data.map((r: { target: string }) => r.target)).toEqual(['of B']);
    const ofA = (await operLogs(adminA, { limit: 200 })).body;
    expect(ofA.total).toBeGreaterThan(0);
    expect(ofA.data.some((r: { target: string }) => r.target === 'of B')).toBe(false);
    expect(ofA.data.some((r: { target: string }) => r.target === 'monitor.oper')).toBe(true);
    const all = (await operLogs(admin, { module: 'scope-test' })).body;
    expect(all.total).toBe(1);
  });

  it('exports the filtered list with 成功 / 失败 spelled out', async () => {
    const { raw } = await post('/api/OperLog/export', admin, { module: messages.variable.title, success: 0 });
    const rows = await readXlsxExport(raw, m.operLogTitle);
    expect(rows[0]).toContain(m.module);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows.slice(1)) {
      expect(row).toContain(m.resultFailure);
      expect(row).toContain(messages.variable.title);
    }
    const refused = await post('/api/OperLog/export', admin, { beginTime: 'x' });
    expect(refused.body).toMatchObject({ success: false, msg: m.badDate });
  });
});

describe('登录日志', () => {
  it('records successes and failures with address and a readable browser', async () => {
    await t.call('POST', '/sync/login', { body: { userName: 'adminA', passwd: 'wrong-pass-1' }, headers: { 'user-agent': CHROME_WINDOWS } });
    await t.call('POST', '/sync/login', { body: { userName: 'ghost-account', passwd: 'wrong-pass-2' }, headers: { 'user-agent': 'curl/8.5.0' } });
    const { body } = await loginLogs(admin, { userName: 'adminA' });
    expect(body.data[0]).toMatchObject({ userName: 'adminA', success: LogResult.failure, message: messages.login.badCredentials, client: 'Chrome 120 / Windows 10', userAgent: CHROME_WINDOWS });
    expect(body.data[0].ip).toBeTruthy();
    expect(body.data[0].loginTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(body.data.at(-1)).toMatchObject({ userName: 'adminA', success: LogResult.success, message: messages.login.success });
    const ghost = (await loginLogs(admin, { userName: 'ghost-account' })).body;
    expect(ghost.data[0]).toMatchObject({ success: LogResult.failure, client: 'curl 8' });
    expect(JSON.stringify(body) + JSON.stringify(ghost)).not.toMatch(/wrong-pass|User@12345/);
  });

  it('filters by result, address and day', async () => {
    const failures = (await loginLogs(admin, { success: 0 })).body;
    expect(failures.total).toBe(2);
    expect((await loginLogs(admin, { success: 1 })).body.total).toBe(4);
    expect((await loginLogs(admin, { ip: '127.0' })).body.total).toBe(6);
    expect((await loginLogs(admin, { ip: '10.9.9.9' })).body.total).toBe(0);
    const today = shanghaiDay(t.ctx.now());
    expect((await loginLogs(admin, { beginTime: today, endTime: today })).body.total).toBe(6);
    expect((await loginLogs(admin, { endTime: '2020-01-01' })).body.total).toBe(0);
  });

  it('scopes by the account company; unknown accounts only for the super administrator', async () => {
    const namesOf = async (token: string) => new Set((await loginLogs(token)).body.data.map((r: { userName: string }) => r.userName));
    const ofA = await namesOf(adminA);
    expect(ofA).toEqual(new Set(['admin', 'adminA', 'plain']));
    // the failed attempt on adminA (written without a company) belongs to company 1 too
    expect((await loginLogs(adminA, { userName: 'adminA', success: 0 })).body.total).toBe(1);
    expect(await namesOf(adminB)).toEqual(new Set(['adminB']));
    expect((await namesOf(admin)).has('ghost-account')).toBe(true);
  });

  it('exports the filtered list', async () => {
    const { raw } = await post('/api/LoginLog/export', adminB, {});
    const rows = await readXlsxExport(raw);
    expect(rows[0]).toEqual(expect.arrayContaining([m.userName, m.client, m.result]));
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual(expect.arrayContaining(['adminB', m.resultSuccess, 'Chrome 120 / Windows 10']));
  });
});

describe('在线用户', () => {
  it('lists live sessions with account, company and times; marks the caller own', async () => {
    const { body } = await online(admin);
    const names = body.data.map((r: { userName: string }) => r.userName);
    expect(names).toEqual(expect.arrayContaining(['admin', 'adminA', 'adminB', 'plain']));
    const mine = body.data.find((r: { current: boolean }) => r.current);
    expect(mine).toMatchObject({ userName: 'admin', userId: 1, sessionId: hashToken(admin), client: 'Chrome 120 / Windows 10' });
    expect(mine.deptName).toBeTruthy();
    expect(mine.loginTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(mine.expiresAt > mine.lastSeenAt).toBe(true);
    expect(body.data.filter((r: { current: boolean }) => r.current)).toHaveLength(1);
    // the id names the session but is not a token
    expect((await t.call('POST', '/api/Online/list', { token: mine.sessionId, body: {} })).status).toBe(401);
  });

  it('filters, sorts and pages', async () => {
    expect((await online(admin, { userName: 'ADMINB' })).body.data.map((r: { userName: string }) => r.userName)).toEqual(['adminB']);
    expect((await online(admin, { ip: '10.9.9.9' })).body.total).toBe(0);
    const sorted = (await online(admin, { sortField: 'userName', sortOrder: 'ascend' })).body.data.map((r: { userName: string }) => r.userName);
    expect(sorted).toEqual([...sorted].sort((a, b) => a.localeCompare(b)));
    const total = (await online(admin)).body.total ?? 0;
    const page2 = (await online(admin, { page: 2, limit: 2 })).body;
    expect(page2.total).toBe(total);
    expect(page2.data).toHaveLength(Math.min(2, total - 2));
  });

  it('shows a company administrator only the sessions of its companies', async () => {
    const ofB = (await online(adminB)).body.data.map((r: { userName: string }) => r.userName);
    expect(ofB).toEqual(['adminB']);
    const ofA = (await online(adminA)).body.data.map((r: { userName: string }) => r.userName);
    expect(ofA).not.toContain('adminB');
    expect(ofA).toContain('plain');
  });

  it('exports the sessions', async () => {
    const { raw } = await post('/api/Online/export', adminB, {});
    const rows = await readXlsxExport(raw);
    expect(rows[0]).toContain(m.lastSeenAt);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('adminB');
  });

  it('ends exactly the chosen session and logs it', async () => {
    const first = await loginAs('plain', 'User@12345');
    const second = await loginAs('plain', 'User@12345');
    const answer = await post('/api/Online/forceLogout', adminA, { sessionId: hashToken(first) });
    expect(answer.body).toMatchObject({ success: true, msg: fill(m.forceLogoutOk, { userName: 'plain' }) });
    expect((await t.call('GET', '/sync/currentUser', { token: first })).status).toBe(401);
    // the account's other sessions stay
    expect((await t.call('GET', '/sync/currentUser', { token: second })).status).toBe(200);
    const ids = (await online(admin, { userName: 'plain' })).body.data.map((r: { sessionId: string }) => r.sessionId);
    expect(ids).toContain(hashToken(second));
    expect(ids).toContain(hashToken(plain));
    expect(ids).not.toContain(hashToken(first));

    const logged = (await operLogs(admin, { module: m.onlineTitle, userName: 'adminA', success: 1 })).body.data[0];
    expect(logged).toMatchObject({ userName: 'adminA', action: messages.common.actionForceOffline, success: LogResult.success, url: '/api/Online/forceLogout' });
    expect(logged.target).toContain('plain');
    expect(logged.target).not.toContain(hashToken(first));

    const again = await post('/api/Online/forceLogout', adminA, { sessionId: hashToken(first) });
    expect(again.status).toBe(404);
    expect(again.body.msg).toBe(m.sessionGone);
  });

  it('refuses the caller own session, other companies, the super administrator and bad ids', async () => {
    const own = await post('/api/Online/forceLogout', adminA, { sessionId: hashToken(adminA) });
    expect(own.body).toMatchObject({ success: false, msg: m.cannotLogoutSelf });

    const outside = await post('/api/Online/forceLogout', adminB, { sessionId: hashToken(plain) });
    expect(outside.status).toBe(403);
    expect(outside.body.msg).toBe(messages.common.outOfScope);

    const superAdmin = await post('/api/Online/forceLogout', adminA, { sessionId: hashToken(admin) });
    expect(superAdmin.status).toBe(403);
    expect(superAdmin.body.msg).toBe(m.cannotLogoutSuperAdmin);

    for (const [body, message] of [
      [{}, m.sessionIdRequired], [{ sessionId: '' }, m.sessionIdRequired], [{ sessionId: 42 }, m.sessionIdRequired], [{ sessionId: 'not-a-hash' }, m.sessionGone],
    ] as const) {
      const answer = await post('/api/Online/forceLogout', admin, body);
      expect(answer.status).toBe(400);
      expect(answer.body.msg).toBe(message);
    }
    // nothing ended
    for (const token of [adminA, plain, admin]) expect((await online(admin)).body.data.some((r: { sessionId: string }) => r.sessionId === hashToken(token))).toBe(true);
    const refusals = (await operLogs(admin, { module: m.onlineTitle, success: 0, userName: 'adminA' })).body;
    expect(refusals.data.map((r: { message: string }) => r.message)).toEqual([m.cannotLogoutSuperAdmin, m.cannotLogoutSelf, m.sessionGone]);
  });

  it('lets the super administrator end a company administrator session', async () => {
    const answer = await post('/api/Online/forceLogout', admin, { sessionId: hashToken(adminB) });
    expect(answer.body).toMatchObject({ success: true, msg: fill(m.forceLogoutOk, { userName: 'adminB' }) });
    expect((await t.call('POST', '/api/Online/list', { token: adminB, body: {} })).status).toBe(401);
  });
});

describe('shared helpers', () => {
  it('shortens user agents to browser and system', () => {
    expect(describeUserAgent(CHROME_WINDOWS)).toBe('Chrome 120 / Windows 10');
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91')).toBe('Edge 120 / Windows 10');
    expect(describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15')).toBe('Safari 17 / macOS');
    expect(describeUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1')).toBe('Safari 17 / iOS 17');
    expect(describeUserAgent('Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0')).toBe('Firefox 121 / Linux');
    expect(describeUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36')).toBe('Chrome 120 / Android 14');
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 MicroMessenger/8.0 WindowsWechat')).toBe('Chrome 120 / Windows 10');
    expect(describeUserAgent('curl/8.5.0')).toBe('curl 8');
    expect(describeUserAgent('')).toBe(m.unknownClient);
    // remembered short forms answer the same, also past the number kept (the memory starts over)
    for (let v = 0; v < 600; v++) expect(describeUserAgent(`tool${v}/${v} extra`)).toBe(`tool${v} ${v}`);
    expect(describeUserAgent(CHROME_WINDOWS)).toBe('Chrome 120 / Windows 10');
    expect(describeUserAgent(`  ${CHROME_WINDOWS}  `)).toBe('Chrome 120 / Windows 10');
  });

  it('turns Shanghai days into half-open instants', () => {
    expect(shanghaiDayRange('2026-01-02', '2026-01-02')).toEqual({ from: Date.UTC(2026, 0, 1, 16), before: Date.UTC(2026, 0, 2, 16) });
    expect(shanghaiDayRange('', '')).toEqual({ from: undefined, before: undefined });
  });
});
