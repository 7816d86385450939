import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, messages, Perm, RoleId, type RoleGrantTree } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { menuUrlsOf } from '../../../test/menus.ts';

// 角色管理 → 菜单权限 grants a screen and its permission codes in one act.
const m = messages.role;
let t: TestApp;
let admin: string;
let companyAdmin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  await t.createUser({ userName: 'grant_admin', roleId: RoleId.companyAdmin });
  companyAdmin = await t.login('grant_admin', 'User@12345');
});
afterAll(async () => t?.close());

const grants = async (roleId: number, token = admin) => (await t.call('GET', `/api/RoleRight/grants/${roleId}`, { token })).body.data as RoleGrantTree;
const saveRights = (body: unknown, token = admin) => t.call('POST', '/api/RoleRight/save', { token, body });

async function addRole(roleNo: string): Promise<number> {
  const { body } = await t.call('POST', '/api/Role/save', { token: admin, body: { systemNo: 'huiyun', roleNo, roleName: `角色${roleNo}` } });
  expect(body.success).toBe(true);
  return body.data.roleId;
}

async function moduleIdOf(url: string): Promise<number> {
  return (await t.ctx.db.selectFrom('sys_module').select('moduleId').where('moduleUrl', '=', url).executeTakeFirstOrThrow()).moduleId;
}

async function permissionIdOf(code: string): Promise<number> {
  return (await t.ctx.db.selectFrom('sys_permission').select('permissionId').where('permission', '=', code).executeTakeFirstOrThrow()).permissionId;
}

const heldCodes = async (roleId: number) =>
  (await t.ctx.db
    .selectFrom('sys_role_permission as rp')
    .innerJoin('sys_permission as p', 'p.permissionId', 'rp.permissionId')
    .select('p.permission')
    .where('rp.roleId', '=', roleId)
    .orderBy('p.permission')
    .execute()).map((r) => r.permission);


describe('the 菜单权限 tree with each screen\'s codes', () => {
  it('lists every code under its screen, ticked where the role holds it', async () => {
    const custom = await t.call('POST', '/api/Permission/save', { token: admin, body: { permissionName: '黑名单-导入', permission: 'task:Blacklist:import' } });
    const stray = await t.call('POST', '/api/Permission/save', { token: admin, body: { permissionName: '无页面', permission: 'x:Stray:list' } });
    const tree = await grants(RoleId.ordinaryUser);
    const blacklist = await moduleIdOf('/task/blacklist');
    expect(tree.modules.find((n) => n.id === blacklist)).toMatchObject({ name: '黑名单', checked: true });
    const under = tree.actions.filter((a) => a.moduleId === blacklist);
    expect(under.map((a) => [a.permission, a.checked, a.isList])).toEqual([
      ['task:Blacklist:list', true, true],
      ['task:Blacklist:save', true, false],
      ['task:Blacklist:delete', false, false],
      ['task:Blacklist:import', false, false],
    ]);
    // Codes of no screen stay in 权限管理 only.
    expect(tree.actions.some((a) => a.permissionId === stray.body.data.permissionId)).toBe(false);
    expect(tree.actions.find((a) => a.permission === 'system:Role:grantMenu')?.moduleId).toBe(await moduleIdOf('/system/Role'));
    expect((await grants(RoleId.superAdmin)).actions.every((a) => a.checked)).toBe(true);
    await t.call('DELETE', `/api/Permission/delete?ids=${custom.body.data.permissionId},${stray.body.data.permissionId}`, { token: admin });
  });
});

describe('saving screens and their codes together', () => {
  it('writes both in one save: the user of the role sees the screen and its list loads', async () => {
    const roleId = await addRole('grant_both');
    await t.createUser({ userName: 'grant_both_user', roleId });
    const token = await t.login('grant_both_user', 'User@12345');
    expect((await t.call('POST', '/sync/queryBlacklist', { token, body: {} })).status).toBe(403);

    // A code granted in 权限管理 that belongs to no screen survives the 菜单权限 save.
    const stray = await t.call('POST', '/api/Permission/save', { token: admin, body: { permissionName: '无页面', permission: 'x:Kept:list' } });
    await t.call('POST', '/api/RolePermission/save', { token: admin, body: { roleId, permissionIds: String(stray.body.data.permissionId) } });

    const saved = await saveRights({
      roleId,
      moduleIds: JSON.stringify([await moduleIdOf('/task/blacklist'), await moduleIdOf('/task/updatePasswd')]),
      permissionIds: [await permissionIdOf(Perm.blacklistList), await permissionIdOf(Perm.blacklistSave)],
    });
    expect(saved.body).toMatchObject({ success: true, msg: m.rightsSaved });
    expect(await heldCodes(roleId)).toEqual([Perm.blacklistSave, Perm.blacklistList, 'x:Kept:list'].sort());
    const me = (await t.call('GET', '/sync/currentUser', { token })).body.data;
    expect(menuUrlsOf(me.menus)).toEqual(['/task', '/task/updatePasswd', '/task/blacklist']);
    const listed = await t.call('POST', '/sync/queryBlacklist', { token, body: {} });
    expect(listed).toMatchObject({ status: 200, body: { success: true } });

    // 权限管理 shows the same grants.
    const shown = await t.call('GET', `/api/RolePermission/list/${roleId}`, { token: admin });
    expect(shown.body.data).toEqual((await grants(roleId)).actions.filter((a) => a.checked).map((a) => a.permissionId).concat(stray.body.data.permissionId).sort((a: number, b: number) => a - b));

    // Unticking the screen takes its codes away with it.
    await saveRights({ roleId, moduleIds: [await moduleIdOf('/task/updatePasswd')], permissionIds: [] });
    expect(await heldCodes(roleId)).toEqual(['x:Kept:list']);
    expect((await t.call('POST', '/sync/queryBlacklist', { token, body: {} })).status).toBe(403);
  });

  it('refuses a screen without its 查询 code and a code of a screen not ticked, changing nothing', async () => {
    const roleId = await addRole('grant_refusals');
    const blacklist = await moduleIdOf('/task/blacklist');
    const taskIndex = await moduleIdOf('/task/index');
    const blacklistList = await permissionIdOf(Perm.blacklistList);
    await saveRights({ roleId, moduleIds: [blacklist], permissionIds: [blacklistList] });

    const noList = await saveRights({ roleId, moduleIds: [blacklist, taskIndex], permissionIds: [blacklistList, await permissionIdOf(Perm.taskSave)] });
    expect(noList.body).toMatchObject({ success: false, msg: fill(m.screenWithoutList, { screens: '任务列表' }) });
    const outside = await saveRights({ roleId, moduleIds: [blacklist], permissionIds: [blacklistList, await permissionIdOf(Perm.taskList)] });
    expect(outside.body).toMatchObject({ success: false, msg: fill(m.codeOfNoScreen, { codes: Perm.taskList }) });
    const unknown = await saveRights({ roleId, moduleIds: [blacklist], permissionIds: [blacklistList, 99999] });
    expect(unknown.body).toMatchObject({ success: false, msg: fill(messages.permission.unknownPermission, { ids: '99999' }) });
    const badModule = await saveRights({ roleId, moduleIds: [99999], permissionIds: [] });
    expect(badModule.body).toMatchObject({ success: false, msg: messages.menu.moduleNotFound });

    expect(await heldCodes(roleId)).toEqual([Perm.blacklistList]);
    const tree = await grants(roleId);
    expect(tree.modules.filter((n) => n.checked).map((n) => n.id).sort()).toEqual([await moduleIdOf('/task'), blacklist].sort());
  });

  it('keeps SPEC\'s menus-only call: without permissionIds the codes stay as they are', async () => {
    const roleId = await addRole('grant_menus_only');
    await saveRights({ roleId, moduleIds: [await moduleIdOf('/task/blacklist')], permissionIds: [await permissionIdOf(Perm.blacklistList)] });
    const saved = await saveRights({ roleId, moduleIds: JSON.stringify([await moduleIdOf('/task/index')]) });
    expect(saved.body.success).toBe(true);
    expect(await heldCodes(roleId)).toEqual([Perm.blacklistList]);
  });
});

describe('no one raises rights through 菜单权限', () => {
  it('a company administrator granted 菜单权限 may hand on only codes it holds, never to its own role', async () => {
    const grantMenu = await permissionIdOf(Perm.roleGrantMenu);
    await t.ctx.db.insertInto('sys_role_permission').values({ roleId: RoleId.companyAdmin, permissionId: grantMenu }).execute();
    await t.ctx.accessCache.invalidate('all');
    try {
      const roleId = await addRole('grant_by_company');
      const roleScreen = await moduleIdOf('/system/Role');
      const roleList = await permissionIdOf(Perm.roleList);
      const ok = await saveRights({ roleId, moduleIds: [roleScreen], permissionIds: [roleList] }, companyAdmin);
      expect(ok.body).toMatchObject({ success: true, msg: m.rightsSaved });

      const escalate = await saveRights({ roleId, moduleIds: [roleScreen], permissionIds: [roleList, await permissionIdOf(Perm.roleDelete)] }, companyAdmin);
      expect(escalate).toMatchObject({ status: 403, body: { msg: fill(messages.permission.notHeldRefused, { codes: Perm.roleDelete }) } });
      expect(await heldCodes(roleId)).toEqual([Perm.roleList]);

      const own = await grants(RoleId.companyAdmin, companyAdmin);
      const ownIds = own.actions.filter((a) => a.checked).map((a) => a.permissionId);
      const ownScreens = own.modules.filter((n) => n.checked).map((n) => n.id);
      const ownRole = await saveRights({ roleId: RoleId.companyAdmin, moduleIds: ownScreens, permissionIds: ownIds.filter((id) => id !== grantMenu) }, companyAdmin);
      expect(ownRole).toMatchObject({ status: 403, body: { msg: messages.permission.ownRoleRefused } });
      expect(await heldCodes(RoleId.companyAdmin)).toContain(Perm.roleGrantMenu);
    } finally {
      await t.ctx.db.deleteFrom('sys_role_permission').where('roleId', '=', RoleId.companyAdmin).where('permissionId', '=', grantMenu).execute();
      await t.ctx.accessCache.invalidate('all');
    }
  });

  it('answers the tree and the save only to holders of 菜单权限', async () => {
    expect((await t.call('GET', `/api/RoleRight/grants/${RoleId.demo}`, {})).status).toBe(401);
    expect((await t.call('GET', `/api/RoleRight/grants/${RoleId.demo}`, { token: companyAdmin })).status).toBe(403);
    expect((await saveRights({ roleId: RoleId.demo, moduleIds: [], permissionIds: [] }, companyAdmin)).status).toBe(403);
    expect((await t.call('GET', `/api/RoleRight/grants/99999`, { token: admin })).body.msg).toBe(messages.common.notFoundRecord);
  });
});
