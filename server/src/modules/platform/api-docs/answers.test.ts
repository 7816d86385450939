import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEVICE_API_PREFIX, PayType, randomAuthCode, TERMINAL_PREFIX } from '@huiyun/contract';
import { answerEnvelope, answerFailure } from '@huiyun/contract/responses';
import { ADMIN_PASSWORD } from '../../../test/harness.ts';
import { call, makeMachine, t, useTerminalApp } from '../../../test/terminal-fixture.ts';
import { answerPointer, documentSchemas } from './document-check.ts';
import { routeKey } from './openapi.ts';

// Real answers of the app (fastify.inject on SQLite and, with TEST_DATABASE_URL, PostgreSQL) against the
// OpenAPI document: each validates against the schema the document gives its route and status (Ajv) and
// parses with the contract's schema of the route (zod) — console routes, the device and the terminal
// protocols, and refusals.

useTerminalApp();
let token: string;
let userId: number;
let doc: Record<string, unknown>;
let schemaAt: ReturnType<typeof documentSchemas>;

beforeAll(async () => {
  const login = await t.call('POST', '/sync/login', { body: { userName: 'admin', passwd: ADMIN_PASSWORD } });
  expectDocumented('POST', '/sync/login', login);
  ({ token, userId } = login.body.data);
  doc = JSON.parse((await t.call('GET', '/api-docs/openapi.json', { token })).raw.body);
  schemaAt = documentSchemas(doc);
});

/** The contract's schema of what the route puts in data (its doc, http/route-doc.ts), for a success. */
function dataSchemaOf(key: string): z.ZodType {
  const answer = t.app.declaredRoutes.find((route) => routeKey(route.method, route.url) === key)!.doc!.answer;
  if (answer.kind === 'data') return answer.schema;
  if (answer.kind === 'items') return z.array(answer.item);
  if (answer.kind === 'list') return z.array(answer.row);
  if (answer.kind === 'message') return z.undefined();
  throw new Error(`${key} does not answer JSON`);
}

type Answered = { status: number; body: unknown };
const statuses = new Set<number>();

/** The answer validates against the document's schema for its route and status, and parses with the contract's schemas. */
function expectDocumented(method: string, url: string, answer: Answered, route = url) {
  const validate = schemaAt ? schemaAt(answerPointer(doc, method, route.replace(/:(\w+)/g, '{$1}'), answer.status)) : undefined;
  if (validate && !validate(answer.body)) expect.fail(`${method} ${url} ${answer.status}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(answer.body)}`);
  if (answer.status === 200) {
    const envelope = answerEnvelope.strict().parse(answer.body);
    expect(envelope.success).toBe(true);
    dataSchemaOf(`${method} ${route}`).parse(envelope.data);
  } else {
    expect(answerFailure.strict().parse(answer.body).msg).toMatch(/[\u4e00-\u9fff]/);
  }
  statuses.add(answer.status);
}

const console_ = async (method: string, url: string, body?: unknown, route = url) => {
  const answer = await t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });
  expectDocumented(method, url, answer, route);
  return answer.body;
};

describe('answers against the api document', () => {
  it('console routes answer what the document says: saves, lists, choices, trees, one record', async () => {
    const saved = await console_('POST', '/api/Variable/save', { varLable: '文档', varName: 'docs.check', varValue: '1' });
    const rows = await console_('POST', '/api/Variable/list', { page: 1, limit: 10, varName: 'docs.check' });
    expect(rows.data).toEqual([expect.objectContaining({ varId: saved.data.varId, varName: 'docs.check' })]);
    await console_('DELETE', `/api/Variable/delete?ids=${saved.data.varId}`, undefined, '/api/Variable/delete');
    const me = await console_('GET', '/sync/currentUser');
    expect(me.data.menus.length).toBeGreaterThan(0);
    await console_('GET', '/sync/profile');
    await console_('POST', '/api/Dept/choices', {});
    await console_('GET', '/api/Role/dropDown/all');
    await console_('GET', '/api/RoleRight/grants/1', undefined, '/api/RoleRight/grants/:roleId');
    const menu = await console_('POST', '/api/Module/list', {});
    await console_('GET', `/api/Module/get/${menu.data[0].moduleId}`, undefined, '/api/Module/get/:id');
    await console_('POST', '/api/User/list', { page: 1, limit: 10 });
    await console_('POST', '/api/Machine/list', { page: 1, limit: 10 });
    await console_('POST', '/api/Config/list', { page: 1, limit: 10 });
    const payConfig = await console_('POST', '/api/Config/save', { name: '文档检测', payType: 1, gateway: 'simulator', deptId: 1 });
    await console_('POST', '/api/Config/check', { id: payConfig.data.id });
    await console_('POST', '/sync/queryStatisticsTotal', {});
    await console_('GET', '/api/SystemMonitor/snapshot');
    await console_('POST', '/api/Charts/statistics', { granularity: 'day' });
    await console_('GET', '/healthz');
    await console_('GET', '/livez');
  });

  it('the terminal protocol answers its documented shapes, and the console sees the order', async () => {
    const machine = await makeMachine();
    const created = await call(machine, '/order/create', { aisleNo: 'A1', payType: PayType.wechat });
    expectDocumented('POST', `${TERMINAL_PREFIX}/order/create`, created);
    const status = await call(machine, '/order/status', { orderNo: created.body.data.orderNo });
    expectDocumented('POST', `${TERMINAL_PREFIX}/order/status`, status);
    expectDocumented('POST', `${TERMINAL_PREFIX}/heartbeat`, await call(machine, '/heartbeat', { aisles: [{ aisleNo: 'A1', stock: 4 }] }));
    // refusals: an unknown order (404), a dispense of an unpaid order (409), an unsigned call (401)
    expectDocumented('POST', `${TERMINAL_PREFIX}/order/status`, await call(machine, '/order/status', { orderNo: 'NO-SUCH-ORDER' }));
    const unpaid = await call(machine, '/order/dispense', { orderNo: created.body.data.orderNo, success: true });
    expect(unpaid.status).toBe(409);
    expectDocumented('POST', `${TERMINAL_PREFIX}/order/dispense`, unpaid);
    expectDocumented('POST', `${TERMINAL_PREFIX}/heartbeat`, await call(machine, '/heartbeat', {}, { omit: true }));
    const orders = await console_('POST', '/api/Order/list', { page: 1, limit: 10 });
    expect(orders.data.map((o: { orderNo: string }) => o.orderNo)).toContain(created.body.data.orderNo);
    await console_('POST', '/api/Order/detail', { orderNo: created.body.data.orderNo });
  });

  it('the device protocol answers its documented shapes', async () => {
    const authCode = randomAuthCode();
    await console_('POST', '/sync/saveAuthCode', { authCode, authUserId: userId, dueNum: 100, dueDateNum: 30 });
    await console_('POST', '/sync/queryAuthCodeList', { pageNum: 1, pageSize: 10 });
    const activate = (body: unknown) => t.app.inject({ method: 'POST', url: `${DEVICE_API_PREFIX}/activate`, payload: body as object });
    const activated = await activate({ authCode, machineCode: 'docs-device-1', machineName: '文档设备' });
    expectDocumented('POST', `${DEVICE_API_PREFIX}/activate`, { status: activated.statusCode, body: activated.json() });
    const bearer = { authorization: `Bearer ${activated.json().data.deviceToken}` };
    for (const path of ['/pull', '/heartbeat']) {
      const answer = await t.app.inject({ method: 'POST', url: `${DEVICE_API_PREFIX}${path}`, headers: bearer, payload: {} });
      expectDocumented('POST', `${DEVICE_API_PREFIX}${path}`, { status: answer.statusCode, body: answer.json() });
    }
    const refused = await activate({ authCode: 'NO-SUCH-CODE-0', machineCode: 'docs-device-2', machineName: '文档设备' });
    expect(refused.statusCode).toBe(400);
    expectDocumented('POST', `${DEVICE_API_PREFIX}/activate`, { status: refused.statusCode, body: refused.json() });
    await console_('POST', '/sync/queryDeviceList', { pageNum: 1, pageSize: 10 });
  });

  it('refusals answer the documented Failure envelope with a Chinese message', async () => {
    expectDocumented('POST', '/api/Variable/save', await t.call('POST', '/api/Variable/save', { token, body: {} }));
    expectDocumented('GET', '/sync/currentUser', await t.call('GET', '/sync/currentUser'));
    expectDocumented('GET', '/api/Module/get/:id', await t.call('GET', '/api/Module/get/999999', { token }), '/api/Module/get/:id');
    const user = await t.createUser({ userName: 'docs.viewer', password: 'Docs@12345', roleId: 2 });
    expect(user).toBeGreaterThan(0);
    const viewer = await t.login('docs.viewer', 'Docs@12345');
    expectDocumented('POST', '/api/Config/save', await t.call('POST', '/api/Config/save', { token: viewer, body: {} }));
    // the answers above went through both checks, refusals of each kind among them
    expect([...statuses].sort()).toEqual([200, 400, 401, 403, 404, 409]);
  });
});
