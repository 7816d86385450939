import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MachineStatus, messages, PayType } from '@huiyun/contract';
import { ADMIN_PASSWORD } from '../../../test/harness.ts';
import { NonceStore, signTerminal } from './auth.ts';
import { call, type Machine, makeMachine, orderCount, signedHeaders, t, useTerminalApp } from '../../../test/terminal-fixture.ts';

// The terminal protocol's signature (docs/terminal-protocol.md §2): who may call, and what a signed call covers.

const tm = messages.terminal;
useTerminalApp();

describe('the terminal protocol', () => {
  it('signs as the worked example of docs/terminal-protocol.md says', () => {
    expect(signTerminal('bXlfdGVybWluYWxfa2V5X2Zvcl90aGVfZG9jcw', 'POST', '/terminal/v1/order/create', '1764000000', '9f8e7d6c5b4a3210', '{"aisleNo":"A1","payType":3}'))
      .toBe('6879bbaee501bded783f58154f44fe2ac9c009fbb109264b655f511a253d0801');
  });

  it('refuses unsigned, stale, replayed, wrong-key, unknown and disabled callers, changing nothing', async () => {
    const m = await makeMachine();
    const other = await makeMachine();
    const disabled = await makeMachine(5, { status: MachineStatus.disabled });
    const before = await orderCount();
    const body = { aisleNo: 'A1', payType: PayType.wechat };
    expect(await call(m, '/order/create', body, { omit: true })).toMatchObject({ status: 401, body: { success: false, msg: tm.unsigned } });
    expect(await call(m, '/order/create', body, { timestamp: Math.floor(Date.now() / 1000) - 301 })).toMatchObject({ status: 401, body: { msg: tm.badTimestamp } });
    expect(await call(m, '/order/create', body, { timestamp: Math.floor(Date.now() / 1000) + 400 })).toMatchObject({ status: 401, body: { msg: tm.badTimestamp } });
    expect(await call(m, '/order/create', body, { key: other.key })).toMatchObject({ status: 401, body: { msg: tm.badSignature } });
    expect(await call(m, '/order/create', body, { machineNo: 'NO-SUCH' })).toMatchObject({ status: 401, body: { msg: tm.badSignature } });
    expect(await call(disabled, '/order/create', body)).toMatchObject({ status: 401, body: { msg: tm.machineDisabled } });
    expect(await orderCount()).toBe(before);
    // a replayed nonce: the first call passes, the same nonce again is refused
    const nonce = randomBytes(12).toString('hex');
    expect((await call(m, '/heartbeat', { aisles: [] }, { nonce })).body.success).toBe(true);
    expect(await call(m, '/heartbeat', { aisles: [] }, { nonce })).toMatchObject({ status: 401, body: { msg: tm.replayed } });
    expect(await call(m, '/order/create', body, { nonce })).toMatchObject({ status: 401, body: { msg: tm.replayed } });
    // the same nonce sent five times at once (one group write): exactly one passes
    const twin = randomBytes(12).toString('hex');
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(m, '/heartbeat', { aisles: [] }, { nonce: twin })));
    expect(answers.filter((a) => a.body.success)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401 && a.body.msg === tm.replayed)).toHaveLength(4);
    // stored before the call went on: another instance, or this one after a restart, refuses it too
    expect(await new NonceStore(t.ctx.db).claim(m.machineId, nonce, Date.now() + 600_000)).toBe(false);
    expect(await new NonceStore(t.ctx.db).claim(m.machineId, twin, Date.now() + 600_000)).toBe(false);
    expect(await new NonceStore(t.ctx.db).claim(other.machineId, nonce, Date.now() + 600_000)).toBe(true); // a nonce is per machine
    // a body changed after signing
    const raw = JSON.stringify(body);
    const ts = String(Math.floor(Date.now() / 1000));
    const sig = signTerminal(m.key, 'POST', '/terminal/v1/order/create', ts, 'n0nce-123', raw);
    const tampered = await t.app.inject({ method: 'POST', url: '/terminal/v1/order/create', headers: { 'content-type': 'application/json', 'x-machine-no': m.machineNo, 'x-timestamp': ts, 'x-nonce': 'n0nce-123', 'x-signature': sig }, payload: JSON.stringify({ ...body, aisleNo: 'A2' }) });
    expect(tampered.json().msg).toBe(tm.badSignature);
    expect(await orderCount()).toBe(before);
  });

  it('takes a machine 停用, 启用, given a new key, renumbered or deleted on the console at its next call', async () => {
    const m = await makeMachine();
    await t.ctx.db.deleteFrom('pay_terminal_config').where('machineNo', '=', m.machineNo).execute(); // so its number may change
    const token = await t.login('admin', ADMIN_PASSWORD);
    const console = async (url: string, body: unknown, method = 'POST') => {
      const answer = await t.call(method, url, { token, body });
      expect(answer.body).toMatchObject({ success: true });
      return answer.body.data;
    };
    const beat = (who: Machine) => call(who, '/heartbeat', { aisles: [] });
    expect((await beat(m)).body.success).toBe(true); // read, and kept by this instance
    await console('/api/Machine/status', { machineId: m.machineId, status: MachineStatus.disabled });
    expect(await beat(m)).toMatchObject({ status: 401, body: { msg: tm.machineDisabled } });
    await console('/api/Machine/status', { machineId: m.machineId, status: MachineStatus.enabled });
    expect((await beat(m)).body.success).toBe(true);
    const { terminalKey } = await console('/api/Machine/resetKey', { machineId: m.machineId });
    expect(await beat(m)).toMatchObject({ status: 401, body: { msg: tm.badSignature } });
    const rekeyed = { ...m, key: terminalKey as string };
    expect((await beat(rekeyed)).body.success).toBe(true);
    const renumbered = { ...rekeyed, machineNo: `${m.machineNo}-B` };
    await console('/api/Machine/save', { machineId: m.machineId, machineNo: renumbered.machineNo, machineName: 'renumbered', status: MachineStatus.enabled });
    expect(await beat(rekeyed)).toMatchObject({ status: 401, body: { msg: tm.badSignature } });
    expect((await beat(renumbered)).body.success).toBe(true);
    await console(`/api/Machine/delete?ids=${m.machineId}`, undefined, 'DELETE');
    expect(await beat(renumbered)).toMatchObject({ status: 401, body: { msg: tm.badSignature } });
  });

  it('refuses a body that is not JSON with 415 before routing, signed over nothing or over its bytes', async () => {
    const m = await makeMachine();
    const a = (await call(m, '/order/create', { aisleNo: 'A1', payType: 3 })).body.data;
    const form = `orderNo=${a.orderNo}`;
    for (const [contentType, payload] of [['application/x-www-form-urlencoded', form], ['text/plain', JSON.stringify({ orderNo: a.orderNo })], ['application/octet-stream', form]]) {
      for (const signedOver of ['', payload]) {
        const answer = await t.app.inject({ method: 'POST', url: '/terminal/v1/order/status', headers: { 'content-type': contentType, ...signedHeaders(m, '/order/status', signedOver) }, payload });
        expect(answer.statusCode, `${contentType} signed over '${signedOver}'`).toBe(415);
        expect(answer.json()).toMatchObject({ success: false, msg: messages.common.unsupportedMediaType });
      }
    }
    // JSON with a charset is JSON
    const raw = JSON.stringify({ orderNo: a.orderNo });
    const json = await t.app.inject({ method: 'POST', url: '/terminal/v1/order/status', headers: { 'content-type': 'application/json; charset=utf-8', ...signedHeaders(m, '/order/status', raw) }, payload: raw });
    expect(json.json()).toMatchObject({ success: true, data: { orderNo: a.orderNo } });
  });
});
