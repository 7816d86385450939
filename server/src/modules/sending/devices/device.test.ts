import { describe, expect, it } from 'vitest';
import { DEVICE_ONLINE_SECONDS, messages } from '@huiyun/contract';
import { uploadVia } from '../../../test/uploads.ts';
import { downloadUrlOf } from '../../../infra/file-storage.ts';
import { bearer, insertSendingTask, phoneNumbers, pull, report } from '../../../test/devices.ts';
import { adminToken, newDevice, ownerId, ownerToken, t, useDeviceTestApp } from '../../../test/device-fixture.ts';

// The device app: task files, and the console device list with heartbeats.

const m = messages.device;

useDeviceTestApp();

describe('task files', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2dd5e6b0000000049454e44ae426082', 'hex');

  it('serve a task image to the devices assigned to it, and nothing else', async () => {
    const d = await newDevice();
    const stranger = await newDevice();
    const image = (await uploadVia(t, ownerToken, { fileName: 'banner.png', content: PNG }, { kind: 'image' })).body.data[0];
    await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(3, 8000), { showType: 2, imgUrl: downloadUrlOf(image.filePath) });
    const batch = (await pull(t, d.token)).body.data.batch;
    expect(batch.fileUrl).toBe(`/device/v1/file?filePath=${encodeURIComponent(image.filePath)}`);
    const got = await t.call('GET', batch.fileUrl, { headers: bearer(d.token) });
    expect(got.status).toBe(200);
    expect(got.raw.headers['content-type']).toBe('image/png');
    expect(got.raw.rawPayload.equals(PNG)).toBe(true);

    const refused = await t.call('GET', batch.fileUrl, { headers: bearer(stranger.token) });
    expect([refused.status, refused.body.msg]).toEqual([403, m.fileNotAssigned]);
    for (const filePath of ['../huiyun.db', '/etc/passwd', '']) {
      expect((await t.call('GET', `/device/v1/file?filePath=${encodeURIComponent(filePath)}`, { headers: bearer(d.token) })).status).toBe(404);
    }
    expect((await t.call('GET', batch.fileUrl)).status).toBe(401);
  });
});

describe('console device list and heartbeat', () => {
  it('shows status, last seen, sent today and held numbers, to the owner and administrators only', async () => {
    const d = await newDevice();
    await t.call('POST', '/device/v1/heartbeat', { headers: bearer(d.token), body: { battery: 77, signal: 3, appVersion: '1.2.0' } });
    await insertSendingTask(t, ownerId, [d.machineCode], phoneNumbers(5, 7000), { batchSendNum: 3, batchSendMaxNum: 3 });
    const batch = (await pull(t, d.token)).body.data.batch;
    await report(t, d.token, batch.batchId, [{ id: batch.items[0].id, status: 'sent' }]);

    const list = await t.call('POST', '/sync/queryDeviceList', { token: ownerToken, body: { pageNum: 1, pageSize: 200 } });
    const row = list.body.data.find((r: { machineCode: string }) => r.machineCode === d.machineCode);
    expect(row).toMatchObject({ online: true, battery: 77, signal: 3, appVersion: '1.2.0', sentToday: 1, leased: 2, userName: 'dev_owner' });
    const otherToken = await t.login('dev_other', 'User@12345');
    const others = await t.call('POST', '/sync/queryDeviceList', { token: otherToken, body: {} });
    expect(others.body.data.some((r: { machineCode: string }) => r.machineCode === d.machineCode)).toBe(false);
    const admin = await t.call('POST', '/sync/queryDeviceList', { token: adminToken, body: { pageSize: 200 } });
    expect(admin.body.data.some((r: { machineCode: string }) => r.machineCode === d.machineCode)).toBe(true);

    // Online means seen within DEVICE_ONLINE_SECONDS (60): a phone gone quiet shows 离线 within a minute.
    t.clock.advance((DEVICE_ONLINE_SECONDS + 1) * 1000);
    try {
      const later = await t.call('POST', '/sync/queryDeviceList', { token: ownerToken, body: { pageSize: 200, machineName: `设备${d.machineCode.slice(4)}` } });
      expect(later.body.data[0]).toMatchObject({ machineCode: d.machineCode, online: false });
    } finally {
      t.clock.advance(-(DEVICE_ONLINE_SECONDS + 1) * 1000);
    }
  });
});
