import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadKind } from '@huiyun/contract';
import { DeviceClient } from '../../../../../tools/device-simulator/device-client.ts';
import { fakeS3Env, startFakeS3, type FakeS3 } from '../../../test/fake-s3.ts';
import { serverProcess, type ServerProcess } from '../../../test/server-process.ts';
import { loginOverHttp, postOverHttp, uploadOverHttp } from '../../../test/sending-over-http.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../../../test/test-database.ts';

// Two server processes as two hosts behind a balancer: one PostgreSQL database, one payment key, each its own
// DATA_DIR, the files in one S3-compatible bucket (a local fake speaking S3's wire format). An operator's
// uploads land on host A; host B imports the number file and hands a device of its own the task's image.
// (shared-store.test.ts covers the rest — the million-number file, the bucket away — with two app instances.)

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2dd5e6b0000000049454e44ae426082', 'hex');

describe.runIf(testDbKind() === 'postgres')('two server processes sharing one bucket (needs TEST_DATABASE_URL)', () => {
  let s3: FakeS3;
  let database: TestDatabase;
  const hosts: ServerProcess[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    s3 = await startFakeS3();
    database = await createTestDatabase({ migrated: true });
    const env = { ...fakeS3Env(s3, 'two-hosts/'), PAY_SECRET_KEY: randomBytes(32).toString('base64') };
    for (let i = 0; i < 2; i++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-host-'));
      dirs.push(dataDir);
      hosts.push(await serverProcess({ dataDir, databaseUrl: database.url, env }));
    }
    for (const host of hosts) await host.start(); // one after the other: the first seeds
  }, 60_000);

  afterAll(async () => {
    for (const host of hosts) await host.kill();
    await database?.drop();
    await s3?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a task made through host A: host B imports its numbers and gives its image to a device, byte for byte', async () => {
    const [a, b] = hosts as [ServerProcess, ServerProcess];
    const token = await loginOverHttp(a.url);
    const now = Date.now();
    const authCode = `TWOHOSTS${now.toString(36).toUpperCase()}`;
    await database.db.insertInto('sync_auth_code').values({ authCode, authUserId: 1, dueNum: 1_000, dueDateNum: 30, dueDate: now + 30 * 86_400_000, addUserId: 1, deptId: 1, addTime: now, editTime: now }).execute();
    const device = new DeviceClient(b.url);
    await device.activate({ authCode, machineCode: 'two-hosts-1', machineName: 'two-hosts-1' });

    const image = await uploadOverHttp(a.url, token, UploadKind.image, 'poster.png', PNG);
    const saved = await postOverHttp(a.url, token, '/sync/saveTaskInfo', {
      taskName: '两台主机', showType: 3, content: '两台主机', imgUrl: `/download/file?filePath=${encodeURIComponent(image.filePath)}`,
      singleSendNumDay: 1_000, batchSendNum: 10, batchSendMaxNum: 20, intervalSeconds: 0, machineCodeList: 'two-hosts-1',
    });
    expect(saved.success, saved.msg).toBe(true);
    const numbers = await uploadOverHttp(a.url, token, UploadKind.numbers, 'numbers.txt', Buffer.from('13800138000\n13900139000\n15000150000\n'));
    expect(fs.readdirSync(dirs[0]!).includes('uploads') && fs.readdirSync(path.join(dirs[0]!, 'uploads')).length, 'nothing kept on host A\'s disk').toBeFalsy();

    const imported = await postOverHttp(b.url, token, '/sync/uploadTaskData', { taskId: saved.data!.taskId, fileNo: numbers.fileNo, fileName: 'numbers.txt', fileUrl: '' });
    expect(imported, imported.msg).toMatchObject({ success: true, data: { valid: 3, invalid: 0 } });
    const rows = await database.db.selectFrom('sync_task_number').select('phone').where('taskId', '=', saved.data!.taskId!).orderBy('phone').execute();
    expect(rows.map((r) => String(r.phone))).toEqual(['13800138000', '13900139000', '15000150000']);

    const { batch, wait } = await device.pull();
    expect(wait).toBeNull();
    expect(batch!.items.map((item) => item.phone).sort()).toEqual(['13800138000', '13900139000', '15000150000']);
    const file = await fetch(`${b.url}${batch!.fileUrl}`, { headers: { authorization: `Bearer ${device.token}` } });
    expect(file.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await file.arrayBuffer()), PNG)).toBe(0);
  }, 60_000);
});
