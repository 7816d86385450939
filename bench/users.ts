// The list benchmark: 100,000 users across 1,000 companies; page 1 and page 500 of
// /api/User/list with a name filter at 50 concurrent connections, beside the same SQL run raw
// through the driver in the same run.  npm run bench -- users   (BENCH_DB=postgres for PostgreSQL)
import { sql } from 'kysely';
import { listUsers } from '../server/src/modules/system/user/index.ts';
import { captureQueries, replayThroughDriver } from './lib/capture-sql.ts';
import { listPageProblems, measureServedHttp, printTable, reportLoadRecount, type Figures, type ListAnswer } from './lib/measure.ts';
import { benchNumber } from './lib/smoke.ts';
import { ADMIN_PASSWORD, loginAs, servingProcess, startBenchServer } from './lib/server.ts';

const COMPANIES = 1_000;
const USERS = benchNumber('BENCH_USERS', 100_000, 3_000);
const SECONDS = benchNumber('BENCH_SECONDS', 10, 0.05);
const CONNECTIONS = benchNumber('BENCH_CONNECTIONS', 50, 2);
const FAR_PAGE = benchNumber('BENCH_FAR_PAGE', 500, 20);
const FILTER = 'bench_1'; // companies 1, 10–19, 100–199, 1000: about 11% of the users

const server = await startBenchServer();
const { db } = server.ctx;
console.log(`Seeding ${COMPANIES} companies and ${USERS} users on ${server.dbKind}…`);
const seedStart = performance.now();
const now = Date.now();
const { passwordHash } = await db.selectFrom('sys_user').select('passwordHash').where('userId', '=', 1).executeTakeFirstOrThrow();
await db.transaction().execute(async (trx) => {
  const depts = Array.from({ length: COMPANIES }, (_, i) => ({
    deptName: `压测公司${i + 1}`, deptNo: `BENCH${i + 1}`, parentId: 0, addUser: 'bench', editUser: 'bench', addTime: now, editTime: now,
  }));
  const deptIds: number[] = [];
  for (let i = 0; i < depts.length; i += 500) {
    const rows = await trx.insertInto('sys_dept').values(depts.slice(i, i + 500)).returning('deptId').execute();
    deptIds.push(...rows.map((r) => r.deptId));
  }
  const batch = 1_000;
  for (let start = 0; start < USERS; start += batch) {
    const rows = Array.from({ length: Math.min(batch, USERS - start) }, (_, k) => {
      const n = start + k;
      const company = n % COMPANIES;
      return {
        userName: `bench_${company + 1}_${n}`, userRealName: `压测用户${n}`, passwordHash, userSex: n % 2 ? '男' : '女',
        userMobile: `138${String(n).padStart(8, '0')}`, userEmail: `u${n}@bench.local`, isLock: 'N', deptId: deptIds[company],
        roleId: 2, systemNo: 'huiyun', addUser: 'bench', editUser: 'bench', addTime: now + n, editTime: now + n,
      };
    });
    await trx.insertInto('sys_user').values(rows).execute();
  }
});
if (server.dbKind === 'postgres') await sql`analyze`.execute(db);
console.log(`Seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

const serving = await servingProcess(server);
const token = await loginAs(serving, 'admin', ADMIN_PASSWORD);
const results: Figures[] = [];
const content: string[] = [];
// the users the name filter finds, counted here apart from the list's code (a part of the name, any case)
const counted = (await db.selectFrom('sys_user').select('userName').execute()).filter((u) => u.userName.toLowerCase().includes(FILTER)).length;
for (const pageNo of [1, FAR_PAGE]) {
  const body = { page: pageNo, limit: 10, userName: FILTER };
  const probe = await fetch(`${serving.url}/api/User/list`, { method: 'POST', headers: { 'content-type': 'application/json', token }, body: JSON.stringify(body) });
  const expectBody = await probe.text();
  const answer = JSON.parse(expectBody) as ListAnswer;
  if (!answer.success || !answer.data?.length) throw new Error(`unexpected answer for page ${pageNo}: ${JSON.stringify(answer).slice(0, 200)}`);
  console.log(`page ${pageNo}: total ${answer.total}, ${answer.data.length} rows`);
  content.push(...listPageProblems(`page ${pageNo}`, answer, pageNo, 10, answer.totalBounded ? undefined : counted));
  results.push(await measureServedHttp(`HTTP /api/User/list page ${pageNo}`, { url: `${serving.url}/api/User/list`, body, token, connections: CONNECTIONS, seconds: SECONDS, expectBody }, serving.pid));
  results.push(await measureRaw(pageNo));
}
reportLoadRecount(results, content);
printTable(`/api/User/list, ${USERS} users / ${COMPANIES} companies, name filter '${FILTER}', ${CONNECTIONS} connections, ${server.dbKind}`, results);
await serving.stop();
await server.close();

/** The statements listUsers runs for this page (count, then the rows), replayed straight through the driver. */
async function measureRaw(pageNo: number): Promise<Figures> {
  const query = { page: pageNo, limit: 10, userName: FILTER, userMobile: '', isLock: '' as const, sortField: '', sortOrder: '' as const };
  const statements = await captureQueries(server, (capturing) => listUsers(capturing, 'all', query));
  const label = `raw driver, same SQL, page ${pageNo}`;
  return replayThroughDriver(server, statements, label, { concurrency: CONNECTIONS, seconds: SECONDS });
}
