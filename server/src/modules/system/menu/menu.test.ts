import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, RoleId, type MenuNode, type Module, type ModuleTreeNode } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { sideMenuOf as sideMenuIn } from '../../../test/menus.ts';

const m = messages.menu;
let t: TestApp;
let admin: string;
let otherAdmin: string;
let ordinary: string;
let systemGroupId: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  const now = Date.now();
  const { deptId } = await t.ctx.db
    .insertInto('sys_dept')
    .values({ deptName: '其他公司', deptNo: 'OTHER', parentId: 0, addUser: 'test', editUser: 'test', addTime: now, editTime: now })
    .returning('deptId')
    .executeTakeFirstOrThrow();
  await t.createUser({ userName: 'other_admin', roleId: RoleId.companyAdmin, deptId });
  await t.createUser({ userName: 'plain_user', roleId: RoleId.ordinaryUser, deptId: 1 });
  otherAdmin = await t.login('other_admin', 'User@12345');
  ordinary = await t.login('plain_user', 'User@12345');
  systemGroupId = (await t.ctx.db.selectFrom('sys_module').select('moduleId').where('moduleUrl', '=', '/system').executeTakeFirstOrThrow()).moduleId;
});
afterAll(async () => t?.close());

const save = (body: Record<string, unknown>, token = admin) => t.call('POST', '/api/Module/save', { token, body });
const get = (id: number | string) => t.call('GET', `/api/Module/get/${id}`, { token: admin });
const remove = (ids: string) => t.call('DELETE', `/api/Module/delete?ids=${ids}`, { token: admin });
const treeOf = async (): Promise<ModuleTreeNode[]> => (await t.call('POST', '/api/Module/list', { token: admin, body: {} })).body.data;
const sideMenuOf = (token: string) => sideMenuIn(t, token);

function screen(extra: Record<string, unknown> = {}) {
  return { parentId: systemGroupId, moduleName: '测试菜单', moduleIcon: 'AppstoreOutlined', moduleUrl: '/system/test', moduleOrder: 99, ...extra };
}

async function moduleCount(): Promise<number> {
  const row = await t.ctx.db.selectFrom('sys_module').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('menu tree and parent choices', () => {
  it('answers the whole tree, groups with their screens, in menu order', async () => {
    const tree = await treeOf();
    expect(tree.map((g) => g.moduleName)).toEqual(['任务管理', '系统管理', '支付管理', '设备管理', '统计分析', '系统监控']);
    const task = tree[0];
    expect(task).toMatchObject({ parentId: 0, moduleLevel: 1, isLeaf: 0, moduleUrl: '/task' });
    expect(task.children.map((c) => c.moduleUrl)).toEqual(['/task/index', '/task/authcode', '/task/userStatistics', '/task/updatePasswd', '/task/blacklist', '/task/reply']);
    expect(task.children[0]).toMatchObject({ parentId: task.moduleId, moduleLevel: 2, isLeaf: 1, fullIndex: `${task.moduleId},${task.children[0].moduleId}`, children: [] });
  });

  it('answers the groups as parent choices, paged', async () => {
    const first = await t.call('POST', '/api/Module/nodes', { token: admin, body: { page: 1, limit: 10 } });
    expect(first.body).toMatchObject({ success: true, total: 6 });
    expect(first.body.data.every((n: Module) => n.isLeaf === 0 && n.parentId === 0)).toBe(true);
    expect(first.body.data[1]).toMatchObject({ moduleName: '系统管理', moduleId: systemGroupId });
    const second = await t.call('POST', '/api/Module/nodes', { token: admin, body: { page: 2, limit: 4 } });
    expect(second.body.data.map((n: Module) => n.moduleName)).toEqual(['统计分析', '系统监控']);
  });

  it('answers one module, or refuses an unknown or malformed id', async () => {
    const found = await get(systemGroupId);
    expect(found.body).toMatchObject({ success: true, data: { moduleId: systemGroupId, moduleName: '系统管理', moduleUrl: '/system' } });
    expect((await get(99999)).body).toMatchObject({ success: false, msg: m.moduleNotFound });
    expect((await get('abc')).body).toMatchObject({ success: false, msg: messages.common.badParameter });
  });

  it('exports all modules as xlsx', async () => {
    const { raw } = await t.call('POST', '/api/Module/export', { token: admin, body: {} });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toContain('spreadsheetml');
  });
});

describe('menu save', () => {
  it('adds a screen under a group, then edits it; the side menus follow at once', async () => {
    const added = await save(screen({ moduleNotes: '备注' }));
    expect(added.body).toMatchObject({ success: true, msg: m.saved });
    const moduleId = added.body.data.moduleId as number;
    expect((await get(moduleId)).body.data).toMatchObject({
      parentId: systemGroupId, moduleLevel: 2, isLeaf: 1, fullIndex: `${systemGroupId},${moduleId}`, systemNo: 'huiyun',
      moduleName: '测试菜单', moduleIcon: 'AppstoreOutlined', moduleUrl: '/system/test', moduleOrder: 99, moduleNotes: '备注',
    });
    expect((await treeOf()).find((g) => g.moduleId === systemGroupId)!.children.at(-1)!.moduleId).toBe(moduleId);
    // The super administrator holds every menu: its side menu has the new one without a new login.
    expect(await sideMenuOf(admin)).toContain('/system/test');

    const edited = await save(screen({ moduleId: String(moduleId), moduleName: '改名菜单', moduleUrl: '/system/test2', moduleOrder: '0' }));
    expect(edited.body).toMatchObject({ success: true, msg: m.saved, data: { moduleId } });
    expect((await get(moduleId)).body.data).toMatchObject({ moduleName: '改名菜单', moduleUrl: '/system/test2', moduleOrder: 0, moduleNotes: '' });
    expect((await treeOf()).find((g) => g.moduleId === systemGroupId)!.children[0].moduleId).toBe(moduleId);
    expect(await sideMenuOf(admin)).toContain('/system/test2');
  });

  it('adds a top-level group, moves a screen into it, and keeps level, leaf and fullIndex consistent', async () => {
    const group = (await save({ parentId: 0, moduleName: '报表', moduleIcon: 'BarChartOutlined', moduleUrl: '/report', moduleOrder: 70 })).body.data.moduleId;
    expect((await get(group)).body.data).toMatchObject({ parentId: 0, moduleLevel: 1, isLeaf: 0, fullIndex: String(group) });
    const nodes = await t.call('POST', '/api/Module/nodes', { token: admin, body: { page: 1, limit: 10 } });
    expect(nodes.body.total).toBe(7);

    const leaf = (await save(screen({ moduleUrl: '/system/mover' }))).body.data.moduleId;
    await save(screen({ moduleId: leaf, parentId: group, moduleUrl: '/report/mover' }));
    expect((await get(leaf)).body.data).toMatchObject({ parentId: group, moduleLevel: 2, isLeaf: 1, fullIndex: `${group},${leaf}` });

    // A group that still has screens cannot become a screen; its own id is no parent.
    expect((await save({ parentId: systemGroupId, moduleId: group, moduleName: '报表', moduleIcon: 'x', moduleUrl: '/report', moduleOrder: 70 })).body).toMatchObject({ success: false, msg: m.groupHasChildren });
    expect((await save({ parentId: group, moduleId: group, moduleName: '报表', moduleIcon: 'x', moduleUrl: '/report', moduleOrder: 70 })).body).toMatchObject({ success: false, msg: m.parentIsSelf });
    // A screen is no parent.
    expect((await save(screen({ parentId: leaf, moduleUrl: '/report/deeper' }))).body).toMatchObject({ success: false, msg: m.parentNotGroup });
    expect((await save(screen({ parentId: 99999, moduleUrl: '/nowhere' }))).body).toMatchObject({ success: false, msg: m.parentNotFound });
    expect((await get(group)).body.data).toMatchObject({ parentId: 0, isLeaf: 0 });
  });

  it('keeps URLs unique', async () => {
    const taken = await save(screen({ moduleUrl: '/system/user' }));
    expect(taken).toMatchObject({ status: 409, body: { success: false, msg: m.moduleUrlTaken } });
  });

  it('answers each field its own message and writes nothing', async () => {
    const before = await moduleCount();
    const cases: [Record<string, unknown>, string][] = [
      [screen({ parentId: undefined }), m.parentRequired],
      [screen({ parentId: '' }), m.parentRequired],
      [screen({ parentId: -1 }), m.parentRequired],
      [screen({ moduleName: '' }), m.moduleNameRequired],
      [screen({ moduleName: undefined }), m.moduleNameRequired],
      [screen({ moduleIcon: ' ' }), m.moduleIconRequired],
      [screen({ moduleUrl: '' }), m.moduleUrlRequired],
      [screen({ moduleUrl: 'system/x' }), m.moduleUrlFormat],
      [screen({ moduleUrl: '/a b' }), m.moduleUrlFormat],
      [screen({ moduleOrder: undefined }), m.moduleOrderRequired],
      [screen({ moduleOrder: '' }), m.moduleOrderRequired],
      [screen({ moduleOrder: 1.5 }), m.moduleOrderFormat],
      [screen({ moduleOrder: -1 }), m.moduleOrderFormat],
      [screen({ moduleName: 'x'.repeat(65) }), m.tooLong],
      [screen({ moduleId: 'abc' }), messages.common.badParameter],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await save(body);
      expect(status).toBe(400);
      expect(answer).toMatchObject({ success: false, msg: message, errorInfo: message });
    }
    expect(await moduleCount()).toBe(before);
    expect((await save(screen({ moduleId: 99999, moduleUrl: '/ghost' }))).body).toMatchObject({ success: false, msg: m.moduleNotFound });
  });
});

describe('menu delete', () => {
  it('refuses a node with children and deletes a group together with its screens', async () => {
    const group = (await save({ parentId: 0, moduleName: '待删分组', moduleIcon: 'x', moduleUrl: '/gone', moduleOrder: 80 })).body.data.moduleId;
    const child = (await save(screen({ parentId: group, moduleUrl: '/gone/child' }))).body.data.moduleId;
    expect((await remove(String(group))).body).toMatchObject({ success: false, msg: m.hasChildrenNoDelete });
    expect((await get(group)).body.success).toBe(true);
    expect((await remove(`${group},${child}`)).body).toMatchObject({ success: true, msg: m.deleted });
    expect((await get(group)).body.success).toBe(false);
    expect((await get(child)).body.success).toBe(false);
    expect((await remove('99999')).body.msg).toBe(m.moduleNotFound);
    expect((await t.call('DELETE', '/api/Module/delete', { token: admin })).body.msg).toBe(messages.common.idsRequired);
  });

  it('a menu granted to a role shows in that role\'s side menu until it is deleted', async () => {
    const moduleId = (await save(screen({ moduleUrl: '/system/granted' }))).body.data.moduleId;
    const roleId = (await t.call('POST', '/api/Role/save', { token: admin, body: { systemNo: 'huiyun', roleNo: 'menu_role', roleName: '菜单角色' } })).body.data.roleId;
    await t.createUser({ userName: 'menu_role_user', roleId });
    const token = await t.login('menu_role_user', 'User@12345');
    const granted = await t.call('POST', '/api/RoleRight/save', { token: admin, body: { roleId, moduleIds: [moduleId] } });
    expect(granted.body.success).toBe(true);
    expect(await sideMenuOf(token)).toEqual(['/system', '/system/granted']);

    await save(screen({ moduleId, moduleName: '新名字', moduleUrl: '/system/granted' }));
    const menus = (await t.call('GET', '/sync/currentUser', { token })).body.data.menus as MenuNode[];
    expect(menus[0].children[0].moduleName).toBe('新名字');

    // Moved to another group: the group follows for the roles holding the screen; the old one goes.
    const otherGroup = (await t.ctx.db.selectFrom('sys_module').select('moduleId').where('moduleUrl', '=', '/pay').executeTakeFirstOrThrow()).moduleId;
    await save(screen({ moduleId, parentId: otherGroup, moduleName: '新名字', moduleUrl: '/pay/granted' }));
    expect(await sideMenuOf(token)).toEqual(['/pay', '/pay/granted']);

    expect((await remove(String(moduleId))).body.success).toBe(true);
    expect(await sideMenuOf(token)).toEqual([]);
    const rights = await t.ctx.db.selectFrom('sys_role_right').select('roleId').where('moduleId', '=', moduleId).execute();
    expect(rights).toEqual([]);
  });
});

describe('authorization of every menu route', () => {
  // [method, url, body, what a company administrator of another company gets by the default grants]
  const routes: [string, string, Record<string, unknown> | undefined, number][] = [
    ['POST', '/api/Module/list', {}, 200],
    ['POST', '/api/Module/export', {}, 200],
    ['POST', '/api/Module/nodes', { page: 1, limit: 10 }, 200],
    ['GET', '/api/Module/get/1', undefined, 200],
    ['POST', '/api/Module/save', { parentId: 0, moduleName: 'x', moduleIcon: 'x', moduleUrl: '/auth-table', moduleOrder: 1 }, 403],
    ['DELETE', '/api/Module/delete?ids=99999', undefined, 403],
  ];
  it.each(routes)('%s %s', async (method, url, body, companyAdminStatus) => {
    expect((await t.call(method, url, { body })).status).toBe(401);
    expect((await t.call(method, url, { body, token: ordinary })).status).toBe(403);
    expect((await t.call(method, url, { body, token: otherAdmin })).status).toBe(companyAdminStatus);
    const asAdmin = await t.call(method, url, { body, token: admin });
    expect([401, 403]).not.toContain(asAdmin.status);
  });

  it('covers every route the menu area declares', () => {
    const declared = t.app.declaredRoutes.filter((r) => r.url.startsWith('/api/Module/')).map((r) => `${r.method} ${r.url}`);
    expect(declared.sort()).toEqual(
      ['POST /api/Module/list', 'POST /api/Module/export', 'POST /api/Module/nodes', 'GET /api/Module/get/:id', 'POST /api/Module/save', 'DELETE /api/Module/delete'].sort(),
    );
  });
});
