import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, permissionTable, RoleId, type GrantedRole } from '@huiyun/contract';
import { startTestApp, ADMIN_PASSWORD, type TestApp } from '../test/harness.ts';
import { registerAccessCheck, requiredCodes, type RouteAccess } from './access-check.ts';

let t: TestApp;
let userToken: string;
let adminToken: string;
let companyAdminToken: string;
beforeAll(async () => {
  t = await startTestApp();
  await t.createUser({ userName: 'routeuser', roleId: RoleId.ordinaryUser });
  userToken = await t.login('routeuser', 'User@12345');
  adminToken = await t.login('admin', ADMIN_PASSWORD);
  const otherDeptId = await t.createCompany('另一家公司', 'OTHER-ROUTES');
  await t.createUser({ userName: 'routecompadmin', roleId: RoleId.companyAdmin, deptId: otherDeptId });
  companyAdminToken = await t.login('routecompadmin', 'User@12345');
});
afterAll(async () => t?.close());

const sample = (url: string) => url.replace(/:(\w+)/g, '1');

describe('every API route', () => {
  it('declares what it needs', () => {
    expect(t.app.declaredRoutes.length).toBeGreaterThan(5);
    const undeclared = Fastify();
    registerAccessCheck(undeclared, t.ctx, { loadAccess: async () => undefined, authenticateDevice: async () => {} });
    expect(() => undeclared.get('/api/Thing/list', async () => ({}))).toThrow(/does not declare config.access/);
  });

  it('refuses a caller without a token, unless public', async () => {
    for (const route of t.app.declaredRoutes) {
      const { status, body } = await t.call(route.method, sample(route.url), { body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
      if (route.access === 'public') expect(status, route.url).not.toBe(401);
      else {
        expect(status, `${route.method} ${route.url}`).toBe(401);
        expect(body.msg).toBe(route.access === 'device' ? messages.device.tokenInvalid : route.access === 'terminal' ? messages.terminal.unsigned : messages.common.loginRequired);
      }
    }
  });

  const grantedTo = (access: RouteAccess, role: GrantedRole) =>
    requiredCodes(access).some((code) => (permissionTable[code].roles as readonly string[]).includes(role));

  // The four kinds of caller over every route: none (above), an ordinary user, an administrator of
  // another company, the super administrator. A granted route may still refuse the sample row for
  // lying outside the caller's data, never for the code; an ungranted one refuses for the code.
  it.each([
    ['an ordinary user', 'ordinaryUser' as const, () => userToken],
    ['an administrator of another company', 'companyAdmin' as const, () => companyAdminToken],
  ])('gives %s exactly the codes the permission table grants it', async (_who, role, token) => {
    for (const route of t.app.declaredRoutes) {
      if (typeof route.access !== 'object') continue;
      const { status, body } = await t.call(route.method, sample(route.url), { token: token(), body: route.method === 'POST' ? {} : undefined });
      const refusedByPermission = status === 403 && body.msg === messages.common.forbidden;
      const where = `${route.method} ${route.url}`;
      if (grantedTo(route.access, role)) {
        expect(refusedByPermission, where).toBe(false);
        expect([401, 500], where).not.toContain(status);
      } else expect(refusedByPermission, where).toBe(true);
    }
  });

  it('keeps console sessions out of device routes', async () => {
    const deviceRoutes = t.app.declaredRoutes.filter((route) => route.access === 'device');
    expect(deviceRoutes.length).toBeGreaterThan(0);
    for (const route of deviceRoutes) {
      const { status, body } = await t.call(route.method, route.url, { token: adminToken, body: route.method === 'POST' ? {} : undefined });
      expect([status, body.msg], route.url).toEqual([401, messages.device.tokenInvalid]);
    }
  });

  it('lets the super administrator through every code', async () => {
    for (const route of t.app.declaredRoutes) {
      if (typeof route.access !== 'object') continue;
      const { status, body } = await t.call(route.method, sample(route.url), { token: adminToken, body: route.method === 'POST' ? {} : undefined });
      expect(status === 403 && body.msg === messages.common.forbidden, `${route.method} ${route.url}`).toBe(false);
      expect([401, 500], `${route.method} ${route.url}`).not.toContain(status);
    }
  });
});

describe('bad requests', () => {
  it('answer Chinese messages, never a 500 or a stack', async () => {
    const cases = [
      await t.call('POST', '/api/Variable/save', { token: adminToken, body: '{"varLable": ', headers: { 'content-type': 'application/json' } }),
      await t.call('POST', '/api/Variable/save', { token: adminToken, body: 'x', headers: { 'content-type': 'application/xml' } }),
      await t.call('POST', '/api/Variable/save', { token: adminToken, body: JSON.stringify({ v: 'x'.repeat(3 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } }),
      await t.call('POST', '/api/Variable/list', { token: adminToken, body: [1, 2, 3] }),
      await t.call('POST', '/api/Variable/save', { token: adminToken, body: { varLable: ['a'], varName: { x: 1 }, varValue: null } }),
      await t.call('DELETE', '/api/Variable/delete?ids=abc', { token: adminToken }),
      await t.call('GET', '/api/No/such/route', { token: adminToken }),
    ];
    for (const { status, body, raw } of cases) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      expect(body.success).toBe(false);
      expect(body.msg).toMatch(/[\u4e00-\u9fa5]/);
      expect(body.msg).toBe(body.errorInfo);
      expect(raw.body).not.toMatch(/at .*\.ts:\d+|Error:|stack/);
    }
  });
});
