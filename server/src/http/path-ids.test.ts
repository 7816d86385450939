import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idInPath, messages } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';

// Every route that takes a numeric id from its path checks it with one guard (contract idInPath): an id out of
// the integer column's range is a 400 on both databases before any query (PostgreSQL answered a 500 with a stack
// where SQLite found no row). The notify routes' own check is tested with each gateway (order/real-gateway-suite.ts).

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => t?.close());

const outOfRange = ['2147483648', '4294967296', '9999999999', '0', '-1', '1.5', '1e3', '0012'];

describe('ids taken from a path', () => {
  it('idInPath: 1 … 2147483647 written plainly, nothing else', () => {
    expect(idInPath('1')).toBe(1);
    expect(idInPath('2147483647')).toBe(2_147_483_647);
    for (const bad of [...outOfRange, '', ' 1', '1 ', 'abc', '99999999999999999999', undefined, 12]) expect(idInPath(bad), String(bad)).toBeUndefined();
  });

  it.each([
    '/api/Module/get/:id',
    '/api/RoleRight/tree/:id',
    '/api/RoleRight/grants/:id',
    '/api/RolePermission/list/:id',
    '/api/UserDept/tree/:id',
  ])('%s refuses an id out of range with 400 and a Chinese message', async (route) => {
    for (const id of outOfRange) {
      const answer = await t.call('GET', route.replace(':id', id), { token: admin });
      expect(answer.status, `${route} ${id}`).toBe(400);
      expect(answer.body.success).toBe(false);
      expect([messages.common.badParameter, messages.permission.roleRequired]).toContain(answer.body.msg);
    }
  });

  it('/api/UserDept/deptTree/:parentId (a level: 0 is the top) refuses a value out of range with 400', async () => {
    expect((await t.call('GET', '/api/UserDept/deptTree/0', { token: admin })).status).toBe(200);
    for (const id of ['2147483648', '4294967296', '9999999999', '-1']) {
      const answer = await t.call('GET', `/api/UserDept/deptTree/${id}`, { token: admin });
      expect(answer.status, id).toBe(400);
      expect(answer.body.msg).toBe(messages.common.badParameter);
    }
  });
});
