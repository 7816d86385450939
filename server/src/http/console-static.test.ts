import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';

// A console build of its own, so the test does not depend on web/dist.
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-dist-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>汇云运营台</title>');
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ WEB_DIST: webDist });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

it('serves the console at / and at every screen path, never cached', async () => {
  for (const url of ['/', '/login', '/system/user', '/task/index?x=1', '/no/such/screen']) {
    const { raw } = await t.call('GET', url);
    expect(raw.statusCode, url).toBe(200);
    expect(raw.body).toContain('汇云运营台');
    expect(raw.headers['cache-control']).toBe('no-cache');
  }
});

it('serves hashed assets for a year, and a missing asset as 404, not as the page', async () => {
  const asset = await t.call('GET', '/assets/app-abc123.js');
  expect(asset.raw.statusCode).toBe(200);
  expect(asset.raw.headers['cache-control']).toContain('immutable');
  const missing = await t.call('GET', '/assets/app-old999.js');
  expect(missing.raw.statusCode).toBe(404);
  expect(missing.raw.body).not.toContain('汇云运营台');
});

it('answers unknown API paths with the envelope', async () => {
  const { status, body } = await t.call('POST', '/api/Nothing/here', { body: {} });
  expect(status).toBe(404);
  expect(body).toMatchObject({ success: false, msg: '请求的接口不存在' });
});
