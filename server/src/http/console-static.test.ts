import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';

// A console build of its own, so the test does not depend on web/dist.
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-dist-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>汇云运营台</title>');
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
// As the build's precompress step leaves them: a .br and .gz beside the asset.
const bigAsset = `console.log(${JSON.stringify('汇云'.repeat(2000))});`;
fs.writeFileSync(path.join(webDist, 'assets', 'big-def456.js'), bigAsset);
fs.writeFileSync(path.join(webDist, 'assets', 'big-def456.js.br'), zlib.brotliCompressSync(bigAsset));
fs.writeFileSync(path.join(webDist, 'assets', 'big-def456.js.gz'), zlib.gzipSync(bigAsset));
fs.writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

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

it('sends the precompressed brotli or gzip copy the browser accepts, and the plain file otherwise', async () => {
  const br = await t.app.inject({ method: 'GET', url: '/assets/big-def456.js', headers: { 'accept-encoding': 'br, gzip' } });
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers['cache-control']).toContain('immutable');
  expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
  expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(bigAsset);
  const gz = await t.app.inject({ method: 'GET', url: '/assets/big-def456.js', headers: { 'accept-encoding': 'gzip' } });
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(bigAsset);
  const plain = await t.app.inject({ method: 'GET', url: '/assets/big-def456.js', headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body).toBe(bigAsset);
});

it('answers /favicon.ico with the console icon and HEAD of a screen path like its GET', async () => {
  const icon = await t.call('GET', '/favicon.ico');
  expect(icon.raw.statusCode).toBe(200);
  expect(icon.raw.headers['content-type']).toContain('image/svg+xml');
  for (const url of ['/login', '/system/user']) {
    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode, url).toBe(200);
    expect(head.headers['content-type']).toContain('text/html');
  }
});
