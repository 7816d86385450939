import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

// Checks of a generated OpenAPI 3.1 document for its tests (no OpenAPI validator is installed; Ajv is):
// its structure, every $ref resolving, every schema compiling as JSON Schema 2020-12, and real answers
// validated against the schema the document gives for their route and status.

type Json = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** The object a local '#/…' JSON pointer names in the document, or undefined. */
function resolve(doc: Json, pointer: string): unknown {
  return pointer.slice(2).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[key] : undefined), doc);
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => refsIn(item, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

/** What is wrong with the document's structure: an empty list when nothing is. */
export function documentProblems(doc: Json): string[] {
  const problems: string[] = [];
  if (doc.openapi !== '3.1.0') problems.push('openapi is not 3.1.0');
  const info = doc.info as Json | undefined;
  if (typeof info?.title !== 'string' || typeof info.version !== 'string') problems.push('info needs title and version');
  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    if (!path.startsWith('/')) problems.push(`${path}: a path starts with /`);
    for (const [method, operation] of Object.entries(item) as [string, Json][]) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!METHODS.includes(method)) problems.push(`${where}: unknown method`);
      if (operationIds.has(operation.operationId as string)) problems.push(`${where}: operationId repeated`);
      operationIds.add(operation.operationId as string);
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      const success = responses['200'];
      if (!success?.content || Object.keys(success.content).length === 0) problems.push(`${where}: no 200 answer with content`);
      for (const [status, response] of Object.entries(responses)) {
        if (!/^[1-5]\d\d$/.test(status)) problems.push(`${where}: status ${status}`);
        if (!response.$ref && typeof response.description !== 'string') problems.push(`${where} ${status}: no description`);
      }
      const declared = new Set([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name));
      const inPath = ((operation.parameters ?? []) as Json[]).filter((p) => p.in === 'path').map((p) => p.name as string);
      if (inPath.length !== declared.size || inPath.some((name) => !declared.has(name))) problems.push(`${where}: path parameters differ from the path`);
    }
  }
  for (const target of new Set(refsIn(doc))) {
    if (!target.startsWith('#/') || resolve(doc, target) === undefined) problems.push(`$ref ${target} does not resolve`);
  }
  return problems;
}

/** Validators of the document's schemas by JSON pointer (Ajv, draft 2020-12): compiling one fails on a schema that is not valid. */
export function documentSchemas(doc: Json): (pointer: string) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(doc, 'openapi');
  return (pointer) => {
    const validate = ajv.getSchema(`openapi${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate;
  };
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The pointer of an operation's JSON answer schema for a status (a refusal's through its $ref). */
export function answerPointer(doc: Json, method: string, path: string, status: number): string {
  const base = `#/paths/${escape(path)}/${method.toLowerCase()}/responses`;
  const response = resolve(doc, `${base}/${status}`) as Json | undefined;
  if (!response) throw new Error(`${method} ${path} documents no ${status} answer`);
  const target = typeof response.$ref === 'string' ? response.$ref : `${base}/${status}`;
  return `${target}/content/application~1json/schema`;
}

/** Every JSON schema pointer of the document: the components and each operation's body and answers. */
export function schemaPointers(doc: Json): string[] {
  const pointers = Object.keys(((doc.components as Json).schemas ?? {}) as Json).map((name) => `#/components/schemas/${escape(name)}`);
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const base = `#/paths/${escape(path)}/${method}`;
      const bodies = Object.keys(((operation.requestBody as Json | undefined)?.content ?? {}) as Json);
      pointers.push(...bodies.map((type) => `${base}/requestBody/content/${escape(type)}/schema`));
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        if (((response.content ?? {}) as Json)['application/json']) pointers.push(`${base}/responses/${status}/content/application~1json/schema`);
      }
    }
  }
  return pointers;
}
