import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { RoleId } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, USER_PASSWORD, type TestApp } from './harness.ts';
import { insertCompany } from './rows.ts';

// Who the sending area's file tests (uploads, number files, exports) act as, on an app with a data folder
// of its own: the super administrator, two ordinary users, the administrators of the demo company and of
// a second company (B), and a 演示 account. Live bindings, set before the file's tests.

export let t: TestApp;
export let dataDir: string;
export let companyB: number;
export let user1Id: number;
export let user2Id: number;
/** Tokens. */
export let admin: string;
export let user1: string;
export let user2: string;
export let adminA: string;
export let adminB: string;
export let demo: string;

/** The cast for the calling test file, its accounts named `<prefix>_user1` …; the folder is removed after. */
export function useSendingCast(prefix: string): void {
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `huiyun-${prefix}-`));
    t = await startTestApp({ DATA_DIR: dataDir });
    companyB = await insertCompany(t, `${prefix.toUpperCase()}_B`);
    user1Id = await t.createUser({ userName: `${prefix}_user1` });
    user2Id = await t.createUser({ userName: `${prefix}_user2` });
    await t.createUser({ userName: `${prefix}_adminA`, roleId: RoleId.companyAdmin, deptId: 1 });
    await t.createUser({ userName: `${prefix}_adminB`, roleId: RoleId.companyAdmin, deptId: companyB });
    await t.createUser({ userName: `${prefix}_demo`, roleId: RoleId.demo });
    admin = await t.login('admin', ADMIN_PASSWORD);
    user1 = await t.login(`${prefix}_user1`, USER_PASSWORD);
    user2 = await t.login(`${prefix}_user2`, USER_PASSWORD);
    adminA = await t.login(`${prefix}_adminA`, USER_PASSWORD);
    adminB = await t.login(`${prefix}_adminB`, USER_PASSWORD);
    demo = await t.login(`${prefix}_demo`, USER_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
}
