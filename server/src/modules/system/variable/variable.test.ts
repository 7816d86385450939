import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@huiyun/contract';
import { startAdminApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await startAdminApp()));
afterAll(async () => t?.close());

const save = (body: unknown) => t.call('POST', '/api/Variable/save', { token, body });
const list = (body: Record<string, unknown> = {}) => t.call('POST', '/api/Variable/list', { token, body: { page: 1, limit: 10, ...body } });

describe('system environment variables', () => {
  it('adds, edits, lists and deletes', async () => {
    const added = await save({ varLable: '短信网关地址', varName: 'sms.gateway', varValue: 'http://gw' });
    expect(added.body).toMatchObject({ success: true, msg: messages.variable.saved });
    const varId = added.body.data.varId;

    const listed = await list({ varName: 'sms.gateway' });
    expect(listed.body.total).toBe(1);
    expect(listed.body.data[0]).toMatchObject({ varId, varLable: '短信网关地址', varValue: 'http://gw', addUser: 'admin', editUser: 'admin' });
    expect(listed.body.data[0].editTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const edited = await save({ varId: String(varId), varLable: '短信网关', varName: 'sms.gateway', varValue: 'https://gw' });
    expect(edited.body.success).toBe(true);
    expect((await list({ varName: 'sms.gateway' })).body.data[0]).toMatchObject({ varLable: '短信网关', varValue: 'https://gw' });

    const deleted = await t.call('DELETE', `/api/Variable/delete?ids=${varId}`, { token });
    expect(deleted.body).toMatchObject({ success: true, msg: messages.variable.deleted });
    expect((await list({ varName: 'sms.gateway' })).body.total).toBe(0);
  });

  it('answers each field its own message and writes nothing', async () => {
    const before = (await list()).body.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ varName: 'a', varValue: '1' }, messages.variable.varLableRequired],
      [{ varLable: '  ', varName: 'a', varValue: '1' }, messages.variable.varLableRequired],
      [{ varLable: 'x', varValue: '1' }, messages.variable.varNameRequired],
      [{ varLable: 'x', varName: 'a', varValue: '' }, messages.variable.varValueRequired],
      [{ varLable: 'x', varName: 'has space', varValue: '1' }, messages.variable.varNameFormat],
      [{ varLable: 'x'.repeat(101), varName: 'a', varValue: '1' }, messages.variable.tooLong],
      [{ varLable: 123, varName: 'a', varValue: '1' }, messages.variable.varLableRequired],
      [{ varId: 'abc', varLable: 'x', varName: 'a', varValue: '1' }, messages.common.badParameter],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await save(body);
      expect(status).toBe(400);
      expect(answer).toMatchObject({ success: false, msg: message, errorInfo: message });
    }
    expect((await list()).body.total).toBe(before);
  });

  it('keeps variable names unique', async () => {
    await save({ varLable: 'a', varName: 'unique.name', varValue: '1' });
    const again = await save({ varLable: 'b', varName: 'unique.name', varValue: '2' });
    expect(again.body).toMatchObject({ success: false, msg: messages.variable.varNameTaken });
  });

  it('refuses to edit or delete what does not exist', async () => {
    expect((await save({ varId: 99999, varLable: 'a', varName: 'ghost', varValue: '1' })).body.msg).toBe(messages.common.notFoundRecord);
    expect((await t.call('DELETE', '/api/Variable/delete?ids=99999', { token })).body.msg).toBe(messages.common.notFoundRecord);
    expect((await t.call('DELETE', '/api/Variable/delete', { token })).body.msg).toBe(messages.common.idsRequired);
  });

  it('pages, sorts and filters, with % and _ taken literally', async () => {
    for (let i = 1; i <= 25; i++) {
      await save({ varLable: `分页测试${String(i).padStart(2, '0')}`, varName: `page_${String(i).padStart(2, '0')}`, varValue: String(i) });
    }
    await save({ varLable: '百分号 100%', varName: 'percent', varValue: 'x' });
    const page1 = await list({ varLable: '分页测试', limit: 10, sortField: 'varName', sortOrder: 'ascend' });
    expect(page1.body.total).toBe(25);
    expect(page1.body.data.map((v: { varName: string }) => v.varName)).toEqual(Array.from({ length: 10 }, (_, i) => `page_${String(i + 1).padStart(2, '0')}`));
    const page3 = await list({ varLable: '分页测试', page: 3, limit: 10, sortField: 'varName', sortOrder: 'descend' });
    expect(page3.body.data.map((v: { varName: string }) => v.varName)).toEqual(['page_05', 'page_04', 'page_03', 'page_02', 'page_01']);
    expect((await list({ varLable: '100%' })).body.total).toBe(1);
    expect((await list({ varName: 'PAGE_1' })).body.total).toBe(10);
    expect((await list({ varName: '_' })).body.total).toBe(26); // only page_NN and the seeded SMS_UNSUBSCRIBE_KEYWORDS hold an underscore
    const unknownSort = await list({ sortField: 'passwordHash; drop table sys_user', sortOrder: 'ascend' });
    expect(unknownSort.body.success).toBe(true);
  });

  it('deletes several ids at once', async () => {
    const ids = [];
    for (const name of ['multi.a', 'multi.b', 'multi.c']) ids.push((await save({ varLable: name, varName: name, varValue: '1' })).body.data.varId);
    expect((await t.call('DELETE', `/api/Variable/delete?ids=${ids.join(',')}`, { token })).body.success).toBe(true);
    expect((await list({ varName: 'multi.' })).body.total).toBe(0);
  });

  it('deletes all or none: one missing id refuses the request and keeps the others', async () => {
    const ids = [];
    for (const name of ['allornone.a', 'allornone.b']) ids.push((await save({ varLable: name, varName: name, varValue: '1' })).body.data.varId);
    const refused = await t.call('DELETE', `/api/Variable/delete?ids=${ids.join(',')},999999`, { token });
    expect([refused.status, refused.body.msg]).toEqual([404, messages.common.notFoundRecord]);
    expect((await list({ varName: 'allornone.' })).body.total).toBe(2);
    // The same id twice is one variable, not a missing one.
    expect((await t.call('DELETE', `/api/Variable/delete?ids=${ids.join(',')},${ids[0]}`, { token })).body.success).toBe(true);
    expect((await list({ varName: 'allornone.' })).body.total).toBe(0);
  });
});
