import fc from 'fast-check';
import { sql } from 'kysely';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contract from '@huiyun/contract';
import { MAX_INT_COLUMN } from '@huiyun/contract';
import type { DeclaredRoute } from './access-check.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';
import { randomBytes } from 'node:crypto';
import { newTerminalKey, sealTerminalKey } from '../modules/pay/machines/index.ts';
import { signTerminal } from '../modules/pay/terminal/index.ts';

// Every declared route, called by the super administrator (and a device for the device
// routes) with generated hostile input — ids past the integer columns, negatives, control characters,
// wrong types, very long text, arrays where one value is expected — on the database under test. No
// answer may be a 5xx, and a refused request may not change what the tables hold.

/** Every field name the contract's request schemas know, plus the routes' path parameters. */
function contractFieldNames(routes: DeclaredRoute[]): string[] {
  const names = new Set<string>();
  for (const value of Object.values(contract)) if (value instanceof z.ZodObject) for (const key of Object.keys(value.shape)) names.add(key);
  for (const route of routes) for (const match of route.url.matchAll(/:(\w+)/g)) names.add(match[1]);
  return [...names].sort();
}

const hostileNumber = fc.constantFrom(
  MAX_INT_COLUMN + 1, 2 ** 32, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 1e21, -1, -(2 ** 31) - 1, 0, 1.5, MAX_INT_COLUMN,
);
const hostileNumericText = fc.constantFrom('2147483648', '99999999999999999999', '-1', '1e3', ' 2147483648 ', '0x10', '1.0', '');
const controlCharacter = fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f', '\u0085', '\u0000\u0000');
const controlText = fc.tuple(fc.string({ maxLength: 8 }), controlCharacter, fc.string({ maxLength: 8 })).map(([a, c, b]) => `${a}${c}${b}`);
/** Past every typed field's limit (4000 is the longest, a task's content). */
const longText = fc.constantFrom('x'.repeat(4001), '测'.repeat(600), '9'.repeat(400));
const hostileScalar = fc.oneof(
  { weight: 3, arbitrary: hostileNumber },
  { weight: 2, arbitrary: hostileNumericText },
  { weight: 3, arbitrary: controlText },
  { weight: 1, arbitrary: longText },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const hostileValue = fc.oneof(
  { weight: 6, arbitrary: hostileScalar },
  { weight: 2, arbitrary: fc.array(hostileScalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', 'id', 'deptId', 'phone'), hostileScalar, { maxKeys: 2 }) },
);

/** A path parameter, a query value or a form field as text. */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function withParams(url: string, params: Record<string, unknown>): string {
  return url.replace(/:(\w+)/g, (_whole, name: string) => encodeURIComponent(asText(params[name] ?? MAX_INT_COLUMN + 1)));
}

function queryString(input: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) for (const item of Array.isArray(value) ? value : [value]) search.append(key, asText(item));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Generated requests per route and database: ~90 routes, so a few seconds a run. */
const RUNS_PER_ROUTE = 4;

let t: TestApp;
let adminToken: string;
let deviceToken: string;
let terminalMachine: { machineNo: string; key: string };
let routes: DeclaredRoute[];
let fieldNames: string[];
let tables: string[];
/**
 * Written by every request, refused or not (operation and login logs, with their search index on
 * SQLite: `<log>_search` and its FTS5 shadow tables, db/search-index.ts) — not what a request changes.
 */
// a signed terminal call spends its nonce, refused or not; a log's value lists (search-index.ts valueLists) follow its rows
const logTables = new Set(['sys_oper_log', 'sys_login_log', 'pay_terminal_nonce', 'sys_oper_log_user_names', 'sys_login_log_user_names']);
const isLogTable = (name: string) => logTables.has(name.replace(/_search(_\w+)?$/, ''));

beforeAll(async () => {
  t = await startTestApp();
  adminToken = await t.login('admin', ADMIN_PASSWORD);
  const code = 'FUZZDEVICE01';
  const saved = await t.call('POST', '/sync/saveAuthCode', { token: adminToken, body: { authCode: code, authUserId: 1, dueNum: 100, dueDateNum: 30 } });
  expect(saved.status).toBe(200);
  const activated = await t.call('POST', '/device/v1/activate', { body: { authCode: code, machineCode: 'fuzz-device', machineName: 'fuzz' } });
  expect(activated.status).toBe(200);
  deviceToken = activated.body.data.deviceToken;
  // /sync/logout would end the session the rest of the run rides on; it takes no input to fuzz.
  // The gateways' notification and 支付模拟 routes answer in the gateway's own format (modules/pay/gateways, its tests).
  routes = t.app.declaredRoutes.filter((route) => route.url !== '/sync/logout' && !route.url.startsWith('/gateway/'));
  const key = newTerminalKey();
  const now = Date.now();
  await t.ctx.db.insertInto('pay_machine').values({ machineNo: 'FUZZ-TERM', machineName: 'fuzz', deptId: 1, terminalKey: sealTerminalKey(t.ctx.secrets, key), lastSeenAt: null, addTime: now, editTime: now }).execute();
  terminalMachine = { machineNo: 'FUZZ-TERM', key };
  fieldNames = contractFieldNames(routes);
  tables = (await t.ctx.db.introspection.getTables()).map((table) => table.name).filter((name) => !isLogTable(name) && !name.startsWith('kysely_')).sort();
}, 60_000);
afterAll(async () => t?.close());

async function rowCounts(): Promise<Record<string, number>> {
  const columns = sql.join(tables.map((table) => sql`(select count(*) from ${sql.table(table)}) as ${sql.ref(table)}`));
  const { rows } = await sql<Record<string, number | string>>`select ${columns}`.execute(t.ctx.db);
  return Object.fromEntries(Object.entries(rows[0]).map(([table, n]) => [table, Number(n)]));
}

type Sent = { status: number; msg: unknown; where: string };

async function send(route: DeclaredRoute, input: Record<string, unknown>, body: unknown): Promise<Sent> {
  const url = withParams(route.url, input);
  const carriesQuery = route.method === 'GET' || route.method === 'DELETE';
  const headers: Record<string, string> = route.access === 'device' ? { authorization: `Bearer ${deviceToken}` } : { token: adminToken };
  let payload = body as object | string | undefined;
  if (route.access === 'terminal') {
    // signed by a real machine, so the fuzz reaches past the signature check (docs/terminal-protocol.md)
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(12).toString('hex');
    Object.assign(headers, {
      'content-type': 'application/json', 'x-machine-no': terminalMachine.machineNo, 'x-timestamp': timestamp, 'x-nonce': nonce,
      'x-signature': signTerminal(terminalMachine.key, route.method, url, timestamp, nonce, text),
    });
    payload = text;
  }
  const raw = await t.app.inject({
    method: route.method as 'GET',
    url: carriesQuery ? `${url}${queryString(input)}` : url,
    headers,
    ...(carriesQuery ? {} : { payload }),
  });
  let msg: unknown;
  try {
    msg = raw.json().msg;
  } catch {
    msg = undefined;
  }
  return { status: raw.statusCode, msg, where: `${route.method} ${route.url}: ${(raw.raw.req.url ?? '').slice(0, 200)} ${JSON.stringify(body)?.slice(0, 200)}` };
}

/** Sends one request; none may fail the server, and a refusal answers a Chinese message. */
async function probe(route: DeclaredRoute, input: Record<string, unknown>, body: unknown = input): Promise<boolean> {
  const sent = await send(route, input, body);
  expect(sent.status, sent.where).toBeLessThan(500);
  // The caller stays who it was: a 401 would mean the fuzz never got past the access check.
  if (route.access !== 'public') expect(sent.status, sent.where).not.toBe(401);
  const refused = sent.status >= 400;
  if (refused) expect(typeof sent.msg === 'string' && /[\u4e00-\u9fa5]/.test(sent.msg), `${sent.status} ${String(sent.msg)}: ${sent.where}`).toBe(true);
  return refused;
}

/**
 * Runs one route's batch of requests: when every one of them was refused, every table holds as many
 * rows after the batch as before it (the few generated requests a route accepts may write).
 */
async function batch(route: DeclaredRoute, run: () => Promise<boolean>): Promise<void> {
  const before = await rowCounts();
  const allRefused = await run();
  if (allRefused) expect(await rowCounts(), `${route.method} ${route.url} wrote although it refused every request`).toEqual(before);
}

describe('every route of the contract under generated hostile input', () => {
  it('refuses ids past the integer columns and text with U+0000 (the two reported cases, on every route)', async () => {
    for (const route of routes) {
      await batch(route, async () => {
        let allRefused = true;
        for (const value of [MAX_INT_COLUMN + 1, String(MAX_INT_COLUMN + 1), 'a\u0000b']) {
          const input = Object.fromEntries(fieldNames.map((name) => [name, value]));
          allRefused = (await probe(route, input)) && allRefused;
        }
        return allRefused;
      });
    }
  }, 120_000);

  it('never answers 5xx nor writes on a refusal, whatever the body', async () => {
    const input = fc.record(Object.fromEntries(fieldNames.map((name) => [name, hostileValue])), { requiredKeys: [] });
    // Mostly an object of fields; now and then a body that is no object at all.
    const body = fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 3 }) }, { weight: 1, arbitrary: controlText });
    for (const route of routes) {
      await batch(route, async () => {
        let allRefused = true;
        await fc.assert(
          fc.asyncProperty(input, body, async (fields, other) => {
            allRefused = (await probe(route, fields, other ?? fields)) && allRefused;
          }),
          { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
        );
        return allRefused;
      });
    }
  }, 300_000);
});
