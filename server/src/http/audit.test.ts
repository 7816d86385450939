import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages } from '@huiyun/contract';
import { startAdminApp, type TestApp } from '../test/harness.ts';

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await startAdminApp()));
afterAll(async () => t?.close());

it('writes who, what, target, address and result of every change, and no body', async () => {
  await t.call('POST', '/api/Variable/save', { token, body: { varLable: '审计', varName: 'audit.me', varValue: 'secret-value' } });
  await t.call('POST', '/api/Variable/save', { token, body: { varLable: '', varName: 'audit.bad', varValue: '1' } });
  await t.call('POST', '/api/Variable/list', { token, body: {} });
  const rows = await t.ctx.db.selectFrom('sys_oper_log').selectAll().orderBy('operId').execute();
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatchObject({ userName: 'admin', module: messages.variable.title, action: '保存', target: 'audit.me', success: 1, message: messages.variable.saved, method: 'POST', url: '/api/Variable/save' });
  expect(rows[1]).toMatchObject({ success: 0, message: messages.variable.varLableRequired });
  expect(JSON.stringify(rows)).not.toContain('secret-value');
});

it('keeps a login log of successes and failures, without passwords', async () => {
  await t.call('POST', '/sync/login', { body: { userName: 'admin', passwd: 'wrong-password-x' }, headers: { 'user-agent': 'UA-test' } });
  const rows = await t.ctx.db.selectFrom('sys_login_log').selectAll().orderBy('infoId').execute();
  expect(rows[0]).toMatchObject({ userName: 'admin', userId: 1, success: 1, message: messages.login.success });
  expect(rows.at(-1)).toMatchObject({ userName: 'admin', success: 0, message: messages.login.badCredentials, userAgent: 'UA-test' });
  expect(JSON.stringify(rows)).not.toMatch(/wrong-password-x|Admin@12345/);
});

it('exports the filtered list as an .xlsx', async () => {
  for (const n of ['exp.a', 'exp.b', 'other.c']) {
    await t.call('POST', '/api/Variable/save', { token, body: { varLable: `导出${n}`, varName: n, varValue: 'v' } });
  }
  const { raw } = await t.call('POST', '/api/Variable/export', { token, body: { varName: 'exp.' } });
  expect(raw.statusCode).toBe(200);
  expect(raw.headers['content-type']).toContain('spreadsheetml');
  expect(raw.headers['content-disposition']).toContain(encodeURIComponent('系统环境变量.xlsx'));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(raw.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  expect(sheet.getRow(1).values).toContain('变量名');
  expect(sheet.rowCount).toBe(3);
  const names = [sheet.getRow(2).getCell(2).value, sheet.getRow(3).getCell(2).value].sort();
  expect(names).toEqual(['exp.a', 'exp.b']);
});

it('lists live sessions for 在线用户', async () => {
  const live = await t.ctx.sessions.listActive(t.ctx.now());
  expect(live.some((s) => s.userId === 1)).toBe(true);
});
