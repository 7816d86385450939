import { describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES, messages } from '@huiyun/contract';
import { activate, bearer, insertAuthCode, insertSendingTask, phoneNumbers, pull, report } from '../../../test/devices.ts';
import { adminToken, newDevice, ownerId, ownerToken, t, useDeviceTestApp } from '../../../test/device-fixture.ts';

// The device app: activation, its throttle, the device token.

const m = messages.device;

useDeviceTestApp();

describe('activation', () => {
  it('binds the code to the device and refuses it to any other', async () => {
    const code = await insertAuthCode(t, ownerId);
    const first = await t.call('POST', '/device/v1/activate', { body: { authCode: code.toLowerCase(), machineCode: 'act-1', machineName: '一号机' } });
    expect(first.body.success).toBe(true);
    expect(first.body.data).toMatchObject({ machineCode: 'act-1', machineName: '一号机', userName: 'dev_owner' });
    const row = await t.ctx.db.selectFrom('sync_auth_code').selectAll().where('authCode', '=', code).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ useStatus: 1, machineCode: 'act-1', machineName: '一号机' });
    expect(row.tokenHash).not.toContain(first.body.data.deviceToken);

    const other = await t.call('POST', '/device/v1/activate', { body: { authCode: code, machineCode: 'act-2', machineName: '二号机' } });
    expect([other.status, other.body.msg]).toEqual([400, m.authCodeInvalid]); // the same answer as an unknown code

    // The owner now sees the device in its device choice.
    const devices = await t.call('POST', '/sync/queryUserCodeList', { token: ownerToken, body: {} });
    expect(devices.body.data).toContainEqual({ machineCode: 'act-1', machineName: '一号机', capabilities: ALL_CAPABILITIES });
  });

  it('is idempotent for the same device: a new token, the old one stops working', async () => {
    const code = await insertAuthCode(t, ownerId);
    const oldToken = await activate(t, code, 'act-again');
    expect((await pull(t, oldToken)).status).toBe(200); // remembered by this instance from here on
    const newToken = await activate(t, code, 'act-again');
    expect(newToken).not.toBe(oldToken);
    expect((await pull(t, oldToken)).status).toBe(401);
    expect((await pull(t, newToken)).status).toBe(200);
  });

  it('moves a device to a new code; the old code stays used without a device', async () => {
    const oldCode = await insertAuthCode(t, ownerId);
    const newCode = await insertAuthCode(t, ownerId);
    const oldToken = await activate(t, oldCode, 'act-move');
    await activate(t, newCode, 'act-move');
    const rows = await t.ctx.db.selectFrom('sync_auth_code').select(['authCode', 'useStatus', 'machineCode']).where('authCode', 'in', [oldCode, newCode]).execute();
    expect(rows.find((r) => r.authCode === oldCode)).toMatchObject({ useStatus: 1, machineCode: null });
    expect(rows.find((r) => r.authCode === newCode)).toMatchObject({ useStatus: 1, machineCode: 'act-move' });
    expect((await pull(t, oldToken)).status).toBe(401);
    const reuse = await t.call('POST', '/device/v1/activate', { body: { authCode: oldCode, machineCode: 'act-other', machineName: 'x' } });
    expect(reuse.body.success).toBe(true); // the old code lost its device; it may bind a device again
  });

  it('refuses unknown and expired codes and bad fields with clear messages', async () => {
    const expired = await insertAuthCode(t, ownerId, { days: 0 });
    const cases: [unknown, string][] = [
      [{ authCode: 'NOPE00000000', machineCode: 'x', machineName: 'x' }, m.authCodeInvalid],
      [{ authCode: 'NOPE\u00000000', machineCode: 'x', machineName: 'x' }, m.authCodeInvalid],
      [{ authCode: 'A'.repeat(33), machineCode: 'x', machineName: 'x' }, m.authCodeInvalid],
      [{ authCode: expired, machineCode: 'x', machineName: 'x' }, m.authCodeExpired],
      [{ machineCode: 'x', machineName: 'x' }, m.authCodeRequired],
      [{ authCode: 'A', machineCode: 'bad code/../', machineName: 'x' }, m.machineCodeFormat],
      [{ authCode: 'A', machineCode: 'ok', machineName: '' }, m.machineNameRequired],
    ];
    for (const [body, message] of cases) {
      const answer = await t.call('POST', '/device/v1/activate', { body });
      expect([answer.status, answer.body.msg]).toEqual([400, message]);
    }
  });
});

// Activation took ~600 guesses per second from one address and told which codes exist.
describe('activation throttle', () => {
  const activateFrom = async (ip: string, body: Record<string, string>) => {
    const raw = await t.app.inject({ method: 'POST', url: '/device/v1/activate', remoteAddress: ip, payload: body });
    return { status: raw.statusCode, msg: raw.json().msg as string };
  };
  const throttled = '激活失败次数过多，请15分钟后再试';
  const guess = (i: number) => `GUESS${String(i).padStart(7, '0')}`;

  // Refused unchecked: 429 once the failures reach the limit, 503 (busy: a device retries it) while the
  // places are held by attempts still in flight.
  const refusedUnchecked = (a: { status: number; msg: string }) => (a.status === 429 && a.msg === throttled) || (a.status === 503 && a.msg === m.activateBusy);

  it('checks no more than 20 guesses from an address, even a burst sent at once, and never counts its successes', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => activateFrom('10.8.0.1', { authCode: guess(i), machineCode: `g-${i}`, machineName: 'g' })));
    expect(answers.filter((a) => a.status === 400 && a.msg === m.authCodeInvalid)).toHaveLength(20);
    expect(answers.filter(refusedUnchecked)).toHaveLength(10);
    const good = await insertAuthCode(t, ownerId);
    expect(await activateFrom('10.8.0.1', { authCode: good, machineCode: 'g-good', machineName: 'g' })).toEqual({ status: 429, msg: throttled });
    expect((await activateFrom('10.8.0.2', { authCode: good, machineCode: 'g-good', machineName: 'g' })).status).toBe(200);

    // a fleet behind one address activating 30 devices at once: busy at worst, then all through, and
    // its successes count nothing
    const fleet = await Promise.all(Array.from({ length: 30 }, () => insertAuthCode(t, ownerId)));
    const seat = (i: number) => ({ authCode: fleet[i], machineCode: `fleet-${i}`, machineName: 'f' });
    const first = await Promise.all(fleet.map((_, i) => activateFrom('10.8.0.3', seat(i))));
    expect(first.filter((a) => a.status !== 200 && !(a.status === 503 && a.msg === m.activateBusy))).toEqual([]);
    for (const [i, answer] of first.entries()) if (answer.status === 503) expect((await activateFrom('10.8.0.3', seat(i))).status).toBe(200);
    expect((await activateFrom('10.8.0.3', { authCode: guess(99), machineCode: 'fleet-x', machineName: 'f' })).msg).toBe(m.authCodeInvalid);
  });

  it('checks no more than 10 tries at one code, and still activates the device it is bound to', async () => {
    const code = await insertAuthCode(t, ownerId);
    expect((await activateFrom('10.8.1.1', { authCode: code, machineCode: 'owned-1', machineName: 'o' })).status).toBe(200);
    const grabs = await Promise.all(Array.from({ length: 12 }, (_, i) => activateFrom(`10.8.2.${i + 1}`, { authCode: code.toLowerCase(), machineCode: `grab-${i}`, machineName: 'x' })));
    expect(grabs.filter((a) => a.status === 400 && a.msg === m.authCodeInvalid)).toHaveLength(10);
    expect(grabs.filter(refusedUnchecked)).toHaveLength(2);
    expect(await activateFrom('10.8.2.100', { authCode: code, machineCode: 'grab-x', machineName: 'x' })).toEqual({ status: 429, msg: throttled });
    // the device the code is bound to activates again (a reinstalled app)
    expect((await activateFrom('10.8.1.1', { authCode: code, machineCode: 'owned-1', machineName: 'o' })).status).toBe(200);
    t.clock.advance(15 * 60_000 + 1);
    expect((await activateFrom('10.8.2.100', { authCode: code, machineCode: 'grab-x', machineName: 'x' })).msg).toBe(m.authCodeInvalid);
  });
});

describe('device token', () => {
  it('is required on device calls, and console and device tokens do not cross', async () => {
    const { token } = await newDevice();
    for (const url of ['/device/v1/pull', '/device/v1/report', '/device/v1/heartbeat']) {
      const none = await t.call('POST', url, { body: {} });
      expect([none.status, none.body.msg]).toEqual([401, m.tokenInvalid]);
      const console = await t.call('POST', url, { token: ownerToken, body: {} });
      expect(console.status).toBe(401);
    }
    const asConsole = await t.call('POST', '/sync/queryTaskInfoList', { token, body: {} });
    expect(asConsole.status).toBe(401);
    const consoleAsBearer = await t.call('POST', '/device/v1/pull', { headers: bearer(ownerToken), body: {} });
    expect(consoleAsBearer.status).toBe(401);
  });

  it('is read from the Authorization header only, never the query, the body or the token header', async () => {
    const { token } = await newDevice();
    expect((await t.call('POST', '/device/v1/heartbeat', { headers: bearer(token), body: {} })).status).toBe(200);
    const elsewhere = [
      await t.call('POST', `/device/v1/heartbeat?token=${token}`, { body: {} }),
      await t.call('POST', '/device/v1/heartbeat', { body: { token } }),
      await t.call('POST', '/device/v1/heartbeat', { headers: { token }, body: {} }),
      await t.call('GET', `/device/v1/file?filePath=x&token=${token}`),
    ];
    for (const answer of elsewhere) expect([answer.status, answer.body.msg]).toEqual([401, m.tokenInvalid]);
  });

  it('stops working when the owner is locked or the code deleted', async () => {
    const lockedId = await t.createUser({ userName: 'dev_locked' });
    const { token } = await newDevice({ owner: lockedId });
    await t.ctx.db.updateTable('sys_user').set({ isLock: 'Y' }).where('userId', '=', lockedId).execute();
    expect((await pull(t, token)).body.msg).toBe(messages.login.locked);

    // pull and report check again in their own statement what this instance remembers of a token
    const busyOwner = await t.createUser({ userName: 'dev_locked_later' });
    const busy = await newDevice({ owner: busyOwner });
    await insertSendingTask(t, busyOwner, [busy.machineCode], phoneNumbers(4, 8800), { batchSendNum: 2, batchSendMaxNum: 2 });
    const held = (await pull(t, busy.token)).body.data.batch;
    await t.ctx.db.updateTable('sys_user').set({ isLock: 'Y' }).where('userId', '=', busyOwner).execute();
    const refused = await report(t, busy.token, held.batchId, held.items.map((i: { id: number }) => ({ id: i.id, status: 'sent' })));
    expect([refused.status, refused.body.msg]).toEqual([401, messages.login.locked]);
    expect((await pull(t, busy.token)).body.msg).toBe(messages.login.locked);

    const d = await newDevice();
    const codeId = (await t.ctx.db.selectFrom('sync_auth_code').select('id').where('authCode', '=', d.code).executeTakeFirstOrThrow()).id;
    expect((await t.call('POST', '/sync/deleteAuthCode', { token: adminToken, body: { id: codeId } })).body.success).toBe(true);
    expect((await pull(t, d.token)).status).toBe(401);
  });
});
