import { z } from 'zod';
import type { DeclaredRoute, RouteAccess } from '../../http/access-check.ts';
import { routeDocs, type RouteDoc } from './route-docs.ts';

// The OpenAPI 3.1 document of the API, generated from the routes the app declared (app.declaredRoutes:
// method, url, access) and the contract's zod schemas each one parses (route-docs.ts). Nothing in it is
// written by hand: a schema changed in contract/ changes the document.

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

export const routeKey = (method: string, url: string) => `${method} ${url}`;

/** The request as a client sends it (io: 'input': before defaults and transforms); a refinement zod cannot express is left open. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
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

function operationOf(route: DeclaredRoute, doc: RouteDoc): Operation {
  const parameters = [...pathParameters(route.url, doc.params), ...(doc.query ? parametersOf(doc.query, 'query') : [])];
  return {
    tags: [doc.tag],
    operationId: routeKey(route.method, route.url),
    ...(doc.note ? { description: doc.note } : {}),
    'x-access': accessLabel(route.access),
    security: securityOf(route.access),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(doc.body) } } } } : {}),
    responses: { '200': { description: '统一应答 { success, msg, errorInfo, data?, total? }' } },
  };
}

/** The routes declared without an entry in route-docs.ts (api-docs.test.ts expects none). */
export function undocumentedRoutes(routes: DeclaredRoute[]): string[] {
  return routes.map((r) => routeKey(r.method, r.url)).filter((key) => !(key in routeDocs));
}

export function openApiDocument(routes: DeclaredRoute[], version: string): JsonSchema {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    const doc = routeDocs[routeKey(route.method, route.url)];
    if (!doc) continue;
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operationOf(route, doc);
  }
  const tags = [...new Set(Object.values(routeDocs).map((doc) => doc.tag))].sort().map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: { title: '汇云运营台 API', version },
    tags,
    components: { securitySchemes },
    paths,
  };
}
