import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, RoleId, ShowType } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';
import { downloadUrlOf } from '../infra/file-storage.ts';
import { uploadVia } from '../test/uploads.ts';
import { activate, bearer, insertAuthCode, insertSendingTask, phoneNumbers, pull } from '../test/devices.ts';

// Authorization suite: the cross-company file probe. A stored file is the business of its
// uploader and its company's administrators; a task may show only a file its owner may see, and the link
// written in a task is never what grants access — neither to the console's callers nor to devices.

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2dd5e6b0000000049454e44ae426082', 'hex');
const m = messages.task;

let t: TestApp;
let dataDir: string;
let companyB: number;
let userBId: number;
let superAdmin: string;
let adminA: string;
let adminB: string;
let userB: string;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-file-access-'));
  t = await startTestApp({ DATA_DIR: dataDir });
  companyB = await t.createCompany('乙公司', 'D3_B');
  await t.createUser({ userName: 'd3_adminA', roleId: RoleId.companyAdmin, deptId: 1 });
  await t.createUser({ userName: 'd3_adminB', roleId: RoleId.companyAdmin, deptId: companyB });
  userBId = await t.createUser({ userName: 'd3_userB', deptId: companyB });
  superAdmin = await t.login('admin', ADMIN_PASSWORD);
  adminA = await t.login('d3_adminA', 'User@12345');
  adminB = await t.login('d3_adminB', 'User@12345');
  userB = await t.login('d3_userB', 'User@12345');
  keyA = (await uploadVia(t, adminA, { fileName: 'a.png', content: PNG }, { kind: 'image' })).body.data[0].filePath;
  keyB = (await uploadVia(t, adminB, { fileName: 'b.png', content: PNG }, { kind: 'image' })).body.data[0].filePath;
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const download = (token: string, filePath: string) => t.call('GET', `/download/file?filePath=${encodeURIComponent(filePath)}`, { token });
const save = (token: string, body: Record<string, unknown>) => t.call('POST', '/sync/saveTaskInfo', { token, body });
const tasksNamed = async (taskName: string) => (await t.ctx.db.selectFrom('sync_task').select('taskId').where('taskName', '=', taskName).execute()).length;

describe('a task pointing at another company\'s file', () => {
  it('cannot be saved, by link or by fileNo, and writes nothing', async () => {
    expect((await download(adminB, keyA)).status).toBe(403);
    const fileNoA = (await t.ctx.db.selectFrom('sys_upload').select('fileNo').where('filePath', '=', keyA).executeTakeFirstOrThrow()).fileNo;
    for (const [showType, media] of [
      [ShowType.file, { imgUrl: downloadUrlOf(keyA) }],
      [ShowType.image, { imgUrl: `/download/file?filePath=${keyA}&x=1` }],
      [ShowType.file, { fileNo: fileNoA }],
    ] as const) {
      const answer = await save(adminB, { taskName: 'd3_steal', showType, ...media });
      expect([answer.status, answer.body.success, answer.body.msg]).toEqual([400, false, m.fileUnknown]);
    }
    expect(await tasksNamed('d3_steal')).toBe(0);
    expect((await download(adminB, keyA)).status).toBe(403);
  });

  it('cannot be given one by an administrator who sees both companies', async () => {
    const own = await save(adminB, { taskName: 'd3_b_task', showType: ShowType.file, imgUrl: downloadUrlOf(keyB) });
    expect(own.body).toMatchObject({ success: true });
    const taskId = own.body.data.taskId as number;
    const edited = await save(superAdmin, { taskId, taskName: 'd3_b_task', showType: ShowType.file, imgUrl: downloadUrlOf(keyA) });
    expect([edited.status, edited.body.msg]).toEqual([400, m.fileNotOwners]);
    const row = await t.ctx.db.selectFrom('sync_task').select('imgUrl').where('taskId', '=', taskId).executeTakeFirstOrThrow();
    expect(row.imgUrl).toBe(downloadUrlOf(keyB));
    // its own company's file stays usable, and an unchanged task saves again
    const again = await save(adminB, { taskId, taskName: 'd3_b_task', showType: ShowType.file, imgUrl: downloadUrlOf(keyB) });
    expect(again.body).toMatchObject({ success: true });
  });

  it('written before this check, opens the file to nobody of the other company: console or device', async () => {
    const code = await insertAuthCode(t, userBId, { deptId: companyB });
    const deviceToken = await activate(t, code, 'D3-DEVICE-B');
    await insertSendingTask(t, userBId, ['D3-DEVICE-B'], phoneNumbers(2), { deptId: companyB, showType: ShowType.image, imgUrl: downloadUrlOf(keyA) });
    await insertSendingTask(t, userBId, ['D3-DEVICE-B'], phoneNumbers(2, 100), { deptId: companyB, showType: ShowType.image, imgUrl: downloadUrlOf(keyB) });
    for (const token of [adminB, userB]) expect((await download(token, keyA)).status).toBe(403);
    expect((await download(userB, keyB)).status).toBe(200); // the task's own company file, through the task
    const deviceGet = (key: string) => t.call('GET', `/device/v1/file?filePath=${encodeURIComponent(key)}`, { headers: bearer(deviceToken) });
    const refused = await deviceGet(keyA);
    expect([refused.status, refused.body.msg]).toEqual([403, messages.device.fileNotAssigned]);
    expect((await deviceGet(keyB)).status).toBe(200);
    expect((await pull(t, deviceToken)).body.success).toBe(true);
    // company A still sees its own file
    expect((await download(adminA, keyA)).status).toBe(200);
  });
});
