import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, messages, Perm, permissionTable, RoleId } from '@huiyun/contract';
import { startAdminApp, type TestApp } from '../../../test/harness.ts';
import { readXlsxExport } from '../../../test/xlsx-export.ts';

const m = messages.permission;
let t: TestApp;
let token: string;

beforeAll(async () => ({ t, token } = await startAdminApp()));
afterAll(async () => t?.close());

const lastLog = () =>
  t.ctx.db.selectFrom('sys_oper_log').selectAll().where('module', '=', m.title).orderBy('operId', 'desc').executeTakeFirst();

type Row = { permissionId: number; permissionName: string; permission: string; builtIn: boolean; granted?: boolean };

const save = (body: unknown, as = token) => t.call('POST', '/api/Permission/save', { token: as, body });
const list = (body: Record<string, unknown> = {}, as = token) =>
  t.call('POST', '/api/Permission/list', { token: as, body: { page: 1, limit: 10, ...body } });
const remove = (ids: string, as = token) => t.call('DELETE', `/api/Permission/delete?ids=${ids}`, { token: as });
const grant = (body: unknown, as = token) => t.call('POST', '/api/RolePermission/save', { token: as, body });
const granted = (roleId: number | string, as = token) => t.call('GET', `/api/RolePermission/list/${roleId}`, { token: as });
const idOf = async (code: string) =>
  (await t.ctx.db.selectFrom('sys_permission').select('permissionId').where('permission', '=', code).executeTakeFirstOrThrow()).permissionId;
const row = (permissionId: number) => t.ctx.db.selectFrom('sys_permission').selectAll().where('permissionId', '=', permissionId).executeTakeFirst();
const grantsOf = async (roleId: number) =>
  (await t.ctx.db.selectFrom('sys_role_permission').select('permissionId').where('roleId', '=', roleId).orderBy('permissionId').execute()).map((r) => r.permissionId);

async function addPermission(permissionName: string, permission: string): Promise<number> {
  const answer = await save({ permissionName, permission });
  expect(answer.body).toMatchObject({ success: true, msg: m.saved });
  return answer.body.data.permissionId;
}

describe('权限管理: permissions', () => {
  it('lists the codes the server declares, marked built in', async () => {
    const all = await list({ limit: 200 });
    expect(all.body.total).toBe(Object.keys(permissionTable).length);
    const dept = (all.body.data as Row[]).find((p) => p.permission === Perm.deptList);
    expect(dept).toMatchObject({ permissionName: permissionTable[Perm.deptList].name, builtIn: true });
    expect(dept).not.toHaveProperty('granted');
  });

  it('adds, edits, filters and deletes a permission', async () => {
    const permissionId = await addPermission('报表-查询', 'report:Sales:list');
    const listed = await list({ permission: 'report:sales' });
    expect(listed.body.total).toBe(1);
    expect(listed.body.data[0]).toEqual({ permissionId, permissionName: '报表-查询', permission: 'report:Sales:list', builtIn: false });
    expect((await list({ permissionName: '报表' })).body.total).toBe(1);

    const edited = await save({ permissionId: String(permissionId), permissionName: '报表-列表', permission: 'report:Sales:page' });
    expect(edited.body).toMatchObject({ success: true, msg: m.saved, data: { permissionId } });
    expect(await row(permissionId)).toMatchObject({ permissionName: '报表-列表', permission: 'report:Sales:page' });

    const deleted = await remove(String(permissionId));
    expect(deleted.body).toMatchObject({ success: true, msg: m.deleted });
    expect(await row(permissionId)).toBeUndefined();
  });

  it('answers each field its own message and writes nothing', async () => {
    const before = (await list()).body.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ permission: 'a:B:c' }, m.nameRequired],
      [{ permissionName: ' ', permission: 'a:B:c' }, m.nameRequired],
      [{ permissionName: 'x' }, m.codeRequired],
      [{ permissionName: 'x', permission: '' }, m.codeRequired],
      [{ permissionName: 'x', permission: 'system:User' }, m.codeFormat],
      [{ permissionName: 'x', permission: 'system:User:list:more' }, m.codeFormat],
      [{ permissionName: 'x', permission: 'system User list' }, m.codeFormat],
      [{ permissionName: 'x'.repeat(101), permission: 'a:B:c' }, m.tooLong],
      [{ permissionId: 'abc', permissionName: 'x', permission: 'a:B:c' }, messages.common.badParameter],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await save(body);
      expect(status).toBe(400);
      expect(answer).toMatchObject({ success: false, msg: message, errorInfo: message });
    }
    expect((await list()).body.total).toBe(before);
  });

  it('keeps codes unique', async () => {
    const first = await addPermission('唯一', 'uniq:Code:one');
    expect((await save({ permissionName: '重复', permission: 'uniq:Code:one' })).body).toMatchObject({ success: false, msg: m.codeTaken });
    expect((await save({ permissionName: '重复', permission: Perm.userList })).body).toMatchObject({ success: false, msg: m.codeTaken });
    const second = await addPermission('唯一二', 'uniq:Code:two');
    expect((await save({ permissionId: second, permissionName: 'x', permission: 'uniq:Code:one' })).body.msg).toBe(m.codeTaken);
    expect((await save({ permissionId: first, permissionName: '唯一改', permission: 'uniq:Code:one' })).body.success).toBe(true);
  });

  it('lets built-in codes be renamed but never re-coded or deleted', async () => {
    const builtIn = await idOf(Perm.variableList);
    const renamed = await save({ permissionId: builtIn, permissionName: '变量-查看', permission: Perm.variableList });
    expect(renamed.body).toMatchObject({ success: true, msg: m.saved });
    const recoded = await save({ permissionId: builtIn, permissionName: '变量-查看', permission: 'system:Variable:view' });
    expect(recoded.body).toMatchObject({ success: false, msg: m.builtInNoRecode });
    expect(await row(builtIn)).toMatchObject({ permissionName: '变量-查看', permission: Perm.variableList });

    const custom = await addPermission('可删', 'custom:Thing:list');
    const mixed = await remove(`${custom},${builtIn}`);
    expect(mixed.body).toMatchObject({ success: false, msg: fill(m.builtInNoDelete, { codes: Perm.variableList }) });
    expect(await row(builtIn)).toBeDefined();
    expect(await row(custom)).toBeDefined();
  });

  it('refuses to edit or delete what does not exist, and a delete without ids', async () => {
    const missing = await save({ permissionId: 99999, permissionName: 'x', permission: 'ghost:Thing:list' });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe(messages.common.notFoundRecord);
    expect((await remove('99999')).body.msg).toBe(messages.common.notFoundRecord);
    expect((await t.call('DELETE', '/api/Permission/delete', { token })).body.msg).toBe(messages.common.idsRequired);
  });

  it('pages and sorts', async () => {
    for (let i = 1; i <= 12; i++) await addPermission(`分页权限${String(i).padStart(2, '0')}`, `page:Perm:p${String(i).padStart(2, '0')}`);
    // Newest first, like every list: the code just added leads page 1, the oldest ends page 2.
    expect((await list()).body.data[0].permission).toBe('page:Perm:p12');
    const unsorted2 = await list({ permission: 'page:Perm:', page: 2 });
    expect(unsorted2.body.data.map((p: Row) => p.permission)).toEqual(['page:Perm:p02', 'page:Perm:p01']);
    const page1 = await list({ permission: 'page:Perm:', sortField: 'permission', sortOrder: 'descend' });
    expect(page1.body.total).toBe(12);
    expect(page1.body.data[0].permission).toBe('page:Perm:p12');
    const page2 = await list({ permission: 'page:Perm:', page: 2, sortField: 'permissionName', sortOrder: 'ascend' });
    expect(page2.body.data.map((p: Row) => p.permission)).toEqual(['page:Perm:p11', 'page:Perm:p12']);
  });

  it('exports the filtered list as an .xlsx', async () => {
    const { raw } = await t.call('POST', '/api/Permission/export', { token, body: { permission: 'system:Dept:' } });
    const rows = await readXlsxExport(raw);
    expect(rows[0]).toContain(m.permission);
    const codes = rows.slice(1).map((row) => String(row[1])).sort();
    expect(codes).toEqual([Perm.deptDelete, Perm.deptList, Perm.deptSave].sort());
  });
});

describe('权限管理: role grants', () => {
  it('marks what a role holds in the list and answers its permission ids', async () => {
    const rows = (await list({ roleId: RoleId.companyAdmin, limit: 200 })).body.data as Row[];
    expect(rows.find((p) => p.permission === Perm.deptList)?.granted).toBe(true);
    expect(rows.find((p) => p.permission === Perm.roleSave)?.granted).toBe(false);
    const ids = (await granted(RoleId.companyAdmin)).body.data as number[];
    expect(ids).toContain(await idOf(Perm.deptList));
    expect(ids).not.toContain(await idOf(Perm.roleSave));
    expect(ids).toEqual(await grantsOf(RoleId.companyAdmin));
    // The super administrator holds everything.
    const superRows = (await list({ roleId: RoleId.superAdmin, limit: 200 })).body.data as Row[];
    expect(superRows.every((p) => p.granted === true)).toBe(true);
    expect((await granted(RoleId.superAdmin)).body.data).toHaveLength(Number((await list()).body.total));
  });

  it('answers a missing or unknown role clearly', async () => {
    expect((await granted('abc')).body).toMatchObject({ success: false, msg: m.roleRequired });
    const unknown = await granted(999);
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe(m.roleNotFound);
    for (const body of [{}, { permissionIds: '1,2' }, { roleId: '', permissionIds: '1' }, { roleId: null }]) {
      const answer = await grant(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ success: false, msg: m.roleRequired });
    }
    expect((await grant({ roleId: 999, permissionIds: '' })).body.msg).toBe(m.roleNotFound);
  });

  it('replaces a role grants with exactly the set given, in every accepted shape', async () => {
    const a = await idOf(Perm.variableList);
    const b = await idOf(Perm.variableSave);
    const c = await idOf(Perm.deptList);
    const shapes: [unknown, number[]][] = [
      [`${a},${b}`, [a, b]],
      [JSON.stringify([c]), [c]],
      [[a, String(c), a], [a, c]],
      ['', []],
      ['[]', []],
    ];
    for (const [permissionIds, expected] of shapes) {
      const answer = await grant({ roleId: RoleId.demo, permissionIds });
      expect(answer.body).toMatchObject({ success: true, msg: m.grantOk });
      expect(await grantsOf(RoleId.demo)).toEqual([...expected].sort((x, y) => x - y));
    }
  });

  it('refuses unknown ids and bad shapes, changing nothing', async () => {
    const a = await idOf(Perm.variableList);
    await grant({ roleId: RoleId.demo, permissionIds: [a] });
    const unknown = await grant({ roleId: RoleId.demo, permissionIds: `${a},99998,99999` });
    expect(unknown.body).toMatchObject({ success: false, msg: fill(m.unknownPermission, { ids: '99998,99999' }) });
    expect((await grant({ roleId: RoleId.demo, permissionIds: 'x,y' })).body.msg).toBe(messages.common.badParameter);
    expect((await grant({ roleId: RoleId.demo, permissionIds: '[1,' })).body.msg).toBe(messages.common.badParameter);
    expect(await grantsOf(RoleId.demo)).toEqual([a]);
  });

  it('refuses to configure the super administrator role', async () => {
    const before = await grantsOf(RoleId.superAdmin);
    const answer = await grant({ roleId: RoleId.superAdmin, permissionIds: '' });
    expect(answer.body).toMatchObject({ success: false, msg: m.superAdminAllGranted });
    expect(await grantsOf(RoleId.superAdmin)).toEqual(before);
  });

  it('gives and takes a route from a user of the role at once (403 ↔ 200)', async () => {
    await t.createUser({ userName: 'demo1', roleId: RoleId.demo });
    const demo = await t.login('demo1', 'User@12345');
    const call = () => t.call('POST', '/api/Variable/list', { token: demo, body: {} });
    await grant({ roleId: RoleId.demo, permissionIds: '' });
    expect((await call()).status).toBe(403);
    await grant({ roleId: RoleId.demo, permissionIds: [await idOf(Perm.variableList)] });
    const allowed = await call();
    expect(allowed.status).toBe(200);
    expect(allowed.body.success).toBe(true);
    await grant({ roleId: RoleId.demo, permissionIds: [] });
    expect((await call()).status).toBe(403);
  });

  it('keeps deleted permissions out of every grant', async () => {
    const custom = await addPermission('临时', 'temp:Thing:list');
    await grant({ roleId: RoleId.demo, permissionIds: [custom] });
    expect((await remove(String(custom))).body.success).toBe(true);
    expect(await grantsOf(RoleId.demo)).toEqual([]);
  });
});

describe('权限管理: who may do what', () => {
  let adminB: string;
  let user: string;

  beforeAll(async () => {
    const { deptId } = await t.ctx.db
      .insertInto('sys_dept')
      .values({ deptName: '另一家公司', deptNo: 'PERM_B', parentId: 0, addUser: 't', editUser: 't', addTime: 0, editTime: 0 })
      .returning('deptId')
      .executeTakeFirstOrThrow();
    await t.createUser({ userName: 'permAdminB', roleId: RoleId.companyAdmin, deptId });
    adminB = await t.login('permAdminB', 'User@12345');
    await t.createUser({ userName: 'permUser', roleId: RoleId.ordinaryUser });
    user = await t.login('permUser', 'User@12345');
  });

  it('lets a company administrator read but, by default, not change', async () => {
    expect((await list({}, adminB)).body.success).toBe(true);
    expect((await granted(RoleId.demo, adminB)).body.success).toBe(true);
    const before = (await list()).body.total;
    expect((await save({ permissionName: 'x', permission: 'b:Admin:x' }, adminB)).status).toBe(403);
    expect((await remove(String(await idOf(Perm.deptList)), adminB)).status).toBe(403);
    expect((await grant({ roleId: RoleId.demo, permissionIds: '' }, adminB)).status).toBe(403);
    expect((await list()).body.total).toBe(before);
  });

  it('never lets a granter raise its own rights', async () => {
    const grantId = await idOf(Perm.permissionGrant);
    const companyAdminGrants = await grantsOf(RoleId.companyAdmin);
    await grant({ roleId: RoleId.companyAdmin, permissionIds: [...companyAdminGrants, grantId] });
    await grant({ roleId: RoleId.demo, permissionIds: [] });

    const own = await grant({ roleId: RoleId.companyAdmin, permissionIds: [...companyAdminGrants, grantId, await idOf(Perm.roleSave)] }, adminB);
    expect(own.status).toBe(403);
    expect(own.body.msg).toBe(m.ownRoleRefused);

    const notHeld = await grant({ roleId: RoleId.demo, permissionIds: [await idOf(Perm.roleSave)] }, adminB);
    expect(notHeld.status).toBe(403);
    expect(notHeld.body.msg).toBe(fill(m.notHeldRefused, { codes: Perm.roleSave }));
    expect(await grantsOf(RoleId.demo)).toEqual([]);

    const held = await grant({ roleId: RoleId.demo, permissionIds: [await idOf(Perm.deptList)] }, adminB);
    expect(held.body).toMatchObject({ success: true, msg: m.grantOk });
    expect(await grantsOf(RoleId.demo)).toEqual([await idOf(Perm.deptList)]);
    await grant({ roleId: RoleId.companyAdmin, permissionIds: companyAdminGrants });
  });

  it('refuses callers without the permission or without a login', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/Permission/list', {}],
      ['POST', '/api/Permission/export', {}],
      ['POST', '/api/Permission/save', { permissionName: 'x', permission: 'no:Pe:rm' }],
      ['DELETE', '/api/Permission/delete?ids=1', undefined],
      ['GET', `/api/RolePermission/list/${RoleId.demo}`, undefined],
      ['POST', '/api/RolePermission/save', { roleId: RoleId.ordinaryUser, permissionIds: '' }],
    ] as const) {
      const asUser = await t.call(method, url, { token: user, body });
      expect(asUser.status).toBe(403);
      expect(asUser.body).toMatchObject({ success: false, msg: messages.common.forbidden });
      expect((await t.call(method, url, { body })).status).toBe(401);
    }
    expect(await row(1)).toBeDefined();
  });

  it('writes the operation log of a grant', async () => {
    await grant({ roleId: RoleId.demo, permissionIds: '' });
    // The log is written after the answer is sent: wait for it.
    await expect.poll(lastLog, { timeout: 2000 }).toMatchObject({ userName: 'admin', action: m.configure, target: `roleId ${RoleId.demo}: `, success: 1, message: m.grantOk });
  });
});
