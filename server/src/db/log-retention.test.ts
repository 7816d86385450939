import { describe, expect, it } from 'vitest';
import { migrateToLatest } from './migrate.ts';
import { startLogRetention, sweepExpiredLogs } from './log-retention.ts';
import { useTestDatabase } from '../test/use-test-database.ts';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 24, 4, 0, 0);

describe('log retention', () => {
  const t = useTestDatabase();

  async function freshLogs() {
    const { db } = t();
    await migrateToLatest(db);
    await db.deleteFrom('sys_oper_log').execute();
    await db.deleteFrom('sys_login_log').execute();
    await db.deleteFrom('sys_variable').where('varName', '=', 'old_var').execute();
    // 25 entries of each log a day old each: ages 0 … 24 days, oldest first.
    const ages = Array.from({ length: 25 }, (_, k) => 24 - k);
    await db.insertInto('sys_oper_log').values(ages.map((age) => ({
      userId: null, userName: `u${age}`, deptId: null, module: '用户管理', action: '新增', target: '', method: 'POST', url: '', ip: '', success: 1, message: '', costMs: 0, operTime: now - age * DAY - 1,
    }))).execute();
    await db.insertInto('sys_login_log').values(ages.map((age) => ({ userName: `u${age}`, userId: null, deptId: null, ip: '', userAgent: '', success: 1, message: '', loginTime: now - age * DAY - 1 }))).execute();
    await db.insertInto('sys_variable').values({ varLable: '旧变量', varName: 'old_var', varValue: 'x', deptId: null, addUser: '', editUser: '', addTime: now - 400 * DAY, editTime: now - 400 * DAY }).execute();
  }

  it('deletes the entries older than the setting, in batches, keeps the newer ones and touches nothing else', async () => {
    await freshLogs();
    const { db } = t();
    let pauses = 0;
    const deleted = await sweepExpiredLogs(db, { before: now - 10 * DAY, batchSize: 4, pause: async () => void (pauses += 1) });
    // ages 10 … 24 (each 1 ms past its day) are older than 10 days: 15 of each table
    expect(deleted).toEqual({ sys_oper_log: 15, sys_login_log: 15 });
    expect(pauses).toBe(6); // 4 + 4 + 4 + 3 per table: three pauses each
    const oper = await db.selectFrom('sys_oper_log').select(['userName', 'operTime']).orderBy('operTime').execute();
    expect(oper.map((r) => r.userName)).toEqual(Array.from({ length: 10 }, (_, k) => `u${9 - k}`));
    expect(oper.every((r) => Number(r.operTime) >= now - 10 * DAY)).toBe(true);
    const login = await db.selectFrom('sys_login_log').select('userName').orderBy('loginTime').execute();
    expect(login.map((r) => r.userName)).toEqual(Array.from({ length: 10 }, (_, k) => `u${9 - k}`));
    expect(await db.selectFrom('sys_variable').select('varName').where('varName', '=', 'old_var').executeTakeFirst()).toBeTruthy();
    // the search index followed the deletes: a name filter finds only the entries left
    const { listOperLogs } = await import('../modules/monitor/logs/queries.ts');
    expect((await listOperLogs(db, 'all', { page: 1, limit: 10, userName: 'u12', module: '', success: undefined, beginTime: '', endTime: '', sortField: '', sortOrder: '' })).total).toBe(0);
    expect((await listOperLogs(db, 'all', { page: 1, limit: 10, userName: 'u9', module: '', success: undefined, beginTime: '', endTime: '', sortField: '', sortOrder: '' })).total).toBe(1);
    // a second sweep finds nothing more
    expect(await sweepExpiredLogs(db, { before: now - 10 * DAY })).toEqual({ sys_oper_log: 0, sys_login_log: 0 });
  });

  it('runs with the server: sweeps at start by the setting, and stop ends it', async () => {
    await freshLogs();
    const { db } = t();
    const swept = Promise.withResolvers<Record<string, number>>();
    const retention = startLogRetention(db, { days: 20, now: () => now, onSwept: swept.resolve, onError: swept.reject });
    expect(await swept.promise).toEqual({ sys_oper_log: 5, sys_login_log: 5 });
    await retention.stop();
    expect(Number((await db.selectFrom('sys_oper_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(20);
  });
});
