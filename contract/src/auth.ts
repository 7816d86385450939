import { z } from 'zod';
import { typedText } from './fields.ts';
import { login, password } from './messages.ts';

export const loginRequest = z.object({
  userName: typedText(login.accountRequired, { invalid: login.badCredentials }).trim().min(1, login.accountRequired).max(64, login.badCredentials),
  passwd: z.string({ error: login.passwordRequired }).min(1, login.passwordRequired).max(128, login.badCredentials),
  /** 记住密码: keep the session across browser restarts (longer idle timeout); never the password. */
  remember: z.preprocess((v) => v === true || v === 'true' || v === 1 || v === '1', z.boolean()).default(false),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export type LoginAnswer = { token: string; userId: number; code: 0 | 1 };

export type MenuNode = {
  moduleId: number;
  parentId: number;
  moduleName: string;
  moduleIcon: string;
  moduleUrl: string;
  moduleOrder: number;
  children: MenuNode[];
};

export type CurrentUser = {
  userId: number;
  userName: string;
  userRealName: string;
  code: 0 | 1;
  roleId: number;
  roleName: string;
  deptId: number | null;
  deptName: string;
  menus: MenuNode[];
  permissions: string[];
};

/**
 * 个人中心 (GET /sync/profile): the caller's own account. The last login is the successful login
 * before the latest one (登录日志), so an operator sees whether someone else used the account.
 */
export type UserProfile = {
  userId: number;
  userName: string;
  userRealName: string;
  userMobile: string;
  userEmail: string;
  deptName: string;
  roleName: string;
  /** 'YYYY-MM-DD HH:mm:ss' (Asia/Shanghai), '' when there was none. */
  lastLoginTime: string;
  lastLoginIp: string;
};

export const passwordChangeRequest = z
  .object({
    userId: z.unknown().optional(),
    userName: z.unknown().optional(),
    oldPasswd: z.string({ error: password.oldRequired }).min(1, password.oldRequired),
    passwd: z.string({ error: password.newRequired }).min(1, password.newRequired).min(6, password.tooShort).max(64, password.tooLong),
    confirmPasswd: z.string({ error: password.confirmRequired }).min(1, password.confirmRequired),
  })
  .refine((v) => v.passwd === v.confirmPasswd, { message: password.mismatch, path: ['confirmPasswd'] })
  .refine((v) => v.passwd !== v.oldPasswd, { message: password.sameAsOld, path: ['passwd'] });
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequest>;
