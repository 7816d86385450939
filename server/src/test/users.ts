import { RoleId } from '@huiyun/contract';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './harness.ts';

// Helpers of the user-management tests (not used by the server).

/** A valid body of 新增用户 (without userName). */
export const validUser = { userRealName: '张三', roleId: RoleId.ordinaryUser, userSex: '男', userMobile: '13800138000', userEmail: 'zhang@example.com' };

/** What a user test file shares: its app, three companies and the tokens of their administrators. */
export type UserTestApp = {
  t: TestApp;
  /** The super administrator (account 1). */
  admin: string;
  demoDeptId: number;
  otherDeptId: number;
  thirdDeptId: number;
  /** Company administrator of the demo company (the one account 1 lives in). */
  demoAdmin: string;
  demoAdminId: number;
  /** Company administrator of another company. */
  otherAdmin: string;
  otherAdminId: number;
  list: (token: string, body?: Record<string, unknown>) => ReturnType<TestApp['call']>;
  save: (token: string, body: Record<string, unknown>) => ReturnType<TestApp['call']>;
  userRow: (userId: number) => Promise<Record<string, unknown> | undefined>;
  /** Whether a session token still answers. */
  isLive: (token: string) => Promise<boolean>;
};

export async function startUserTestApp(): Promise<UserTestApp> {
  const t = await startTestApp();
  const admin = await t.login('admin', ADMIN_PASSWORD);
  const demoDeptId = (await t.ctx.db.selectFrom('sys_dept').select('deptId').where('deptNo', '=', 'DEMO').executeTakeFirstOrThrow()).deptId;
  const otherDeptId = await t.createCompany('另一家公司', 'OTHER');
  const thirdDeptId = await t.createCompany('第三家公司', 'THIRD');
  const demoAdminId = await t.createUser({ userName: 'demoadmin', roleId: RoleId.companyAdmin, deptId: demoDeptId });
  const otherAdminId = await t.createUser({ userName: 'otheradmin', roleId: RoleId.companyAdmin, deptId: otherDeptId });
  const demoAdmin = await t.login('demoadmin', 'User@12345');
  const otherAdmin = await t.login('otheradmin', 'User@12345');
  return {
    t, admin, demoDeptId, otherDeptId, thirdDeptId, demoAdmin, demoAdminId, otherAdmin, otherAdminId,
    list: (token, body = {}) => t.call('POST', '/api/User/list', { token, body: { page: 1, limit: 10, ...body } }),
    save: (token, body) => t.call('POST', '/api/User/save', { token, body }),
    userRow: (userId) => t.ctx.db.selectFrom('sys_user').selectAll().where('userId', '=', userId).executeTakeFirst(),
    isLive: async (token) => (await t.call('GET', '/sync/currentUser', { token })).status === 200,
  };
}
