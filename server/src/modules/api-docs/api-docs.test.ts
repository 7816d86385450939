import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_API_PREFIX, TERMINAL_PREFIX } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { routeKey, undocumentedRoutes } from './openapi.ts';
import { routeDocs } from './route-docs.ts';

// /api-docs on SQLite and (TEST_DATABASE_URL) PostgreSQL: every declared route is in the one table
// (route-docs.ts) and so in the generated document, with the contract's schemas; the document answers a
// logged-in account only; the viewer's page and files are served from this server.

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

type Doc = { openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; parameters?: { name: string; in: string }[]; 'x-access': unknown; security: unknown[] }>> };

describe('api docs', () => {
  it('has a schema entry for every declared route, and no entry for a route that does not exist', () => {
    expect(undocumentedRoutes(t.app.declaredRoutes)).toEqual([]);
    const declared = new Set(t.app.declaredRoutes.map((r) => routeKey(r.method, r.url)));
    expect(Object.keys(routeDocs).filter((key) => !declared.has(key))).toEqual([]);
  });

  it('answers the OpenAPI 3.1 document of every route, generated from the contract, to a logged-in account only', async () => {
    const refused = await t.call('GET', '/api-docs/openapi.json');
    expect(refused.status).toBe(401);
    const { status, raw } = await t.call('GET', '/api-docs/openapi.json', { token });
    expect(status).toBe(200);
    const doc = JSON.parse(raw.body) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations.length).toBe(t.app.declaredRoutes.length);
    // a console route: the body is the contract's schema (variableSave requires varName), the access its permission
    const save = doc.paths['/api/Variable/save'].post;
    expect(save.requestBody!.content['application/json'].schema).toMatchObject({ type: 'object', required: expect.arrayContaining(['varName']) });
    expect(save['x-access']).toBe('system:Variable:save');
    // a query string and a path parameter
    expect(doc.paths['/api/Variable/delete'].delete.parameters!.map((p) => `${p.in}:${p.name}`)).toEqual(['query:ids']);
    expect(doc.paths['/api/Module/get/{id}'].get.parameters!.map((p) => `${p.in}:${p.name}`)).toContain('path:id');
    // the device and terminal protocols, with their own proofs
    expect(doc.paths[`${DEVICE_API_PREFIX}/activate`].post.requestBody).toBeDefined();
    expect(doc.paths[`${DEVICE_API_PREFIX}/report`].post.security).toEqual([{ device: [] }]);
    expect(doc.paths[`${TERMINAL_PREFIX}/order/create`].post.security).toEqual([{ terminal: [] }]);
    expect(doc.paths[`${TERMINAL_PREFIX}/order/create`].post.requestBody).toBeDefined();
  });

  it('serves the viewer page and its files from this server', async () => {
    const page = await t.call('GET', '/api-docs');
    expect(page.status).toBe(200);
    expect(page.raw.body).toContain('/api-docs/ui/swagger-ui-bundle.js');
    expect((await t.call('GET', '/api-docs/viewer.js')).raw.body).toContain('/api-docs/openapi.json');
    const bundle = await t.call('GET', '/api-docs/ui/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.raw.body).toContain('SwaggerUIBundle');
    expect((await t.call('GET', '/api-docs/ui/swagger-ui.css')).status).toBe(200);
    // only the viewer's two files, not the package's demo page
    expect((await t.call('GET', '/api-docs/ui/index.html')).status).toBe(404);
  });
});
