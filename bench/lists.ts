// The list benchmark: 1,000,000 operation-log rows, 1,000,000 login-log rows, 100,000 users in
// 1,000 companies and 100,000 tasks (0–3 devices each); for each list page 1 unfiltered, page 1 with each filter its
// screen offers (contains filters included) and page 500, at 50 connections — beside the same
// statements run bare through the driver in the same run.
//   npm run bench -- lists   (BENCH_DB=postgres for PostgreSQL; BENCH_SECONDS per case, default 3;
//   BENCH_CONNECTIONS, default 50; BENCH_LISTS=users,oper,login,tasks for a part; BENCH_KEEP=<file> (SQLite)
//   or <database name> (PostgreSQL): seed, keep a copy of the database there and run no case; BENCH_CASE=<text>:
//   only the cases whose label holds the text)
import { sql } from 'kysely';
import { loginLogListQuery, operLogListQuery, RoleId, shanghaiDay, taskListQuery, userListQuery } from '@huiyun/contract';
import type { Access } from '../server/src/http/caller.ts';
import { listLoginLogs, listOperLogs } from '../server/src/modules/monitor/logs/index.ts';
import { listTasks } from '../server/src/modules/sending/tasks/index.ts';
import { listUsers } from '../server/src/modules/system/user/index.ts';
import { bulkInsert } from './lib/bulk-insert.ts';
import { captureQueries, replayThroughDriver } from './lib/capture-sql.ts';
import { listPageProblems, measureServedHttp, printTable, reportLoadRecount, type Figures, type ListAnswer } from './lib/measure.ts';
import { benchNumber } from './lib/smoke.ts';
import { ADMIN_PASSWORD, loginAs, servingProcess, startBenchServer, withCursorOfPageBefore, type BenchServer } from './lib/server.ts';

const COMPANIES = 1_000;
const USERS = benchNumber('BENCH_USERS', 100_000, 8_000);
const TASKS = benchNumber('BENCH_TASKS', 100_000, 6_000);
const LOGS = benchNumber('BENCH_LOGS', 1_000_000, 8_000);
const SECONDS = benchNumber('BENCH_SECONDS', 3, 0.05);
const CONNECTIONS = benchNumber('BENCH_CONNECTIONS', 50, 2);
const LOG_SPACING_MS = Math.floor((174 * 86_400_000) / LOGS); // 15 s for a million
const SCOPED_COMPANIES = 100;
const SCOPED_ADMIN = 'benchscope'; // a million rows over ~174 days: a busy platform's half year
const only = process.env.BENCH_LISTS?.split(','); // users, oper, login, tasks: a part of the cases (and of the seed)
const caseNamed = process.env.BENCH_CASE; // only the cases whose label holds this text (a profile of one case)

// 1,000 account names the way people name accounts (surname + given name), so a name filter finds
// what it would in a real log, not a prefix every row shares.
const SURNAMES = ['wang', 'li', 'zhang', 'liu', 'chen', 'yang', 'huang', 'zhao', 'wu', 'zhou', 'xu', 'sun', 'ma', 'zhu', 'hu', 'guo', 'he', 'gao', 'lin', 'luo', 'zheng', 'liang', 'xie', 'song', 'tang'];
const GIVEN = ['wei', 'fang', 'na', 'min', 'jing', 'li', 'qiang', 'lei', 'jun', 'yang', 'yong', 'yan', 'jie', 'juan', 'tao', 'ming', 'chao', 'xiuying', 'xia', 'ping', 'gang', 'hua', 'hui', 'bin', 'bo', 'dan', 'fei', 'hong', 'kai', 'lan', 'long', 'mei', 'ning', 'peng', 'qing', 'rui', 'shan', 'ting', 'xin', 'yu'];
const ACCOUNTS = Array.from({ length: 1_000 }, (_, k) => `${SURNAMES[k % 25]}${GIVEN[Math.floor(k / 25)]}`);
const MODULES = ['用户管理', '角色管理', '公司管理', '菜单管理', '权限管理', '变量管理', '任务列表', '授权码列表', '设备列表', '任务统计', '退订黑名单', '在线用户', '支付配置', '订单查询', '终端管理'];
const ACTIONS = ['新增', '修改', '删除', '导出', '重置密码', '强制下线'];
const AGENTS = ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15'];
const PRODUCTS = ['会员日', '新品', '双十一', '618', '开学季', '周年庆', '秋季', '春节', '回馈', '清仓'];

const server = await startBenchServer();
const { db } = server.ctx;
const now = Date.now();
console.log(`Seeding on ${server.dbKind}…`);
const seedStart = performance.now();
await seed(server);
// What autovacuum does on PostgreSQL (statistics, and the visibility map an index-only count needs) and the server's pragma optimize (db/sqlite-optimize.ts) on SQLite.
await (server.dbKind === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(db);
console.log(`Seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
if (process.env.BENCH_KEEP) {
  // A copy of the seeded database to look at plans by hand (sqlite3 / psql $BENCH_KEEP), then no cases.
  if (server.dbKind === 'sqlite') await sql`vacuum into ${process.env.BENCH_KEEP}`.execute(db);
  await server.close(server.dbKind === 'postgres' ? process.env.BENCH_KEEP : undefined);
  console.log(`Seeded database kept in ${process.env.BENCH_KEEP}`);
  process.exit(0);
}

const superAdmin: Access = {
  userId: 1, userName: 'admin', userRealName: '', roleId: 3, roleName: '', isAdmin: true, isSuperAdmin: true, isLocked: false,
  deptId: 1, deptName: '', permissions: new Set(), menus: [], deptScope: 'all',
};
const day30 = shanghaiDay(now - 30 * 86_400_000);
type Case = { list: string; label: string; url: string; body: Record<string, unknown>; run: (capturing: typeof db, body: Record<string, unknown>) => Promise<unknown>; keyset?: boolean; account?: string };
const users = (label: string, body: Record<string, unknown>): Case => ({
  list: 'users', label: `用户管理 ${label}`, url: '/api/User/list', body: { limit: 10, ...body },
  run: (d, b) => listUsers(d, 'all', userListQuery.parse(b)),
});
const operLogs = (label: string, body: Record<string, unknown>): Case => ({
  list: 'oper', label: `操作日志 ${label}`, url: '/api/OperLog/list', body: { limit: 10, ...body },
  run: (d, b) => listOperLogs(d, 'all', operLogListQuery.parse(b)),
});
const loginLogs = (label: string, body: Record<string, unknown>): Case => ({
  list: 'login', label: `登录日志 ${label}`, url: '/api/LoginLog/list', body: { limit: 10, ...body },
  run: (d, b) => listLoginLogs(d, 'all', loginLogListQuery.parse(b)),
});
const tasks = (label: string, body: Record<string, unknown>, caller: Access = superAdmin, account?: string): Case => ({
  list: 'tasks', label: `任务列表 ${label}`, url: '/sync/queryTaskInfoList', body: { pageSize: 10, ...body }, account,
  run: (d, b) => listTasks(d, caller, taskListQuery.parse(b), Date.now()),
});
// A company administrator whose scope is SCOPED_COMPANIES companies (its own and the ones granted it): 10,000 tasks.
const scopedCompanies = (await db.selectFrom('sys_dept').select('deptId').where('deptNo', 'like', 'BENCH%').orderBy('deptId').limit(SCOPED_COMPANIES).execute()).map((d) => d.deptId);
const scopedAdmin: Access = { ...superAdmin, userName: SCOPED_ADMIN, roleId: RoleId.companyAdmin, isSuperAdmin: false, deptId: scopedCompanies[0]!, deptScope: scopedCompanies };
const cases: Case[] = [
  users('page 1', { page: 1 }),
  users('userName zhang', { page: 1, userName: 'zhang' }),
  users('userName wangfang7', { page: 1, userName: 'wangfang7' }),
  users('userMobile 8888', { page: 1, userMobile: '8888' }),
  users('isLock Y', { page: 1, isLock: 'Y' }),
  users('page 500', { page: 500 }),
  { ...users('page 500 after page 499 (its cursor)', { page: 500 }), keyset: true },
  operLogs('page 1', { page: 1 }),
  operLogs('userName wangfang', { page: 1, userName: 'wangfang' }),
  operLogs('module 用户管理', { page: 1, module: '用户管理' }),
  operLogs('result 失败', { page: 1, success: 0 }),
  operLogs('one day', { page: 1, beginTime: day30, endTime: day30 }),
  operLogs('page 500', { page: 500 }),
  { ...operLogs('page 500 after page 499 (its cursor)', { page: 500 }), keyset: true },
  loginLogs('page 1', { page: 1 }),
  loginLogs('userName liwei', { page: 1, userName: 'liwei' }),
  loginLogs('ip 10.3.7', { page: 1, ip: '10.3.7' }),
  loginLogs('result 失败', { page: 1, success: 0 }),
  loginLogs('one day', { page: 1, beginTime: day30, endTime: day30 }),
  loginLogs('page 500', { page: 500 }),
  { ...loginLogs('page 500 after page 499 (its cursor)', { page: 500 }), keyset: true },
  tasks('page 1', { pageNum: 1 }),
  tasks('taskName 双十一', { pageNum: 1, taskName: '双十一' }),
  tasks('taskName 会员日推广770', { pageNum: 1, taskName: '会员日推广770' }),
  tasks('page 500', { pageNum: 500 }),
  { ...tasks('page 500 after page 499 (its cursor)', { pageNum: 500 }), keyset: true },
  tasks(`page 1, a company administrator of ${SCOPED_COMPANIES} companies`, { pageNum: 1 }, scopedAdmin, SCOPED_ADMIN),
].filter((c) => (!only || only.includes(c.list)) && (!caseNamed || c.label.includes(caseNamed)));

// An unfiltered list's total, counted in the database apart from the list's code: every row of its table (the
// super administrator sees them all; a filtered case's rows are checked against its total only).
const TABLES = { '/api/User/list': 'sys_user', '/api/OperLog/list': 'sys_oper_log', '/api/LoginLog/list': 'sys_login_log', '/sync/queryTaskInfoList': 'sync_task' } as const;
const PAGING = new Set(['page', 'limit', 'pageNum', 'pageSize', 'cursor']);
async function countedTotal(c: Case): Promise<number | undefined> {
  if (c.account || Object.keys(c.body).some((k) => !PAGING.has(k))) return undefined;
  const table = TABLES[c.url as keyof typeof TABLES];
  return Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
}

const serving = await servingProcess(server);
const adminToken = await loginAs(serving, 'admin', ADMIN_PASSWORD);
const results: Figures[] = [];
const content: string[] = [];
for (const c of cases) {
  const token = c.account ? await loginAs(serving, c.account, ADMIN_PASSWORD) : adminToken;
  if (c.keyset) c.body = await withCursorOfPageBefore(`${serving.url}${c.url}`, token, c.body);
  const probe = await fetch(`${serving.url}${c.url}`, { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify(c.body) });
  const expectBody = await probe.text();
  const answer = JSON.parse(expectBody) as ListAnswer;
  if (!answer.success || !answer.data?.length) throw new Error(`unexpected answer for ${c.label}: ${JSON.stringify(answer).slice(0, 300)}`);
  const page = Number(c.body.page ?? c.body.pageNum);
  content.push(...listPageProblems(c.label, answer, page, Number(c.body.limit ?? c.body.pageSize), answer.totalBounded ? undefined : await countedTotal(c)));
  const total = `${answer.total}${answer.totalBounded ? ' (bounded)' : ''}`;
  console.log(`${c.label}: total ${total}, ${answer.data.length} rows`);
  results.push(await measureServedHttp(`HTTP ${c.label} — total ${total}`, { url: `${serving.url}${c.url}`, body: c.body, token, connections: CONNECTIONS, seconds: SECONDS, expectBody }, serving.pid));
  results.push(await measureRaw(server, c));
  for (const r of results.slice(-2)) {
    const cpu = r.cpuPerRequestUs === undefined ? '' : `, server CPU ${r.cpuPerRequestUs.toFixed(0)} µs a request`;
    console.log(`  ${r.label}: ${r.requestsPerSecond.toFixed(0)}/s, p50 ${r.p50Ms.toFixed(1)} ms, p95 ${r.p95Ms.toFixed(1)} ms, ${r.errors} errors${cpu}`);
  }
}
reportLoadRecount(results, content);
printTable(`Lists at scale, ${LOGS} operation / ${LOGS} login log rows, ${USERS} users / ${COMPANIES} companies, ${TASKS} tasks, ${CONNECTIONS} connections, ${SECONDS} s a case, ${server.dbKind}`, results);
await serving.stop();
await server.close();

/** The statements the list function runs for this case, replayed straight through the driver. */
async function measureRaw(server: BenchServer, c: Case): Promise<Figures> {
  const statements = await captureQueries(server, (d) => c.run(d, c.body));
  const label = `  raw driver, same ${statements.length} statement${statements.length > 1 ? 's' : ''}`;
  return replayThroughDriver(server, statements, label, { concurrency: CONNECTIONS, seconds: SECONDS });
}

async function seed(server: BenchServer): Promise<void> {
  const step = (name: string) => console.log(`  ${name} seeded at ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  const { passwordHash } = await db.selectFrom('sys_user').select('passwordHash').where('userId', '=', 1).executeTakeFirstOrThrow();
  const text = { pgType: 'text' } as const;
  const int = { pgType: 'int' } as const;
  const big = { pgType: 'bigint' } as const;
  await bulkInsert(server, 'sys_dept', [
    { name: 'deptName', ...text }, { name: 'deptNo', ...text }, { name: 'parentId', ...int }, { name: 'addTime', ...big }, { name: 'editTime', ...big },
  ], COMPANIES, (i) => [`压测公司${i + 1}`, `BENCH${i + 1}`, 0, now, now]);
  const depts = (await db.selectFrom('sys_dept').select('deptId').where('deptNo', 'like', 'BENCH%').orderBy('deptId').execute()).map((d) => d.deptId);
  await bulkInsert(server, 'sys_user', [
    { name: 'userName', ...text }, { name: 'userRealName', ...text }, { name: 'passwordHash', ...text }, { name: 'userSex', ...text },
    { name: 'userMobile', ...text }, { name: 'userEmail', ...text }, { name: 'isLock', ...text }, { name: 'deptId', ...int },
    { name: 'roleId', ...int }, { name: 'systemNo', ...text }, { name: 'addTime', ...big }, { name: 'editTime', ...big },
  ], USERS, (n) => [
    `${ACCOUNTS[n % 1000]}${Math.floor(n / 1000)}`, `压测用户${n}`, passwordHash, n % 2 ? '男' : '女',
    `1${3 + (n % 7)}${String((n * 7_919_993) % 1_000_000_000).padStart(9, '0')}`, `u${n}@bench.local`, n % 50 === 0 ? 'Y' : 'N', depts[n % COMPANIES]!,
    2, 'huiyun', now - (USERS - n) * 60_000, now - (USERS - n) * 60_000,
  ]);
  step('users');
  const { userId: scopedAdminId } = await db.insertInto('sys_user').values({
    userName: SCOPED_ADMIN, userRealName: '压测多公司管理员', passwordHash, userSex: '男', userMobile: '13900000000', userEmail: '', isLock: 'N',
    deptId: depts[0]!, roleId: RoleId.companyAdmin, systemNo: 'huiyun', addUser: '', editUser: '', addTime: now, editTime: now,
  }).returning('userId').executeTakeFirstOrThrow();
  await db.insertInto('sys_user_dept').values(depts.slice(1, SCOPED_COMPANIES).map((deptId) => ({ userId: scopedAdminId, deptId }))).execute();
  const firstUser = (await db.selectFrom('sys_user').select('userId').where('userName', '=', `${ACCOUNTS[0]}0`).executeTakeFirstOrThrow()).userId;
  await bulkInsert(server, 'sync_task', [
    { name: 'taskName', ...text }, { name: 'showType', ...int }, { name: 'content', ...text }, { name: 'imgUrl', ...text }, { name: 'fileNo', ...text },
    { name: 'fileName', ...text }, { name: 'qrUrl', ...text }, { name: 'taskStatus', ...int }, { name: 'singleSendNumDay', ...int },
    { name: 'batchSendNum', ...int }, { name: 'batchSendMaxNum', ...int }, { name: 'intervalSeconds', ...int }, { name: 'testNum', ...int },
    { name: 'testPhone', ...text }, { name: 'clearNum', ...int }, { name: 'isRandomNum', ...int }, { name: 'randomPosition', ...int },
    { name: 'userId', ...int }, { name: 'deptId', ...int }, { name: 'addTime', ...big }, { name: 'editTime', ...big },
  ], TASKS, (i) => [
    `${PRODUCTS[i % 10]}推广${i}`, 1, '您好，欢迎光临', '', '', '', 'http://', i % 3, 300, 10, 10, 1, 0, '', 0, 0, 0,
    firstUser + (i % USERS), depts[i % COMPANIES]!, now - (TASKS - i) * 60_000, now - (TASKS - i) * 60_000,
  ]);
  // 0–3 devices a task (1.5 on average), as 任务列表 shows them: the page reads each row's machineCodeList.
  const firstTask = (await db.selectFrom('sync_task').select('taskId').where('taskName', '=', `${PRODUCTS[0]}推广0`).executeTakeFirstOrThrow()).taskId;
  const devicesOf = (i: number) => i % 4;
  const deviceRows: [number, number][] = [];
  for (let i = 0; i < TASKS; i++) for (let j = 0; j < devicesOf(i); j++) deviceRows.push([i, j]);
  await bulkInsert(server, 'sync_task_device', [{ name: 'taskId', ...int }, { name: 'machineCode', ...text }], deviceRows.length, (n) => {
    const [i, j] = deviceRows[n]!;
    return [firstTask + i, `M${String((i * 7 + j * 1_231) % 5_000).padStart(4, '0')}`];
  });
  step('tasks');
  if (!only || only.includes('oper')) await bulkInsert(server, 'sys_oper_log', [
    { name: 'userId', ...int }, { name: 'userName', ...text }, { name: 'deptId', ...int }, { name: 'module', ...text }, { name: 'action', ...text },
    { name: 'target', ...text }, { name: 'method', ...text }, { name: 'url', ...text }, { name: 'ip', ...text }, { name: 'success', ...int },
    { name: 'message', ...text }, { name: 'costMs', ...int }, { name: 'operTime', ...big },
  ], LOGS, (i) => {
    const k = (i * 7_919) % 1000;
    return [firstUser + k, ACCOUNTS[k]!, depts[k]!, MODULES[i % MODULES.length]!, ACTIONS[i % ACTIONS.length]!, `#${i}`, 'POST', '/api/User/save',
      `10.${k % 256}.${i % 256}.${i % 7}`, i % 20 === 0 ? 0 : 1, '', i % 50, now - (LOGS - i) * LOG_SPACING_MS];
  });
  step('operation log');
  if (!only || only.includes('login')) await bulkInsert(server, 'sys_login_log', [
    { name: 'userName', ...text }, { name: 'userId', ...int }, { name: 'deptId', ...int }, { name: 'ip', ...text }, { name: 'userAgent', ...text },
    { name: 'success', ...int }, { name: 'message', ...text }, { name: 'loginTime', ...big },
  ], LOGS, (i) => {
    const k = (i * 7_919) % 1000;
    return [ACCOUNTS[k]!, firstUser + k, depts[k]!, `10.${k % 256}.${(i >> 8) % 256}.${i % 256}`, AGENTS[i % 2]!, i % 10 === 0 ? 0 : 1, '', now - (LOGS - i) * LOG_SPACING_MS];
  });
}
