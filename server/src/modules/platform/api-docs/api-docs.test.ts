import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_API_PREFIX, TERMINAL_PREFIX } from '@huiyun/contract';
import { startAdminApp, type TestApp } from '../../../test/harness.ts';
import { documentProblems, documentSchemas, schemaPointers } from './document-check.ts';
import { routeKey, undocumentedRoutes } from './openapi.ts';

// /api-docs on SQLite and (TEST_DATABASE_URL) PostgreSQL: every declared route carries its doc
// (http/route-doc.ts) and so is in the generated document, with the contract's schemas; the document answers a
// logged-in account only; the viewer's page and files are served from this server.

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await startAdminApp()));
afterAll(async () => {
  await t?.close();
});

type Response = { $ref?: string; content?: Record<string, { schema?: Record<string, unknown> }> };
type Doc = { openapi: string; components: { schemas: Record<string, Record<string, unknown>> }; paths: Record<string, Record<string, { responses: Record<string, Response>; requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; parameters?: { name: string; in: string }[]; 'x-access': unknown; security: unknown[] }>> };

describe('api docs', () => {
  it('has the schemas of every declared route, given with the route', () => {
    expect(undocumentedRoutes(t.app.declaredRoutes)).toEqual([]);
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

  it('documents every route\'s answer with the contract\'s schema inside the one envelope, and its refusals', async () => {
    const doc = JSON.parse((await t.call('GET', '/api-docs/openapi.json', { token })).raw.body) as Doc;
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));
    // every route: a 200 answer with content; a JSON one is the envelope with what the route puts in data
    const withoutAnswer = operations.filter(({ op }) => Object.keys(op.responses['200']?.content ?? {}).length === 0).map(({ key }) => key);
    expect(withoutAnswer).toEqual([]);
    const json = operations.filter(({ op }) => op.responses['200'].content!['application/json']);
    expect(json.length).toBeGreaterThan(100);
    for (const { key, op } of json) {
      const schema = op.responses['200'].content!['application/json'].schema as { allOf: [{ $ref: string }, { properties: { data: unknown } }] };
      expect(schema.allOf[0], key).toEqual({ $ref: '#/components/schemas/Envelope' });
      expect(schema.allOf[1].properties.data, key).toBeDefined();
    }
    // a list: a page of the contract's row; a save: its answer; the protocols: their own answers
    const dataOf = (path: string, method: string) => (doc.paths[path][method].responses['200'].content!['application/json'].schema as { allOf: { properties: { data: unknown } }[] }).allOf[1].properties.data;
    expect(dataOf('/api/Variable/list', 'post')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Variable' } });
    expect(dataOf('/api/User/save', 'post')).toEqual({ $ref: '#/components/schemas/UserSaveAnswer' });
    expect(dataOf(`${DEVICE_API_PREFIX}/pull`, 'post')).toEqual({ $ref: '#/components/schemas/DevicePull' });
    expect(dataOf(`${TERMINAL_PREFIX}/order/create`, 'post')).toEqual({ $ref: '#/components/schemas/TerminalOrderCreated' });
    expect(doc.components.schemas.Variable).toMatchObject({ type: 'object', required: expect.arrayContaining(['varId', 'varName', 'editTime']) });
    expect(doc.components.schemas.Envelope).toMatchObject({ required: ['success', 'msg', 'errorInfo'] });
    // recursive trees refer to themselves
    expect(JSON.stringify(doc.components.schemas.MenuNode)).toContain('"$ref":"#/components/schemas/MenuNode"');
    // refusals: the Failure envelope, by what the route needs
    const refusals = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).filter((s) => s !== '200');
    // a save naming a record (varId) may answer 404; a list, not
    expect(refusals('/api/Variable/save', 'post')).toEqual(['400', '401', '403', '404', '415', '503']);
    expect(refusals('/api/Variable/list', 'post')).toEqual(['400', '401', '403', '415', '503']);
    expect(refusals('/api/Role/save', 'post')).toContain('409');
    expect(refusals('/api/Module/get/{id}', 'get')).toContain('404');
    expect(refusals('/sync/login', 'post')).toEqual(['400', '415', '429', '503']);
    expect(refusals(`${TERMINAL_PREFIX}/order/create`, 'post')).toEqual(['400', '401', '409', '415', '502', '503']);
    expect(refusals('/livez', 'get')).toEqual([]);
    // a filter naming a company is no record to find; the id a save edits is
    expect(refusals('/api/Charts/statistics', 'post')).not.toContain('404');
    expect(refusals(`${TERMINAL_PREFIX}/order/status`, 'post')).toEqual(['400', '401', '404', '415', '503']);
    // the upload's body is its form with the file
    expect(doc.paths['/upload/files'].post.requestBody!.content['multipart/form-data'].schema).toMatchObject({ required: ['file'] });
    expect(refusals('/upload/files', 'post')).toEqual(['400', '401', '403', '413', '415', '503']);
    expect(doc.paths['/api/Variable/save'].post.responses['403']).toEqual({ $ref: '#/components/responses/Refused403' });
  });

  it('is a well-formed OpenAPI 3.1 document whose every schema compiles as JSON Schema 2020-12', async () => {
    const doc = JSON.parse((await t.call('GET', '/api-docs/openapi.json', { token })).raw.body) as Doc & Record<string, unknown>;
    expect(documentProblems(doc)).toEqual([]);
    const schemaAt = documentSchemas(doc);
    const pointers = schemaPointers(doc);
    expect(pointers.length).toBeGreaterThan(Object.keys(doc.components.schemas).length + 100);
    const broken = pointers.filter((pointer) => {
      try {
        schemaAt(pointer);
        return false;
      } catch {
        return true;
      }
    });
    expect(broken).toEqual([]);
    // the checks can fail: a dangling $ref and a schema that is not one are found
    const spoiled = structuredClone(doc);
    spoiled.components.schemas.Variable = { $ref: '#/components/schemas/Nothing' };
    spoiled.components.schemas.Dept = { type: 'no-such-type' };
    expect(documentProblems(spoiled)).toEqual(['$ref #/components/schemas/Nothing does not resolve']);
    expect(() => documentSchemas(spoiled)('#/components/schemas/Dept')).toThrow();
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
