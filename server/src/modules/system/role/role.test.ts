import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, Perm, RoleId, type RoleRightNode } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { readXlsxExport } from '../../../test/xlsx-export.ts';
import { sideMenuOf } from '../../../test/menus.ts';

const m = messages.role;
let t: TestApp;
let admin: string;
let otherAdmin: string; // company administrator of a second company
let ordinary: string;
let otherDeptId: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  const now = Date.now();
  otherDeptId = (
    await t.ctx.db
      .insertInto('sys_dept')
      .values({ deptName: '其他公司', deptNo: 'OTHER', parentId: 0, addUser: 'test', editUser: 'test', addTime: now, editTime: now })
      .returning('deptId')
      .executeTakeFirstOrThrow()
  ).deptId;
  await t.createUser({ userName: 'other_admin', roleId: RoleId.companyAdmin, deptId: otherDeptId });
  await t.createUser({ userName: 'plain_user', roleId: RoleId.ordinaryUser, deptId: 1 });
  otherAdmin = await t.login('other_admin', 'User@12345');
  ordinary = await t.login('plain_user', 'User@12345');
});
afterAll(async () => t?.close());

const list = (body: Record<string, unknown> = {}, token = admin) =>
  t.call('POST', '/api/Role/list', { token, body: { page: 1, limit: 10, ...body } });
const save = (body: unknown, token = admin) => t.call('POST', '/api/Role/save', { token, body });
const remove = (ids: string, token = admin) => t.call('DELETE', `/api/Role/delete?ids=${ids}`, { token });
const tree = (roleId: number | string, token = admin) => t.call('GET', `/api/RoleRight/tree/${roleId}`, { token });
const saveRights = (body: unknown, token = admin) => t.call('POST', '/api/RoleRight/save', { token, body });

async function addRole(roleNo: string, extra: Record<string, unknown> = {}): Promise<number> {
  const { body } = await save({ systemNo: 'huiyun', roleNo, roleName: `角色${roleNo}`, ...extra });
  expect(body).toMatchObject({ success: true, msg: m.saved });
  return body.data.roleId;
}

async function moduleIdOf(url: string): Promise<number> {
  const row = await t.ctx.db.selectFrom('sys_module').select('moduleId').where('moduleUrl', '=', url).executeTakeFirstOrThrow();
  return row.moduleId;
}


describe('role list', () => {
  it('lists the seeded roles with their user counts, filters and sorts', async () => {
    const all = await list();
    expect(all.body.success).toBe(true);
    expect(all.body.total).toBe(4);
    // Newest first, like every list.
    expect(all.body.data.map((r: { roleId: number }) => r.roleId)).toEqual([4, 3, 2, 1]);
    expect(all.body.data[1]).toMatchObject({ roleId: RoleId.superAdmin, roleName: '超级管理员', isAdmin: true, userCount: 1, systemNo: 'huiyun' });
    expect(all.body.data[2]).toMatchObject({ roleId: RoleId.ordinaryUser, isAdmin: false, userCount: 1 });
    expect(all.body.data[3]).toMatchObject({ roleId: RoleId.companyAdmin, userCount: 1 });
    expect(all.body.data[0].editTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    expect((await list({ roleName: '管理员' })).body.total).toBe(2);
    expect((await list({ roleNo: 'DEMO' })).body.data).toEqual([expect.objectContaining({ roleId: RoleId.demo })]);
    const sorted = await list({ sortField: 'roleNo', sortOrder: 'descend' });
    expect(sorted.body.data.map((r: { roleNo: string }) => r.roleNo)).toEqual(['superAdmin', 'ordinaryUser', 'demo', 'companyAdmin']);
    const paged = await list({ page: 2, limit: 3 });
    expect(paged.body).toMatchObject({ total: 4, data: [expect.objectContaining({ roleId: 1 })] });
    expect((await list({ sortField: 'x; drop table sys_role', sortOrder: 'ascend' })).body.success).toBe(true);
  });

  it('shows a company administrator neither the super administrator role nor users outside its scope', async () => {
    const answer = await list({}, otherAdmin);
    expect(answer.body.total).toBe(3);
    expect(answer.body.data.map((r: { roleId: number }) => r.roleId)).toEqual([4, 2, 1]);
    // In its own company only itself holds a role.
    expect(answer.body.data[2]).toMatchObject({ roleId: RoleId.companyAdmin, userCount: 1 });
    expect(answer.body.data[1]).toMatchObject({ roleId: RoleId.ordinaryUser, userCount: 0 });
  });

  it('exports the filtered list as xlsx', async () => {
    const { raw } = await t.call('POST', '/api/Role/export', { token: admin, body: { roleName: '管理员' } });
    const rows = await readXlsxExport(raw, m.title);
    expect(rows).toHaveLength(3); // the header and the two roles named 管理员
    for (const row of rows.slice(1)) expect(row.some((cell) => String(cell).includes('管理员'))).toBe(true);
  });
});

describe('role save', () => {
  it('puts a newly saved role first on page 1, whatever how many roles came before', async () => {
    const before = (await list()).body.total as number;
    for (let i = 0; i < 11 - before; i++) await addRole(`older${i}`);
    const newest = await addRole('newest');
    const page1 = await list();
    expect(page1.body.total).toBeGreaterThanOrEqual(12);
    expect(page1.body.data[0]).toMatchObject({ roleId: newest, roleNo: 'newest' });
    await remove([newest, ...(page1.body.data as { roleId: number; roleNo: string }[]).filter((r) => r.roleNo.startsWith('older')).map((r) => r.roleId)].join(','));
  });

  it('adds and edits a role, keeping roleNo unique', async () => {
    const roleId = await addRole('auditor', { isAdmin: true });
    const row = (await list({ roleNo: 'auditor' })).body.data[0];
    expect(row).toMatchObject({ roleId, roleName: '角色auditor', isAdmin: true, userCount: 0 });

    const edited = await save({ roleId: String(roleId), systemNo: 'pay', roleNo: 'auditor', roleName: '审计员', isAdmin: false });
    expect(edited.body).toMatchObject({ success: true, msg: m.saved, data: { roleId } });
    expect((await list({ roleNo: 'auditor' })).body.data[0]).toMatchObject({ systemNo: 'pay', roleName: '审计员', isAdmin: false });

    // isAdmin left out keeps the stored value.
    await save({ roleId, systemNo: 'pay', roleNo: 'auditor', roleName: '审计员' });
    expect((await list({ roleNo: 'auditor' })).body.data[0].isAdmin).toBe(false);

    const dup = await save({ systemNo: 'huiyun', roleNo: 'auditor', roleName: 'x' });
    expect(dup.body).toMatchObject({ success: false, msg: m.roleNoTaken });
    const dupOnEdit = await save({ roleId, systemNo: 'huiyun', roleNo: 'demo', roleName: 'x' });
    expect(dupOnEdit.body).toMatchObject({ success: false, msg: m.roleNoTaken });
  });

  it('keeps the administrator type of the seeded roles', async () => {
    await save({ roleId: RoleId.ordinaryUser, systemNo: 'huiyun', roleNo: 'ordinaryUser', roleName: '普通用户', isAdmin: true });
    await save({ roleId: RoleId.companyAdmin, systemNo: 'huiyun', roleNo: 'companyAdmin', roleName: '公司管理员', isAdmin: false });
    const rows = (await list()).body.data;
    expect(rows.find((r: { roleId: number }) => r.roleId === RoleId.ordinaryUser).isAdmin).toBe(false);
    expect(rows.find((r: { roleId: number }) => r.roleId === RoleId.companyAdmin).isAdmin).toBe(true);
  });

  it('a role made administrator type gives its users code 1 at their next login', async () => {
    const roleId = await addRole('promoted');
    await t.createUser({ userName: 'promoted_user', roleId });
    const before = await t.call('POST', '/sync/login', { body: { userName: 'promoted_user', passwd: 'User@12345' } });
    expect(before.body.data.code).toBe(0);
    await save({ roleId, systemNo: 'huiyun', roleNo: 'promoted', roleName: '晋升', isAdmin: 'true' });
    const after = await t.call('POST', '/sync/login', { body: { userName: 'promoted_user', passwd: 'User@12345' } });
    expect(after.body.data.code).toBe(1);
  });

  it('answers each field its own message and writes nothing', async () => {
    const before = (await list()).body.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ roleNo: 'a', roleName: 'b' }, m.systemNoRequired],
      [{ systemNo: '  ', roleNo: 'a', roleName: 'b' }, m.systemNoRequired],
      [{ systemNo: 'x', roleName: 'b' }, m.roleNoRequired],
      [{ systemNo: 'x', roleNo: '', roleName: 'b' }, m.roleNoRequired],
      [{ systemNo: 'x', roleNo: 'a' }, m.roleNameRequired],
      [{ systemNo: 'x', roleNo: 'a', roleName: 12 }, m.roleNameRequired],
      [{ systemNo: 'x', roleNo: 'has space', roleName: 'b' }, m.roleNoFormat],
      [{ systemNo: 'x', roleNo: 'a', roleName: 'b'.repeat(101) }, m.tooLong],
      [{ roleId: 'abc', systemNo: 'x', roleNo: 'a', roleName: 'b' }, messages.common.badParameter],
      [{ systemNo: 'x', roleNo: 'a', roleName: 'b', isAdmin: 'maybe' }, messages.common.badParameter],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await save(body);
      expect(status).toBe(400);
      expect(answer).toMatchObject({ success: false, msg: message, errorInfo: message });
    }
    expect((await list()).body.total).toBe(before);
  });

  it('refuses editing a role that does not exist', async () => {
    const answer = await save({ roleId: 99999, systemNo: 'x', roleNo: 'ghost', roleName: 'g' });
    expect(answer).toMatchObject({ status: 404, body: { success: false, msg: messages.common.notFoundRecord } });
  });
});

describe('role delete', () => {
  it('deletes unused roles, several at once, with their grants', async () => {
    const a = await addRole('del_a');
    const b = await addRole('del_b');
    await saveRights({ roleId: a, moduleIds: [await moduleIdOf('/task/index')] });
    const answer = await remove(`${a},${b}`);
    expect(answer.body).toMatchObject({ success: true, msg: m.deleted });
    expect((await list({ roleNo: 'del_' })).body.total).toBe(0);
    const rights = await t.ctx.db.selectFrom('sys_role_right').select('moduleId').where('roleId', '=', a).execute();
    expect(rights).toEqual([]);
  });

  it('refuses the seeded roles, roles still held by users, and unknown ids', async () => {
    for (const id of Object.values(RoleId)) {
      expect((await remove(String(id))).body).toMatchObject({ success: false, msg: m.builtInNoDelete });
    }
    const held = await addRole('held');
    await t.createUser({ userName: 'holder', roleId: held });
    const unused = await addRole('unused_with_held');
    expect((await remove(`${unused},${held}`)).body).toMatchObject({ success: false, msg: m.inUseNoDelete });
    expect((await list({ roleNo: 'held' })).body.total).toBe(2); // nothing deleted
    expect((await remove('99999')).body.msg).toBe(messages.common.notFoundRecord);
    expect((await t.call('DELETE', '/api/Role/delete', { token: admin })).body.msg).toBe(messages.common.idsRequired);
  });
});

describe('role dropdown', () => {
  it('gives the super administrator every role and others all but 超级管理员', async () => {
    const all = await t.call('GET', '/api/Role/dropDown/all', { token: admin });
    expect(all.body.success).toBe(true);
    expect(all.body.data.slice(0, 4)).toEqual([
      { roleId: 1, roleName: '公司管理员' },
      { roleId: 2, roleName: '普通用户' },
      { roleId: 3, roleName: '超级管理员' },
      { roleId: 4, roleName: '演示角色' },
    ]);
    const scoped = await t.call('GET', '/api/Role/dropDown/all', { token: otherAdmin });
    expect(scoped.body.data.map((r: { roleId: number }) => r.roleId)).not.toContain(RoleId.superAdmin);
    expect(scoped.body.data.map((r: { roleId: number }) => r.roleId)).toContain(RoleId.ordinaryUser);
    expect((await t.call('GET', '/api/Role/dropDown/all', { token: ordinary })).status).toBe(403);
    expect((await t.call('GET', '/api/Role/dropDown/all')).status).toBe(401);
  });
});

describe('menu rights', () => {
  it('answers a flat tree over all modules, checked where the role holds them', async () => {
    const answer = await tree(RoleId.ordinaryUser);
    expect(answer.body.success).toBe(true);
    const nodes = answer.body.data as RoleRightNode[];
    const total = await t.ctx.db.selectFrom('sys_module').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(nodes).toHaveLength(Number(total.n));
    const taskList = nodes.find((n) => n.name === '任务列表')!;
    const taskGroup = nodes.find((n) => n.id === taskList.pId)!;
    expect(taskGroup).toMatchObject({ pId: 0, name: '任务管理', open: true, checked: true });
    expect(taskList).toMatchObject({ checked: true, open: false });
    expect(nodes.find((n) => n.name === '用户管理')).toMatchObject({ checked: false });
    expect(((await tree(RoleId.superAdmin)).body.data as RoleRightNode[]).every((n) => n.checked)).toBe(true);
    expect((await tree(99999)).body.msg).toBe(messages.common.notFoundRecord);
    expect((await tree('abc')).body.msg).toBe(messages.common.badParameter);
  });

  it('replaces the grants, adds the groups of granted screens, and the side menu follows', async () => {
    const roleId = await addRole('menu_rights');
    await t.createUser({ userName: 'menu_user', roleId });
    const token = await t.login('menu_user', 'User@12345');
    const menusOf = () => sideMenuOf(t, token);
    expect(await menusOf()).toEqual([]);

    const userScreen = await moduleIdOf('/system/user');
    const deptScreen = await moduleIdOf('/system/Dept');
    const saved = await saveRights({ roleId: String(roleId), moduleIds: JSON.stringify([userScreen, deptScreen]) });
    expect(saved.body).toMatchObject({ success: true, msg: m.rightsSaved });
    expect(await menusOf()).toEqual(['/system', '/system/user', '/system/Dept']);
    const checked = ((await tree(roleId)).body.data as RoleRightNode[]).filter((n) => n.checked).map((n) => n.id);
    expect(checked.sort()).toEqual([await moduleIdOf('/system'), userScreen, deptScreen].sort());

    // A group alone (its screens unticked) grants nothing; a comma list works too.
    await saveRights({ roleId, moduleIds: `${await moduleIdOf('/pay')},${await moduleIdOf('/task/index')}` });
    expect(await menusOf()).toEqual(['/task', '/task/index']);

    await saveRights({ roleId, moduleIds: '[]' });
    expect(await menusOf()).toEqual([]);
  });

  it('refuses the super administrator role, unknown modules and a missing role', async () => {
    const roleId = await addRole('rights_refusals');
    const taskIndex = await moduleIdOf('/task/index');
    await saveRights({ roleId, moduleIds: [taskIndex] });
    expect((await saveRights({ roleId: RoleId.superAdmin, moduleIds: [] })).body).toMatchObject({ success: false, msg: m.superAdminAllMenus });
    expect((await saveRights({ roleId, moduleIds: [taskIndex, 99999] })).body).toMatchObject({ success: false, msg: messages.menu.moduleNotFound });
    expect((await saveRights({ moduleIds: [taskIndex] })).body).toMatchObject({ success: false, msg: m.roleRequired });
    expect((await saveRights({ roleId: '', moduleIds: [taskIndex] })).body).toMatchObject({ success: false, msg: m.roleRequired });
    expect((await saveRights({ roleId, moduleIds: '[1,"x"]' })).body).toMatchObject({ success: false, msg: messages.common.badParameter });
    expect((await saveRights({ roleId: 99999, moduleIds: [] })).body.msg).toBe(messages.common.notFoundRecord);
    // The grants are as before.
    const checked = ((await tree(roleId)).body.data as RoleRightNode[]).filter((n) => n.checked).map((n) => n.id);
    expect(checked.sort()).toEqual([await moduleIdOf('/task'), taskIndex].sort());
  });
});

describe('a company administrator granted role management', () => {
  it('may manage ordinary roles but never the super administrator role', async () => {
    const codes = [Perm.roleSave, Perm.roleDelete, Perm.roleGrantMenu];
    const perms = await t.ctx.db.selectFrom('sys_permission').select('permissionId').where('permission', 'in', codes).execute();
    await t.ctx.db.insertInto('sys_role_permission').values(perms.map((p) => ({ roleId: RoleId.companyAdmin, permissionId: p.permissionId }))).execute();
    await t.ctx.accessCache.invalidate('all');
    try {
      const roleId = (await save({ systemNo: 'huiyun', roleNo: 'by_company_admin', roleName: '公司建' }, otherAdmin)).body.data.roleId;
      expect(roleId).toBeGreaterThan(4);
      const refused = await save({ roleId: RoleId.superAdmin, systemNo: 'huiyun', roleNo: 'superAdmin', roleName: '改名' }, otherAdmin);
      expect(refused).toMatchObject({ status: 403, body: { msg: m.superAdminOnly } });
      expect((await list({ roleNo: 'superAdmin' })).body.data[0].roleName).toBe('超级管理员');
      expect((await tree(RoleId.superAdmin, otherAdmin)).status).toBe(403);
      expect((await tree(roleId, otherAdmin)).body.success).toBe(true);
      expect((await remove(String(roleId), otherAdmin)).body.success).toBe(true);
    } finally {
      await t.ctx.db.deleteFrom('sys_role_permission').where('roleId', '=', RoleId.companyAdmin).where('permissionId', 'in', perms.map((p) => p.permissionId)).execute();
      await t.ctx.accessCache.invalidate('all');
    }
  });
});

describe('authorization of every role route', () => {
  // [method, url, body, what a company administrator of another company gets by the default grants]
  const routes: [string, string, unknown, number][] = [
    ['POST', '/api/Role/list', { page: 1, limit: 10 }, 200],
    ['POST', '/api/Role/export', {}, 200],
    ['POST', '/api/Role/save', { systemNo: 'x', roleNo: 'auth_table', roleName: 'x' }, 403],
    ['DELETE', '/api/Role/delete?ids=99999', undefined, 403],
    ['GET', '/api/Role/dropDown/all', undefined, 200],
    ['GET', `/api/RoleRight/tree/${RoleId.demo}`, undefined, 403],
    ['GET', `/api/RoleRight/grants/${RoleId.demo}`, undefined, 403],
    ['POST', '/api/RoleRight/save', { roleId: RoleId.demo, moduleIds: [] }, 403],
  ];
  it.each(routes)('%s %s', async (method, url, body, companyAdminStatus) => {
    expect((await t.call(method, url, { body })).status).toBe(401);
    expect((await t.call(method, url, { body, token: ordinary })).status).toBe(403);
    expect((await t.call(method, url, { body, token: otherAdmin })).status).toBe(companyAdminStatus);
    const asAdmin = await t.call(method, url, { body, token: admin });
    expect(asAdmin.status).not.toBe(401);
    expect(asAdmin.status).not.toBe(403);
  });

  it('covers every route the role area declares', () => {
    const declared = t.app.declaredRoutes.filter((r) => /^\/api\/(Role|RoleRight)\//.test(r.url)).map((r) => `${r.method} ${r.url}`);
    expect(declared.sort()).toEqual(
      ['POST /api/Role/list', 'POST /api/Role/export', 'POST /api/Role/save', 'DELETE /api/Role/delete', 'GET /api/Role/dropDown/all', 'GET /api/RoleRight/tree/:roleId', 'GET /api/RoleRight/grants/:roleId', 'POST /api/RoleRight/save'].sort(),
    );
  });
});
