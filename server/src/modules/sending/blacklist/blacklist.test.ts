import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlacklistSource, blacklistKey, fill, messages, Perm, RoleId } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { readXlsxExport } from '../../../test/xlsx-export.ts';
import { uploadNumbers, uploadVia } from '../../../test/uploads.ts';
import { insertTask } from '../../../test/rows.ts';
import { writeBlacklist } from './write-numbers.ts';

const m = messages.blacklist;

let t: TestApp;
let dataDir: string;
let admin: string;
let adminA: string;
let adminB: string;
let userA: string;
let userA2: string;
let userB: string;
let demoA: string;
let companyA: number;
let companyB: number;
let companyC: number;
let adminBId: number;
let userAId: number;

const call = (url: string, token: string, body: unknown = {}) => t.call('POST', url, { token, body });
const add = (phones: string, token: string, extra: Record<string, unknown> = {}) => call('/sync/saveBlacklist', token, { phones, ...extra });
const list = (token: string, body: Record<string, unknown> = {}) => call('/sync/queryBlacklist', token, { pageNum: 1, pageSize: 50, ...body });
const remove = (ids: unknown, token: string) => call('/sync/deleteBlacklist', token, { ids });
const phonesOf = async (deptId: number) =>
  (await t.ctx.db.selectFrom('sync_blacklist').select('phone').where('deptId', '=', deptId).orderBy('phone').execute()).map((r) => Number(r.phone));
const lastLog = () => t.ctx.db.selectFrom('sys_oper_log').selectAll().where('module', '=', m.title).orderBy('operId', 'desc').executeTakeFirstOrThrow();

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-blacklist-'));
  t = await startTestApp({ DATA_DIR: dataDir });
  companyA = (await t.ctx.db.selectFrom('sys_dept').select('deptId').where('deptNo', '=', 'DEMO').executeTakeFirstOrThrow()).deptId;
  companyB = await t.createCompany('黑名单B公司', 'BL_B');
  companyC = await t.createCompany('黑名单C公司', 'BL_C');
  await t.createUser({ userName: 'bl_adminA', roleId: RoleId.companyAdmin, deptId: companyA });
  adminBId = await t.createUser({ userName: 'bl_adminB', roleId: RoleId.companyAdmin, deptId: companyB });
  userAId = await t.createUser({ userName: 'bl_userA', deptId: companyA });
  await t.createUser({ userName: 'bl_userA2', deptId: companyA });
  await t.createUser({ userName: 'bl_userB', deptId: companyB });
  await t.createUser({ userName: 'bl_demoA', roleId: RoleId.demo, deptId: companyA });
  admin = await t.login('admin', ADMIN_PASSWORD);
  adminA = await t.login('bl_adminA', 'User@12345');
  adminB = await t.login('bl_adminB', 'User@12345');
  userA = await t.login('bl_userA', 'User@12345');
  userA2 = await t.login('bl_userA2', 'User@12345');
  userB = await t.login('bl_userB', 'User@12345');
  demoA = await t.login('bl_demoA', 'User@12345');
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('adding numbers', () => {
  it('adds one or many numbers, however separated, to the caller company and lists them', async () => {
    const answer = await add('+86 138 0013 8000\n13900139000，86-130-0013-0000; 13900139000\t0086 18900189000', userA);
    expect(answer.status).toBe(200);
    const result = { added: 4, duplicates: 1, invalid: 0, invalidSamples: [] };
    expect(answer.body).toMatchObject({ success: true, msg: fill(m.added, { added: 4, duplicates: 1 }), data: result });
    expect(await phonesOf(companyA)).toEqual([13000130000, 13800138000, 13900139000, 18900189000]);

    const listed = await list(userA, { phone: '13800138000' });
    expect(listed.body.total).toBe(1);
    expect(listed.body.data[0]).toEqual({
      id: blacklistKey(companyA, '13800138000'), deptId: companyA, deptName: expect.any(String), phone: '13800138000',
      addUser: 'bl_userA', addTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), source: BlacklistSource.manual,
    });
    expect(await lastLog()).toMatchObject({ userName: 'bl_userA', action: m.actionAdd, success: 1, target: expect.stringContaining('+4 (1)') });
  });

  it('counts numbers already on the list as duplicates, not as an error', async () => {
    const answer = await add('13800138000 13700137000', userA2);
    expect(answer.body).toMatchObject({ success: true, data: { added: 1, duplicates: 1, invalid: 0 } });
    const again = await add('13800138000,13700137000', userA);
    expect(again.body).toMatchObject({ success: true, msg: fill(m.added, { added: 0, duplicates: 2 }), data: { added: 0, duplicates: 2 } });
    // the first to add a number stays its adder
    expect((await list(userA, { phone: '13700137000' })).body.data[0].addUser).toBe('bl_userA2');
  });

  it('refuses invalid numbers by name and writes nothing', async () => {
    const before = await phonesOf(companyA);
    const answer = await add('13600136000\n1380013800\n张三\n12345678901', userA);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, msg: fill(m.phonesInvalid, { numbers: '1380013800、张三、12345678901' }) });
    const many = await add(['13600136000', ...Array.from({ length: 7 }, (_, i) => `bad${i}`)].join('\n'), userA);
    expect(many.body.msg).toBe(fill(m.phonesInvalid, { numbers: fill(m.phonesInvalidMore, { numbers: 'bad0、bad1、bad2、bad3、bad4', count: 7 }) }));
    expect(await phonesOf(companyA)).toEqual(before);
  });

  it('answers each bad request a Chinese message, never a 500', async () => {
    const cases: [unknown, string][] = [
      [{}, m.phonesRequired],
      [{ phones: '   ' }, m.phonesRequired],
      [{ phones: ' ,;\n-- ' }, m.phonesRequired],
      [{ phones: ['13800138000'] }, m.phonesRequired],
      [{ phones: '1'.repeat(200_001) }, fill(m.phonesTooLong, { max: 200_000 })],
      [{ phones: '13800138000', deptId: 'x' }, messages.common.badParameter],
    ];
    for (const [body, message] of cases) {
      const answer = await call('/sync/saveBlacklist', userA, body);
      expect(answer.status, message).toBe(400);
      expect(answer.body).toMatchObject({ success: false, msg: message });
    }
  });

  it('takes a form body like the original front end sent', async () => {
    const raw = await t.app.inject({
      method: 'POST',
      url: '/sync/saveBlacklist',
      headers: { 'content-type': 'application/x-www-form-urlencoded', token: userA },
      payload: `phones=${encodeURIComponent('13500135000\n13500135001')}&token=${userA}`,
    });
    expect(raw.json()).toMatchObject({ success: true, data: { added: 2, duplicates: 0 } });
  });
});

describe('company scope', () => {
  it('keeps each company to its own list', async () => {
    await add('15000150000', userB);
    const seenByA = (await list(userA)).body.data.map((r: { deptId: number }) => r.deptId);
    expect(new Set(seenByA)).toEqual(new Set([companyA]));
    expect((await list(userB)).body.data.map((r: { phone: string }) => r.phone)).toEqual(['15000150000']);
    expect((await list(adminB, { phone: '13800138000' })).body.total).toBe(0);
    // the super administrator sees every company, and may narrow to one
    expect((await list(admin, { phone: '15000150000' })).body.data[0]).toMatchObject({ deptId: companyB, deptName: '黑名单B公司' });
    expect((await list(admin, { deptId: companyB })).body.total).toBe(1);
  });

  it('refuses a company outside the caller scope, changing nothing', async () => {
    for (const token of [userA, adminA]) {
      const answer = await add('15100151000', token, { deptId: companyB });
      expect(answer.status).toBe(403);
      expect(answer.body.msg).toBe(messages.common.outOfScope);
    }
    expect((await list(userA, { deptId: companyB })).status).toBe(403);
    expect(await phonesOf(companyB)).toEqual([15000150000]);
  });

  it('lets an administrator keep the lists of the companies it was granted', async () => {
    expect((await add('15200152000', adminB, { deptId: companyC })).status).toBe(403);
    await t.ctx.db.insertInto('sys_user_dept').values({ userId: adminBId, deptId: companyC }).execute();
    await t.ctx.accessCache.invalidate(adminBId);
    expect((await add('15200152000', adminB, { deptId: companyC })).body).toMatchObject({ success: true, data: { added: 1 } });
    expect(await phonesOf(companyC)).toEqual([15200152000]);
    const choices = await call('/api/Dept/choices', adminB);
    expect(choices.body.data).toEqual([{ deptId: companyB, deptName: '黑名单B公司' }, { deptId: companyC, deptName: '黑名单C公司' }]);
    expect((await call('/api/Dept/choices', userA)).body.data).toEqual([{ deptId: companyA, deptName: expect.any(String) }]);
  });

  it('refuses an unknown company, even to the super administrator', async () => {
    const answer = await add('15300153000', admin, { deptId: 999_999 });
    expect(answer.status).toBe(404);
    expect(answer.body.msg).toBe(m.deptNotFound);
  });
});

describe('uploading a number file', () => {
  it('adds the numbers and counts added, duplicate and invalid lines', async () => {
    const file = ['13800138000', '+86 158 0015 8000', '15800158000', 'abc', '', '15900159000,1590015900', '张三 15700157000'].join('\r\n');
    const fileNo = await uploadNumbers(t, userA, file);
    const answer = await call('/sync/uploadBlacklist', userA, { fileNo, fileName: 'numbers.txt', fileUrl: '' });
    expect(answer.status).toBe(200);
    const data = {
      added: 3, duplicates: 2, invalid: 3,
      invalidSamples: [{ line: 4, text: 'abc' }, { line: 6, text: '1590015900' }, { line: 7, text: '张三' }],
    };
    expect(answer.body).toMatchObject({ success: true, msg: fill(m.uploaded, { added: 3, duplicates: 2, invalid: 3 }), data });
    expect(await phonesOf(companyA)).toEqual(expect.arrayContaining([15700157000, 15800158000, 15900159000]));
    expect((await list(userA, { phone: '15800158000' })).body.data[0].source).toBe(BlacklistSource.upload);
    expect(await lastLog()).toMatchObject({ action: m.actionUpload, success: 1, target: expect.stringContaining(`fileNo ${fileNo} +3 (2 / 3)`) });
  });

  it('writes a big file in slices within one transaction', async () => {
    const numbers = Array.from({ length: 45_000 }, (_, i) => 16_600_000_000 + i * 7);
    const fileNo = await uploadNumbers(t, adminA, numbers.reverse().join('\n'));
    const answer = await call('/sync/uploadBlacklist', adminA, { fileNo });
    expect(answer.body.data).toMatchObject({ added: 45_000, duplicates: 0, invalid: 0 });
    const held = await t.ctx.db.selectFrom('sync_blacklist').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deptId', '=', companyA).where('phone', '>=', 16_600_000_000).where('phone', '<', 16_700_000_000).executeTakeFirstOrThrow();
    expect(Number(held.n)).toBe(45_000);
  });

  it('leaves the list as it was when the input fails half-way', async () => {
    const before = await phonesOf(companyC);
    const failing = writeBlacklist(t.ctx, { deptId: companyC, addUser: 'test', source: 'manual' }, async (write) => {
      await write(Array.from({ length: 60_000 }, (_, i) => 17_700_000_000 + i)); // more than one slice on either database
      throw new Error('read error');
    });
    await expect(failing).rejects.toThrow('read error');
    expect(await phonesOf(companyC)).toEqual(before);
  });

  it('refuses someone else file, an unknown file, a file that is not a number list and a company out of scope', async () => {
    const fileNo = await uploadNumbers(t, userA, '13800138000');
    expect((await call('/sync/uploadBlacklist', userA2, { fileNo })).status).toBe(403);
    expect((await call('/sync/uploadBlacklist', userA, { fileNo: 'nope' })).body.msg).toBe(messages.upload.fileNotFound);
    expect((await call('/sync/uploadBlacklist', userA, {})).body.msg).toBe(messages.upload.fileNoRequired);
    const out = await call('/sync/uploadBlacklist', userA, { fileNo, deptId: companyB });
    expect(out.status).toBe(403);
    expect(out.body.msg).toBe(messages.common.outOfScope);
    const image = await uploadVia(t, userA, { fileName: 'a.png', content: Buffer.from('89504e470d0a1a0a0000', 'hex') }, { kind: 'image' });
    expect((await call('/sync/uploadBlacklist', userA, { fileNo: image.body.data[0].fileNo })).body.msg).toBe(messages.upload.notNumberFile);
  });
});

describe('deleting numbers', () => {
  it('is refused to ordinary users', async () => {
    const answer = await remove(blacklistKey(companyA, 13800138000), userA);
    expect(answer.status).toBe(403);
    expect(answer.body.msg).toBe(messages.common.forbidden);
    expect(await phonesOf(companyA)).toContain(13800138000);
  });

  it('lets an administrator remove entries of its companies, several at once', async () => {
    const answer = await remove([blacklistKey(companyA, 13800138000), blacklistKey(companyA, 13700137000)], adminA);
    expect(answer.body).toMatchObject({ success: true, msg: fill(m.deleted, { count: 2 }), data: { count: 2 } });
    expect(await phonesOf(companyA)).not.toContain(13800138000);
    expect(await lastLog()).toMatchObject({ action: m.actionDelete, success: 1, target: `${companyA}:13800138000,${companyA}:13700137000` });
    expect((await remove(blacklistKey(companyA, 13800138000), adminA)).status).toBe(404);
  });

  it('refuses the whole delete when one entry lies outside the caller scope', async () => {
    const answer = await remove(`${companyA}:13900139000,${companyB}:15000150000`, adminA);
    expect(answer.status).toBe(403);
    expect(answer.body.msg).toBe(messages.common.outOfScope);
    expect(await phonesOf(companyA)).toContain(13900139000);
    expect(await phonesOf(companyB)).toEqual([15000150000]);
  });

  it('answers a bad key with a Chinese message', async () => {
    expect((await remove('', adminA)).body.msg).toBe(m.idsRequired);
    expect((await remove('13900139000', adminA)).body.msg).toBe(messages.common.badParameter);
  });
});

describe('the list and the number upload of a task', () => {
  it('skips listed numbers when numbers are uploaded into a task, counted as blocked', async () => {
    await add('18800188000', userA);
    const taskId = await insertTask(t, { taskName: 'bl_task', userId: userAId, deptId: companyA });
    const fileNo = await uploadNumbers(t, userA, '18800188000\n18800188001\n18800188002');
    const answer = await call('/sync/uploadTaskData', userA, { taskId, fileNo, fileName: 'numbers.txt', fileUrl: '' });
    expect(answer.body).toMatchObject({ success: true, data: { valid: 2, blocked: 1, duplicates: 0, invalid: 0 } });
    const numbers = await t.ctx.db.selectFrom('sync_task_number').select('phone').where('taskId', '=', taskId).execute();
    expect(numbers.map((r) => Number(r.phone)).sort()).toEqual([18800188001, 18800188002]);
  });

  it('exports the filtered list as an .xlsx', async () => {
    const { raw } = await t.call('POST', '/sync/exportBlacklist', { token: userA, body: { phone: '1880018800' } });
    const rows = await readXlsxExport(raw, m.title);
    expect(rows[0]).toEqual([m.phone, m.dept, m.addUser, m.addTime, m.source]);
    expect(rows[1][4]).toBe(m.sourceManual);
    expect(rows).toHaveLength(2);
    expect(String(rows[1][0])).toBe('18800188000');
  });

  it('shows the demo role the list but lets it change nothing', async () => {
    expect((await list(demoA, { phone: '18800188000' })).body.total).toBe(1);
    expect((await add('18800188009', demoA)).status).toBe(403);
  });
});

describe('a role that keeps the list but does not upload task numbers', () => {
  it('may store a number file for the list, nothing else', async () => {
    const { permissionId } = await t.ctx.db.selectFrom('sys_permission').select('permissionId').where('permission', '=', Perm.taskUpload).executeTakeFirstOrThrow();
    await t.ctx.db.deleteFrom('sys_role_permission').where('roleId', '=', RoleId.ordinaryUser).where('permissionId', '=', permissionId).execute();
    await t.ctx.accessCache.invalidate(userAId);
    const fileNo = await uploadNumbers(t, userA, '18900189001');
    expect((await call('/sync/uploadBlacklist', userA, { fileNo })).body.data).toMatchObject({ added: 1 });
    const image = await uploadVia(t, userA, { fileName: 'a.png', content: Buffer.from('89504e470d0a1a0a0000', 'hex') }, { kind: 'image' });
    expect(image.status).toBe(403);
    expect(image.body.msg).toBe(messages.common.forbidden);
  });
});
