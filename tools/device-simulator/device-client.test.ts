import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceApiError, DeviceClient, StoppedError } from './device-client.ts';

// The client against a stand-in server answering from a script, one answer per call.
let server: http.Server;
let base: string;
let script: { status: number; body: unknown }[] = [];
const seen: { url: string; authorization?: string; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization, body });
      const next = script.shift() ?? { status: 500, body: {} };
      res.writeHead(next.status, { 'content-type': 'application/json' }).end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ok = (data: unknown) => ({ status: 200, body: { success: true, msg: '', errorInfo: '', data } });
const refused = (status: number, msg: string) => ({ status, body: { success: false, msg, errorInfo: msg } });
const fast = { firstDelayMs: 1, maxDelayMs: 4 };

describe('DeviceClient', () => {
  it('activates, then sends the token as a Bearer header', async () => {
    seen.length = 0;
    script = [ok({ deviceToken: 'dv_abc', machineCode: 'm1' }), ok({ batch: null, wait: { reason: 'noTask', message: '', retryAfterSeconds: 30 } })];
    const client = new DeviceClient(base, { retry: fast });
    await client.activate({ authCode: 'CODE', machineCode: 'm1', machineName: 'one' });
    const pulled = await client.pull();
    expect(pulled.wait?.reason).toBe('noTask');
    expect(seen.map((s) => [s.url, s.authorization])).toEqual([['/device/v1/activate', undefined], ['/device/v1/pull', 'Bearer dv_abc']]);
  });

  it('retries 5xx answers with backoff and answers the first success', async () => {
    const retried: string[] = [];
    script = [{ status: 503, body: {} }, { status: 500, body: { success: false, msg: 'db down' } }, ok({ sent: 1, failed: 0, retrying: 0, ignored: 0, taskCompleted: false })];
    const client = new DeviceClient(base, { retry: fast, onRetry: (call, why) => retried.push(`${call} ${why}`) });
    expect(await client.report({ batchId: 'b', results: [{ id: 1, status: 'sent' }] })).toMatchObject({ sent: 1 });
    expect(retried).toEqual(['report HTTP 503', 'report HTTP 500 db down']);
  });

  it('throws a refusal with its status and message, not retrying it', async () => {
    script = [refused(401, '设备未激活或令牌已失效，请重新激活'), ok({})];
    const error = await new DeviceClient(base, { retry: fast }).pull().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeviceApiError);
    expect(error).toMatchObject({ status: 401, message: '设备未激活或令牌已失效，请重新激活' });
    expect(script).toHaveLength(1);
    script = [];
  });

  it('retries network errors until given up', async () => {
    const giveUp = new AbortController();
    let tries = 0;
    const client = new DeviceClient('http://127.0.0.1:1', { retry: fast, onRetry: () => ++tries === 3 && giveUp.abort() });
    await expect(client.pull(giveUp.signal)).rejects.toBeInstanceOf(StoppedError);
    expect(tries).toBe(3);
  });
});
