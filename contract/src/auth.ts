import { z } from 'zod';
import { typedText } from './fields.ts';
import { login, password } from './messages.ts';
import type * as systemAnswers from './responses/system.ts';

export const loginRequest = z.object({
  userName: typedText(login.accountRequired, { invalid: login.badCredentials }).trim().min(1, login.accountRequired).max(64, login.badCredentials),
  passwd: z.string({ error: login.passwordRequired }).min(1, login.passwordRequired).max(128, login.badCredentials),
  /** 记住密码: keep the session across browser restarts (longer idle timeout); never the password. */
  remember: z.preprocess((v) => v === true || v === 'true' || v === 1 || v === '1', z.boolean()).default(false),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export type LoginAnswer = z.output<typeof systemAnswers.loginAnswer>;

export type MenuNode = z.output<typeof systemAnswers.menuNode>;

export type CurrentUser = z.output<typeof systemAnswers.currentUser>;

/**
 * 个人中心 (GET /sync/profile): the caller's own account. The last login is the successful login
 * before the latest one (登录日志), so an operator sees whether someone else used the account.
 */
export type UserProfile = z.output<typeof systemAnswers.userProfile>;

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
