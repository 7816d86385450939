import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { PROTOCOL_BACKOFF, retryWait, TerminalClient } from './terminal-client.ts';

// A machine's dispense report outlives a server that is away: answered 503 (its database or Redis is down),
// the report is sent again after the protocol's backoff, each time freshly signed, until it is taken.
let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serverAnswering(statuses: number[]) {
  const seen: { nonce: string; body: string }[] = [];
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ nonce: String(request.headers['x-nonce']), body });
      const status = statuses[Math.min(seen.length - 1, statuses.length - 1)]!;
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ success: status === 200, msg: status === 200 ? '' : '数据库暂不可用，请稍后再试', errorInfo: '' }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

it('sends a report again while the server answers 503, each try with its own nonce, until it is taken', async () => {
  const { url, seen } = await serverAnswering([503, 503, 200]);
  const answer = await new TerminalClient(url, 'M-1', 'k').callUntilAnswered('/order/dispense', { orderNo: 'X1', success: true }, { tries: 5, firstMs: 1, maxMs: 4 });
  expect(answer.status).toBe(200);
  expect(seen).toHaveLength(3);
  expect(new Set(seen.map((s) => s.nonce)).size).toBe(3);
  expect(new Set(seen.map((s) => s.body))).toEqual(new Set(['{"orderNo":"X1","success":true}']));
});

it('sends again after any 5xx, not only 503', async () => {
  const { url, seen } = await serverAnswering([500, 502, 200]);
  expect((await new TerminalClient(url, 'M-1', 'k').callUntilAnswered('/order/dispense', {}, { tries: 5, firstMs: 1, maxMs: 4 })).status).toBe(200);
  expect(seen).toHaveLength(3);
});

it('backs off as the protocol says: 0–1 s at random, then 2 s, 4 s … at most 60 s', () => {
  expect(retryWait(1, PROTOCOL_BACKOFF, () => 0)).toBe(0);
  expect(retryWait(1, PROTOCOL_BACKOFF, () => 0.999)).toBeCloseTo(999);
  expect([2, 3, 4, 5, 6, 7, 8, 20].map((attempt) => retryWait(attempt, PROTOCOL_BACKOFF))).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
});

it('gives up after its tries and answers the last 503', async () => {
  const away = await serverAnswering([503]);
  expect((await new TerminalClient(away.url, 'M-1', 'k').callUntilAnswered('/order/dispense', {}, { tries: 3, firstMs: 1, maxMs: 4 })).status).toBe(503);
  expect(away.seen).toHaveLength(3);
});

it('does not send again a report the server refused with its own answer (4xx)', async () => {
  const { url, seen } = await serverAnswering([409]);
  expect((await new TerminalClient(url, 'M-1', 'k').callUntilAnswered('/order/dispense', {}, { tries: 3, firstMs: 1, maxMs: 4 })).status).toBe(409);
  expect(seen).toHaveLength(1);
});
