import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_COUNT_BOUND, SEARCH_COUNT_STEP } from '@huiyun/contract';
import { startAdminApp, type TestApp } from '../test/harness.ts';
import { listTemplateCountsOf } from '../db/list/memory.ts';
import { isRegisteredList } from './list-routes.ts';

// Every list of the product is built on the one machinery: registerList for the route,
// listPage for the page (index-backed filters, a bounded count). A list route made any other way fails here.

/** The list routes by name: …/list, and the task area's /sync/query…List and /sync/queryBlacklist. */
const isListRoute = (url: string) => /\/list$/i.test(url) || /^\/sync\/query\w*List$/.test(url) || url === '/sync/queryBlacklist';

/** Named like a list but not a paged one: whole trees and the choices of a dialog. They answer no total. */
const notPaged = new Set([
  '/api/Module/list', // the menu tree, whole (菜单管理 is a tree, not a table)
  '/sync/queryTaskUserList', // the owners the 授权码 dialog offers
  '/sync/queryUserCodeList', // the caller's activated devices the task dialog offers
]);

let t: TestApp;
let token: string;
beforeAll(async () => ({ t, token } = await startAdminApp()));
afterAll(async () => {
  await t?.close();
});

describe('list routes', () => {
  it('are all registered through registerList, but for the named lists that are not paged', () => {
    const lists = t.app.declaredRoutes.filter((r) => isListRoute(r.url));
    expect(lists.length).toBeGreaterThanOrEqual(13);
    const bypassing = lists.filter((r) => !notPaged.has(r.url) && !isRegisteredList(r.method, r.url)).map((r) => `${r.method} ${r.url}`);
    expect(bypassing).toEqual([]);
  });

  it('read their statements from templates from the second request on, but for the lists whose columns depend on the request', async () => {
    const counts = listTemplateCountsOf(t.ctx.db);
    const paged = t.app.declaredRoutes.filter((r) => isListRoute(r.url) && !notPaged.has(r.url) && r.method === 'POST');
    const templated: string[] = [];
    for (const route of paged) {
      const body = route.url.startsWith('/sync/') ? { pageNum: 1, pageSize: 10 } : { page: 1, limit: 10 };
      for (let k = 0; k < 2; k++) expect((await t.call('POST', route.url, { token, body })).body.success, route.url).toBe(true);
      const filled = counts.filled;
      await t.call('POST', route.url, { token, body });
      if (counts.filled > filled) templated.push(route.url);
    }
    // columns made per request: a role's user count in the caller's scope, a permission's grant to the role asked about, a device's
    // day; 在线用户 is read from the session store, not by a statement
    const perRequest = ['/api/Role/list', '/api/Permission/list', '/sync/queryDeviceList', '/api/Online/list'];
    expect(paged.map((r) => r.url).filter((url) => !templated.includes(url)).sort()).toEqual(perRequest.sort());
  });

  it('leave out only lists that are not paged: they answer no total', async () => {
    for (const url of notPaged) {
      const route = t.app.declaredRoutes.find((r) => r.url === url);
      expect(route, url).toBeDefined();
      const { body } = await t.call(route!.method, url, { token, body: route!.method === 'POST' ? {} : undefined });
      expect(body.success, url).toBe(true);
      expect(body.total, url).toBeUndefined();
    }
  });

  it('count up to the bound: past it the answer is 共 10,000+ 条 and paging goes on', async () => {
    const now = Date.now();
    const rows = Array.from({ length: LIST_COUNT_BOUND + 5 }, (_, i) => ({
      userId: null, userName: `bulk${i}`, deptId: null, module: '变量管理', action: '新增', target: '', method: 'POST', url: '', ip: '', success: 1, message: '', costMs: 0, operTime: now - i,
    }));
    for (let i = 0; i < rows.length; i += 500) await t.ctx.db.insertInto('sys_oper_log').values(rows.slice(i, i + 500)).execute();
    const first = await t.call('POST', '/api/OperLog/list', { token, body: { page: 1, limit: 10, module: '变量管理' } });
    expect(first.body).toMatchObject({ success: true, total: LIST_COUNT_BOUND + 1, totalBounded: true });
    expect(first.body.data.map((r: { userName: string }) => r.userName)).toEqual(Array.from({ length: 10 }, (_, i) => `bulk${i}`));
    // the last page the pager offers (rows 10,001 …) is read
    const last = await t.call('POST', '/api/OperLog/list', { token, body: { page: LIST_COUNT_BOUND / 10 + 1, limit: 10, module: '变量管理' } });
    expect(last.body.data.map((r: { userName: string }) => r.userName)).toEqual(['bulk10000', 'bulk10001', 'bulk10002', 'bulk10003', 'bulk10004']);
    expect(last.body).toMatchObject({ total: LIST_COUNT_BOUND + 1, totalBounded: true });
    // past the bound no page is read
    const past = await t.call('POST', '/api/OperLog/list', { token, body: { page: LIST_COUNT_BOUND / 10 + 2, limit: 10, module: '变量管理' } });
    expect(past.body).toMatchObject({ success: true, data: [], total: LIST_COUNT_BOUND + 1, totalBounded: true });
    // under the bound the count is exact, with or without a full page
    const narrow = await t.call('POST', '/api/OperLog/list', { token, body: { page: 1, limit: 10, userName: 'bulk1000' } });
    expect(narrow.body).toMatchObject({ total: 6 }); // bulk1000 and bulk10000 … bulk10004
    expect(narrow.body.totalBounded).toBeUndefined();
    const exactFull = await t.call('POST', '/api/OperLog/list', { token, body: { page: 2, limit: 10, userName: 'bulk999' } });
    expect(exactFull.body).toMatchObject({ total: 11 }); // bulk999, bulk9990 … bulk9999: page 2 holds 1, the count is exact
    // a contains search counts in steps of SEARCH_COUNT_STEP: 共 1,000+ 条, the page itself exact
    const searched = await t.call('POST', '/api/OperLog/list', { token, body: { page: 1, limit: 10, userName: 'bulk' } });
    expect(searched.body).toMatchObject({ success: true, total: SEARCH_COUNT_STEP + 1, totalBounded: true });
    expect(searched.body.data.map((r: { userName: string }) => r.userName)).toEqual(Array.from({ length: 10 }, (_, i) => `bulk${i}`));
    // the last page it offers (rows 1,001 …) counts to the next step, so the pager goes on while rows do
    const nextStep = await t.call('POST', '/api/OperLog/list', { token, body: { page: SEARCH_COUNT_STEP / 10 + 1, limit: 10, userName: 'bulk' } });
    expect(nextStep.body).toMatchObject({ total: 2 * SEARCH_COUNT_STEP + 1, totalBounded: true });
    expect(nextStep.body.data[0].userName).toBe(`bulk${SEARCH_COUNT_STEP}`);
    // under the step the searched count is exact (bulk77, bulk770 … bulk779, bulk7700 … bulk7799)
    const exactSearched = await t.call('POST', '/api/OperLog/list', { token, body: { page: 1, limit: 10, userName: 'bulk77' } });
    expect(exactSearched.body).toMatchObject({ total: 111 });
    expect(exactSearched.body.totalBounded).toBeUndefined();
  });
});
