import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, RoleId, UploadKind } from '@huiyun/contract';
import { generateNumberFileWithCounts } from '../../../../../bench/lib/number-file-fixture.ts';
import { buildApp, type App } from '../../../app.ts';
import { loadConfig } from '../../../config.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { fakeS3Env, startFakeS3, type FakeS3 } from '../../../test/fake-s3.ts';
import { multipart } from '../../../test/uploads.ts';
import { insertTask } from '../../../test/rows.ts';

// Two hosts behind a load balancer: the same database, each its own DATA_DIR, the files in one
// S3-compatible bucket (a local fake speaking S3's wire format). What host A stored, host B imports and
// serves; with the bucket away, an upload or an import answers 503 and leaves nothing behind.

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2dd5e6b0000000049454e44ae426082', 'hex');

let s3: FakeS3;
let hostA: TestApp;
let hostB: App;
let token: string;
let userId: number;
const dirs: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-host-'));
  dirs.push(dir);
  return dir;
};

/** Host B: a second server on host A's database, with a DATA_DIR of its own. */
async function secondHost(env: Record<string, string>): Promise<App> {
  const shared = hostA.ctx.db;
  // host A closes the database; B's close must not
  const db = new Proxy(shared, { get: (target, key) => (key === 'destroy' ? async () => {} : typeof Reflect.get(target, key) === 'function' ? Reflect.get(target, key).bind(target) : Reflect.get(target, key)) });
  const redis = hostA.ctx.config.redisUrl ? { REDIS_URL: hostA.ctx.config.redisUrl } : {};
  const config = loadConfig({ ADMIN_PASSWORD, LOGIN_SLOWDOWN_MS: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir(), ...redis, ...env });
  return buildApp(config, { db, now: Date.now, logger: false, redisPrefix: hostA.redisPrefix });
}

async function upload(app: App | TestApp, file: { fileName: string; content: Buffer }, kind?: string) {
  const { payload, contentType } = multipart([...(kind ? [{ name: 'kind', value: kind }] : []), { name: 'file', fileName: file.fileName, content: file.content }]);
  const raw = await app.app.inject({ method: 'POST', url: '/upload/files', headers: { 'content-type': contentType, token }, payload });
  return { status: raw.statusCode, body: raw.json() };
}

async function importOn(app: App, taskId: number, fileNo: string) {
  const raw = await app.app.inject({ method: 'POST', url: '/sync/uploadTaskData', headers: { token }, payload: { taskId, fileNo, fileName: 'numbers.txt', fileUrl: '' } });
  return { status: raw.statusCode, body: raw.json() };
}

const numbersOf = async (taskId: number) =>
  Number((await hostA.ctx.db.selectFrom('sync_task_number').select((eb) => eb.fn.countAll().as('n')).where('taskId', '=', taskId).executeTakeFirstOrThrow()).n);
const uploadRows = async () => Number((await hostA.ctx.db.selectFrom('sys_upload').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  s3 = await startFakeS3();
  hostA = await startTestApp({ DATA_DIR: dataDir(), ...fakeS3Env(s3, 'deploy-1/') });
  hostB = await secondHost(fakeS3Env(s3, 'deploy-1/'));
  userId = await hostA.createUser({ userName: 'shared_store_user', roleId: RoleId.ordinaryUser });
  token = await hostA.login('shared_store_user', 'User@12345');
});

afterAll(async () => {
  await hostB?.app.close();
  await hostA?.close();
  await s3?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('files in an S3-compatible bucket, shared by two hosts', () => {
  it('a number file uploaded through host A is imported through host B', async () => {
    const uploaded = await upload(hostA, { fileName: 'numbers.txt', content: Buffer.from('13800138000\n13900139000\n15000150000\n') });
    expect(uploaded.body.success, uploaded.body.msg).toBe(true);
    expect(s3.objects.has(`deploy-1/${uploaded.body.data[0].filePath}`)).toBe(true);
    const taskId = await insertTask(hostA, { taskName: 'shared store', userId, deptId: 1 });
    const imported = await importOn(hostB, taskId, uploaded.body.data[0].fileNo);
    expect(imported.body).toMatchObject({ success: true, data: { valid: 3, invalid: 0 } });
    expect(await numbersOf(taskId)).toBe(3);
  });

  it('an image uploaded through host A is downloaded through host B, byte for byte', async () => {
    const uploaded = await upload(hostA, { fileName: 'logo.png', content: PNG }, UploadKind.image);
    expect(uploaded.body.success, uploaded.body.msg).toBe(true);
    const raw = await hostB.app.inject({ method: 'GET', url: `/download/file?filePath=${encodeURIComponent(uploaded.body.data[0].filePath)}`, headers: { token } });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(raw.rawPayload, PNG)).toBe(0);
  });

  it('without the bucket, host B does not find what host A kept on its own disk', async () => {
    const localA = await secondHost({});
    const localB = await secondHost({});
    try {
      const uploaded = await upload(localA, { fileName: 'numbers.txt', content: Buffer.from('13800138000\n') });
      expect(uploaded.body.success, uploaded.body.msg).toBe(true);
      const taskId = await insertTask(hostA, { taskName: 'local disks', userId, deptId: 1 });
      const imported = await importOn(localB, taskId, uploaded.body.data[0].fileNo);
      expect(imported).toMatchObject({ status: 404, body: { success: false, msg: messages.upload.fileNotFound } });
    } finally {
      await localA.app.close();
      await localB.app.close();
    }
  });

  it('a 1,000,000-number file goes up in parts through host A and is imported through host B', { timeout: 180_000 }, async () => {
    const { file, counts } = generateNumberFileWithCounts(1_000_000, { junkRate: 0.02, duplicateRate: 0.03, seed: 3 });
    const partsBefore = s3.calls.get('UploadPart') ?? 0;
    const uploaded = await upload(hostA, { fileName: 'million.txt', content: file });
    expect(uploaded.body.success, uploaded.body.msg).toBe(true);
    // streamed as a multipart upload (8 MB parts), not one body held whole
    expect((s3.calls.get('UploadPart') ?? 0) - partsBefore).toBe(Math.ceil(file.length / (8 * 1024 * 1024)));
    expect(s3.openUploads()).toBe(0);
    const taskId = await insertTask(hostA, { taskName: 'a million', userId, deptId: 1 });
    const imported = await importOn(hostB, taskId, uploaded.body.data[0].fileNo);
    expect(imported.body).toMatchObject({ success: true, data: { valid: counts.valid, duplicates: counts.duplicates, invalid: counts.invalid } });
    expect(await numbersOf(taskId)).toBe(counts.valid);
  });

  it('a refused upload leaves nothing in the bucket', async () => {
    const objects = s3.objects.size;
    const rows = await uploadRows();
    const refused = await upload(hostA, { fileName: 'numbers.txt', content: PNG });
    expect(refused.body).toMatchObject({ success: false, msg: messages.upload.notText });
    expect(s3.objects.size).toBe(objects);
    expect(s3.openUploads()).toBe(0);
    expect(await uploadRows()).toBe(rows);
  });

  it('with the bucket unreachable: 503 with a clear message, no file row, no half-imported task; then it serves again', async () => {
    const stored = await upload(hostA, { fileName: 'numbers.txt', content: Buffer.from('13800138000\n13900139000\n') });
    expect(stored.body.success, stored.body.msg).toBe(true);
    const taskId = await insertTask(hostA, { taskName: 'bucket away', userId, deptId: 1 });
    const rows = await uploadRows();
    await s3.down();
    try {
      const refused = await upload(hostA, { fileName: 'numbers.txt', content: Buffer.from('13800138000\n') });
      expect(refused).toMatchObject({ status: 503, body: { success: false, msg: messages.common.fileStoreUnavailable } });
      expect(await uploadRows()).toBe(rows);
      const notImported = await importOn(hostB, taskId, stored.body.data[0].fileNo);
      expect(notImported).toMatchObject({ status: 503, body: { success: false, msg: messages.common.fileStoreUnavailable } });
      expect(await numbersOf(taskId)).toBe(0);
      const task = await hostA.ctx.db.selectFrom('sync_task').select(['totalSendNum']).where('taskId', '=', taskId).executeTakeFirstOrThrow();
      expect(Number(task.totalSendNum)).toBe(0);
    } finally {
      await s3.up();
    }
    const imported = await importOn(hostB, taskId, stored.body.data[0].fileNo);
    expect(imported.body).toMatchObject({ success: true, data: { valid: 2 } });
  });
});
