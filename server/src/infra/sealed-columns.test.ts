import { afterEach, beforeEach, expect, it } from 'vitest';
import { newSecretKeyBase64, SecretBox, secretKeyFromBase64 } from './secret-box.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { resealAll, sealPurpose } from './sealed-columns.ts';

// The reseal walk, on a table that exists today (sys_variable.varValue stands in for a sealed column).
let t: TestApp;
beforeEach(async () => { t = await startTestApp(); });
afterEach(async () => { await t.close(); });

it('re-seals values of an old key under the current one, leaves current ones alone, keeps the clear text', async () => {
  const oldKey = secretKeyFromBase64(newSecretKeyBase64());
  const newKey = secretKeyFromBase64(newSecretKeyBase64());
  const purpose = sealPurpose('sys_variable', 'varValue');
  const before = new SecretBox(oldKey);
  const after = new SecretBox(newKey, [oldKey]);
  // the stand-in table holds only this test's rows (the seeded variables are plain text, not sealed values)
  await t.ctx.db.deleteFrom('sys_variable').execute();
  const now = Date.now();
  const row = (varName: string, varValue: string) => ({ varLable: varName, varName, varValue, addUser: 't', editUser: 't', addTime: now, editTime: now });
  await t.ctx.db.insertInto('sys_variable').values([row('sealed_old', before.seal(purpose, 'old-secret')), row('sealed_new', after.seal(purpose, 'new-secret'))]).execute();
  const tables = [{ table: 'sys_variable' as const, key: 'varId', columns: ['varValue'] }];
  const sealedRows = () => t.ctx.db.selectFrom('sys_variable').select(['varName', 'varValue']).where('varName', 'like', 'sealed_%').orderBy('varName').execute();

  const newBefore = (await sealedRows())[0]!.varValue;
  expect(await resealAll(t.ctx.db, after, tables)).toBe(1);
  const rows = await sealedRows();
  expect(rows.map((r) => after.isCurrent(r.varValue))).toEqual([true, true]);
  expect(rows[0]!.varValue).toBe(newBefore);
  expect(new SecretBox(newKey).open(purpose, rows[1]!.varValue)).toBe('old-secret');
  expect(await resealAll(t.ctx.db, after, tables)).toBe(0);
});
