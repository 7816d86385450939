import { describe, expect, it } from 'vitest';
import { contains } from '../list/search.ts';
import { useDatabaseBefore } from '../../test/migration-test-support.ts';

describe('migration 0020_log_user_names', () => {
  const schema = useDatabaseBefore('0019_pay_alarm_scope');

  it("lists the user names the logs hold already, once each, and keeps the login log's ip searchable", async () => {
    await schema.migrate();
    const db = schema.db();
    const login = (userName: string, ip: string, loginTime: number) => ({ userName, userId: null, deptId: null, ip, userAgent: '', success: 1, message: '', loginTime });
    await db.insertInto('sys_login_log').values([login('wangfang', '10.3.7.1', 1), login('WangFang', '192.168.0.9', 2), login('wangfang', '10.3.8.1', 3)]).execute();
    await db.insertInto('sys_oper_log').values({ userId: null, userName: 'liwei', deptId: null, module: '用户管理', action: '新增', target: '', method: 'POST', url: '', ip: '', success: 1, message: '', costMs: 0, operTime: 4 }).execute();
    await schema.finish();
    expect((await db.selectFrom('sys_login_log_user_names').select('value').orderBy('value').execute()).map((r) => r.value)).toEqual(['WangFang', 'wangfang'].sort());
    expect((await db.selectFrom('sys_oper_log_user_names').select('value').execute()).map((r) => r.value)).toEqual(['liwei']);
    const logins = async (column: 'userName' | 'ip', text: string) =>
      (await db.selectFrom('sys_login_log').select('loginTime').where(contains(db as never, 'sys_login_log', column, text).condition).orderBy('loginTime').execute()).map((r) => Number(r.loginTime));
    expect(await logins('userName', 'gfan')).toEqual([1, 2, 3]);
    expect(await logins('ip', '10.3.')).toEqual([1, 3]);
    // written after the migration: listed by the trigger
    await db.insertInto('sys_login_log').values(login('zhangsan', '10.0.0.1', 5)).execute();
    expect(await logins('userName', 'angsa')).toEqual([5]);
  });
});
