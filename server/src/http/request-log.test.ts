import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { ADMIN_PASSWORD } from '../test/harness.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';

// The server as shipped (LOG_LEVEL=info) writes one line a request, when it is answered.
let app: App;
let testDb: TestDatabase;
let dataDir: string;
const lines: Record<string, any>[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-request-log-'));
  testDb = await createTestDatabase({ migrated: true });
  app = await buildApp(loadConfig({ ADMIN_PASSWORD, DATA_DIR: dataDir, LOGIN_SLOWDOWN_MS: '0', LOG_LEVEL: 'info' }), {
    db: testDb.db,
    logStream: { write: (line) => void lines.push(JSON.parse(line)) },
  });
});
afterAll(async () => {
  await app.app.close();
  await testDb.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('writes one line a request: method, url with the token masked, status and time', async () => {
  lines.length = 0;
  const login = await app.app.inject({ method: 'POST', url: '/sync/login', payload: { userName: 'admin', passwd: ADMIN_PASSWORD } });
  const token = (login.json() as { data: { token: string } }).data.token;
  await app.app.inject({ method: 'POST', url: `/api/OperLog/list?token=${token}`, payload: { page: 1, limit: 10 } });
  await app.app.inject({ method: 'POST', url: '/api/OperLog/list', payload: { page: 1, limit: 10 } }); // no token: 401

  const requests = lines.filter((line) => line.req || line.res);
  expect(requests.map((line) => [line.msg, line.req?.method, line.req?.url, line.res?.statusCode])).toEqual([
    ['request completed', 'POST', '/sync/login', 200],
    ['request completed', 'POST', '/api/OperLog/list?token=***', 200],
    ['request completed', 'POST', '/api/OperLog/list', 401],
  ]);
  for (const line of requests) {
    expect(line.level).toBe(30);
    expect(typeof line.reqId).toBe('string');
    expect(line.responseTime).toBeGreaterThanOrEqual(0);
  }
  expect(JSON.stringify(lines)).not.toContain(token);
  expect(lines.some((line) => line.msg === 'incoming request')).toBe(false);
});
