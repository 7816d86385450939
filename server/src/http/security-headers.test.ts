import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';
import { helmetOptions, registerSecurityHeaders, securityHeaderSet } from './security-headers.ts';

// The headers of each kind of answer — the console's page, a hashed asset, API JSON
// (the login answer carries the token), an .xlsx export and a stored file's download.

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-dist-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>汇云运营台</title>');
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ WEB_DIST: webDist });
  token = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

type Headers = Record<string, unknown>;

/** What every answer carries, whatever it is. */
function expectBaseline(headers: Headers, where: string) {
  expect(headers['x-content-type-options'], where).toBe('nosniff');
  expect(headers['x-frame-options'], where).toBe('DENY');
  const csp = String(headers['content-security-policy']);
  expect(csp, where).toContain("frame-ancestors 'none'");
  expect(csp, where).toContain("default-src 'self'");
  expect(headers['x-powered-by'], where).toBeUndefined();
}

describe('security headers', () => {
  it('the console page: a CSP antd works under, not framable, revalidated on every load', async () => {
    for (const url of ['/', '/task/index']) {
      const { raw } = await t.call('GET', url);
      expect(raw.statusCode).toBe(200);
      expectBaseline(raw.headers, url);
      const csp = String(raw.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toContain("img-src 'self' data: blob:");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(raw.headers['cache-control']).toBe('no-cache');
    }
  });

  it('a hashed asset keeps its year-long cache, nosniff, and none of the page-only policies', async () => {
    const { raw } = await t.call('GET', '/assets/app-abc123.js');
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['x-content-type-options']).toBe('nosniff');
    expect(raw.headers['cross-origin-resource-policy']).toBe('same-origin');
    for (const pageOnly of ['content-security-policy', 'x-frame-options', 'referrer-policy']) expect(raw.headers[pageOnly], pageOnly).toBeUndefined();
    expect(raw.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('API answers are never stored: the login answer, a list, a refusal, an unknown route', async () => {
    const answers = {
      login: (await t.call('POST', '/sync/login', { body: { userName: 'admin', passwd: ADMIN_PASSWORD } })).raw,
      badLogin: (await t.call('POST', '/sync/login', { body: { userName: 'admin', passwd: 'wrong' } })).raw,
      list: (await t.call('POST', '/api/Variable/list', { token, body: {} })).raw,
      currentUser: (await t.call('GET', '/sync/currentUser', { token })).raw,
      noSession: (await t.call('GET', '/sync/currentUser')).raw,
      unknown: (await t.call('GET', '/api/No/such', { token })).raw,
      health: (await t.call('GET', '/healthz')).raw,
    };
    for (const [name, raw] of Object.entries(answers)) {
      expectBaseline(raw.headers, name);
      expect(raw.headers['cache-control'], name).toBe('no-store');
      expect(String(raw.headers['content-type']), name).toContain('application/json');
    }
    expect(answers.login.json().data.token).toBeTruthy();
  });

  it('an .xlsx export: no-store and nosniff', async () => {
    const { raw } = await t.call('POST', '/api/Variable/export', { token, body: {} });
    expect(raw.statusCode).toBe(200);
    expect(String(raw.headers['content-type'])).toContain('spreadsheetml');
    expectBaseline(raw.headers, 'xlsx');
    expect(raw.headers['cache-control']).toBe('no-store');
  });

  it('a stored file: private, no-store and nosniff', async () => {
    const boundary = '----huiyunheaders';
    const payload = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nnumbers\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="n.txt"\r\nContent-Type: text/plain\r\n\r\n13800138000\r\n` +
        `--${boundary}--\r\n`,
    );
    const uploaded = await t.app.inject({ method: 'POST', url: '/upload/files', headers: { token, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.headers['cache-control']).toBe('no-store');
    const filePath = uploaded.json().data[0].filePath as string;
    const { raw } = await t.call('GET', `/download/file?filePath=${encodeURIComponent(filePath)}`, { token });
    expect(raw.statusCode).toBe(200);
    expectBaseline(raw.headers, 'download');
    expect(raw.headers['cache-control']).toBe('private, no-store');
  });

  it('are computed once and are exactly what @fastify/helmet wrote on every answer with the same settings', async () => {
    const answer = async (register: (app: ReturnType<typeof Fastify>) => Promise<void>) => {
      const app = Fastify();
      await register(app);
      app.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').send('<p>x</p>'));
      app.post('/plain', async () => ({ ok: true }));
      const answers = [await app.inject({ method: 'GET', url: '/page' }), await app.inject({ method: 'POST', url: '/plain' }), await app.inject({ method: 'GET', url: '/none' })];
      await app.close();
      return answers.map((a) => ({ status: a.statusCode, headers: Object.entries(a.headers).filter(([name]) => name !== 'date') }));
    };
    const theirs = await answer(async (app) => void (await app.register(fastifyHelmet, helmetOptions)));
    // (the cache rule of registerSecurityHeaders touches only API paths, which these are not)
    const ours = await answer(registerSecurityHeaders);
    expect(ours).toEqual(theirs); // names, values and order
    const { set, remove } = securityHeaderSet();
    expect(set.map(([name]) => name.toLowerCase())).toEqual(expect.arrayContaining(['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'cross-origin-opener-policy']));
    expect(set.map(([name]) => name.toLowerCase())).not.toContain('strict-transport-security');
    expect(remove).toEqual(['X-Powered-By']);
  });
});
