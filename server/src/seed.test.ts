import { afterAll, beforeAll, expect, it } from 'vitest';
import { consoleRoutes, menuGroups, permissionTable, RoleId } from '@huiyun/contract';
import { seed } from './seed.ts';
import { startTestApp, type TestApp } from './test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const count = async (table: 'sys_role' | 'sys_user' | 'sys_module' | 'sys_permission' | 'sys_role_right' | 'sys_role_permission' | 'sys_dept') =>
  Number((await t.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

it('seeds the roles, the menu tree and the permission codes once, whatever how often it runs', async () => {
  expect(await count('sys_role')).toBe(4);
  expect(await count('sys_module')).toBe(consoleRoutes.length + menuGroups.length);
  expect(await count('sys_permission')).toBe(Object.keys(permissionTable).length);
  const before = await Promise.all((['sys_role', 'sys_user', 'sys_module', 'sys_permission', 'sys_role_right', 'sys_role_permission', 'sys_dept'] as const).map(count));
  await seed(t.ctx.db, { adminPassword: 'Other@123', dataDir: t.ctx.config.dataDir, log: () => {} });
  const after = await Promise.all((['sys_role', 'sys_user', 'sys_module', 'sys_permission', 'sys_role_right', 'sys_role_permission', 'sys_dept'] as const).map(count));
  expect(after).toEqual(before);
});

it('keeps a grant an administrator took away, and the first admin password', async () => {
  const module = await t.ctx.db.selectFrom('sys_module').select('moduleId').where('moduleUrl', '=', '/task/authcode').executeTakeFirstOrThrow();
  await t.ctx.db.deleteFrom('sys_role_right').where('roleId', '=', RoleId.ordinaryUser).where('moduleId', '=', module.moduleId).execute();
  await seed(t.ctx.db, { adminPassword: 'Other@123', dataDir: t.ctx.config.dataDir, log: () => {} });
  const right = await t.ctx.db.selectFrom('sys_role_right').selectAll().where('roleId', '=', RoleId.ordinaryUser).where('moduleId', '=', module.moduleId).executeTakeFirst();
  expect(right).toBeUndefined();
  expect((await t.call('POST', '/sync/login', { body: { userName: 'admin', passwd: 'Other@123' } })).body.success).toBe(false);
});

it('leaves new rows free ids after the explicit seeded ones', async () => {
  const id = await t.createUser({ userName: 'after-seed' });
  expect(id).toBeGreaterThan(1);
});

it("seeds a screen whose permission no role is granted (监控查询) into the super administrator's menu alone", async () => {
  const rolesOf = async (url: string) =>
    (await t.ctx.db.selectFrom('sys_role_right').innerJoin('sys_module', 'sys_module.moduleId', 'sys_role_right.moduleId').select('roleId').where('moduleUrl', '=', url).execute())
      .map((r) => r.roleId)
      .sort();
  expect(await rolesOf('/druid/login')).toEqual([RoleId.superAdmin]);
  expect(await rolesOf('/charts/statistics')).toEqual([RoleId.companyAdmin, RoleId.superAdmin].sort());
});
