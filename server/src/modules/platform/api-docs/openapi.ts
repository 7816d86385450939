import { z } from 'zod';
import { answerSchemas } from '@huiyun/contract/responses';
import type { DeclaredRoute, RouteAccess } from '../../../http/access-check.ts';
import type { Answer, Refusal, RouteDoc } from '../../../http/route-doc.ts';
import { refusalTexts } from './answers.ts';

// The OpenAPI 3.1 document of the API, generated from the routes the app declared (app.declaredRoutes:
// method, url, access, and the doc each route carries: the contract's zod schemas it parses and answers,
// http/route-doc.ts) and the contract's answer schemas (@huiyun/contract/responses, components.schemas by
// name). Nothing in it is written by hand: a schema changed in contract/ changes the document.

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

export const routeKey = (method: string, url: string) => `${method} ${url}`;

const SCHEMAS = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${SCHEMAS}${name}` });

/** The request as a client sends it (io: 'input': before defaults and transforms); a refinement zod cannot express is left open. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** Every answer schema as it leaves the server (io: 'output'), each under its contract name, nested ones by $ref. */
function answerComponents(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(answerSchemas)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any', uri: (id) => `${SCHEMAS}${id}` });
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema as JsonSchema]));
}

const nameOfSchema = new Map<z.ZodType, string>(Object.entries(answerSchemas).map(([name, schema]) => [schema, name]));

/** The answer schema's name in components.schemas; a route answering an unnamed schema is an error of its doc. */
function nameOf(schema: z.ZodType, key: string): string {
  const name = nameOfSchema.get(schema);
  if (!name) throw new Error(`${key}: its answer schema is not in the contract's answerSchemas (@huiyun/contract/responses)`);
  return name;
}

/** The envelope with success true and, beside it, what the route puts in data. */
function envelopeWith(properties: JsonSchema, required: string[]): JsonSchema {
  return { allOf: [ref('Envelope'), { type: 'object', properties: { success: { const: true }, ...properties }, required: ['success', ...required] }] };
}

function successOf(answer: Answer, key: string): JsonSchema {
  const json = (schema: JsonSchema, description: string) => ({ description, content: { 'application/json': { schema } } });
  switch (answer.kind) {
    case 'data': {
      const name = nameOf(answer.schema, key);
      return json(envelopeWith({ data: ref(name) }, ['data']), `成功：data 为 ${name}`);
    }
    case 'items': {
      const name = nameOf(answer.item, key);
      return json(envelopeWith({ data: { type: 'array', items: ref(name) } }, ['data']), `成功：data 为 ${name} 的数组（全部，不分页）`);
    }
    case 'list': {
      const name = nameOf(answer.row, key);
      return json(envelopeWith({ data: { type: 'array', items: ref(name) } }, ['data', 'total']), `成功：一页 ${name}，total 为总条数`);
    }
    case 'message':
      return json(envelopeWith({ data: false }, []), '成功：msg 说明做了什么，无 data');
    case 'other':
      return { description: answer.description, content: { [answer.contentType]: {} } };
  }
}

/**
 * Whether a console route names one record (an id, an order number, a file) it may not find, so it may
 * answer 404: a path parameter, a required record key of its input, or the id of the record a save edits.
 * The protocols' routes say their 404s themselves (refuses), as their documents do.
 */
const RECORD_KEY = /^(id|ids|orderNo|filePath|fileNo|userName)$|Ids?$/;
function namesARecord(route: DeclaredRoute, doc: RouteDoc): boolean {
  if (typeof route.access === 'string' && route.access !== 'login') return false;
  if (doc.answer.kind === 'list' || doc.answer.kind === 'other') return false;
  if (doc.params) return true;
  const saves = /\/save[A-Z]?\w*$/i.test(route.url);
  return [doc.query, doc.body].some((schema) => {
    if (!schema) return false;
    const json = jsonSchemaOf(schema);
    const required = new Set((json.required ?? []) as string[]);
    return Object.keys((json.properties ?? {}) as JsonSchema).some((key) => RECORD_KEY.test(key) && (saves || required.has(key)));
  });
}

/**
 * The refusals a route may answer, each the Failure envelope with its Chinese message: 400 for a route
 * that reads input, 401 for one that needs a caller, 403 for one that needs a permission, 404 for one
 * that names a record, 415 for one with a body, 503 (a dependency away) for all but /livez, and those
 * its doc adds (409, 429, 502 …).
 */
export function refusalsOf(route: DeclaredRoute, doc: RouteDoc): Refusal[] {
  const refusals = new Set<Refusal>(doc.refuses ?? []);
  if (doc.body || doc.query || doc.params) refusals.add(400);
  if (route.access !== 'public') refusals.add(401);
  if (typeof route.access === 'object') refusals.add(403);
  if (namesARecord(route, doc)) refusals.add(404);
  if (doc.body) refusals.add(415);
  if (!doc.live) refusals.add(503);
  return [...refusals].sort();
}

/** How a caller proves who it is, per access (http/access-check.ts). */
const securitySchemes = {
  session: { type: 'apiKey', in: 'header', name: 'token', description: '运营台登录后得到的会话令牌（也可用 Authorization: Bearer）' },
  device: { type: 'http', scheme: 'bearer', description: '发送设备激活后得到的设备令牌（docs/device-protocol.md）' },
  terminal: { type: 'apiKey', in: 'header', name: 'X-Signature', description: '售货机以终端密钥签名每次调用（docs/terminal-protocol.md）' },
};

function securityOf(access: RouteAccess): Record<string, string[]>[] {
  if (access === 'public') return [];
  if (access === 'device') return [{ device: [] }];
  if (access === 'terminal') return [{ terminal: [] }];
  return [{ session: [] }];
}

/** The permission codes that open the route (权限管理), as the document's x-access. */
function accessLabel(access: RouteAccess): string | { anyOf: string[] } {
  if (typeof access === 'string') return access;
  return 'anyOf' in access ? { anyOf: access.anyOf } : access.permission;
}

/** An object schema's properties as parameters of the query string or the path. */
function parametersOf(schema: z.ZodType, place: 'query' | 'path'): Record<string, unknown>[] {
  const json = jsonSchemaOf(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: place, required: place === 'path' || required.has(name), schema: property }));
}

/** The path's :names, from the route's params schema or else as strings. */
function pathParameters(url: string, params: z.ZodType | undefined): Record<string, unknown>[] {
  const typed = params ? parametersOf(params, 'path') : [];
  return [...url.matchAll(/:(\w+)/g)].map(([, name]) => typed.find((p) => p.name === name) ?? { name, in: 'path', required: true, schema: { type: 'string' } });
}

/** A file upload's form: the file and the fields the query string may also carry. */
function uploadForm(fields: z.ZodType | undefined): JsonSchema {
  const { properties = {} } = fields ? (jsonSchemaOf(fields) as { properties?: JsonSchema }) : {};
  return { type: 'object', properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' }, ...properties }, required: ['file'] };
}

function operationOf(route: DeclaredRoute, doc: RouteDoc): Operation {
  const key = routeKey(route.method, route.url);
  const parameters = [...pathParameters(route.url, doc.params), ...(doc.query ? parametersOf(doc.query, 'query') : [])];
  const refusals = Object.fromEntries(refusalsOf(route, doc).map((status) => [String(status), { $ref: `#/components/responses/Refused${status}` }]));
  return {
    tags: [doc.tag],
    operationId: key,
    ...(doc.note ? { description: doc.note } : {}),
    'x-access': accessLabel(route.access),
    security: securityOf(route.access),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(doc.body) } } } } : {}),
    ...(doc.upload ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: uploadForm(doc.query) } } } } : {}),
    responses: { '200': successOf(doc.answer, key), ...refusals },
  };
}

/** The routes declared without a doc (api-docs.test.ts expects none). */
export function undocumentedRoutes(routes: DeclaredRoute[]): string[] {
  return routes.filter((r) => !r.doc).map((r) => routeKey(r.method, r.url));
}

const refusedResponses = Object.fromEntries(
  Object.entries(refusalTexts).map(([status, description]) => [`Refused${status}`, { description, content: { 'application/json': { schema: ref('Failure') } } }]),
);

export function openApiDocument(routes: DeclaredRoute[], version: string): JsonSchema {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    const doc = route.doc;
    if (!doc) continue;
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operationOf(route, doc);
  }
  const tags = [...new Set(routes.flatMap((route) => (route.doc ? [route.doc.tag] : [])))].sort().map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: { title: '汇云运营台 API', version, description: '每个应答都是统一信封 { success, msg, errorInfo, data?, total? }（components.schemas.Envelope）；拒绝时 success 为 false，msg 为中文原因（Failure）。' },
    tags,
    components: { securitySchemes, schemas: answerComponents(), responses: refusedResponses },
    paths,
  };
}
