import { z } from 'zod';
import { common, user as m } from './messages.ts';
import { LockStatus, sexOptions } from './enums.ts';
import { grantIdList, idListOf, idOf, levelOf, optionalId, optionalText, pageQuery, pathIdOf, requiredId, requiredText, typedText } from './fields.ts';
import type * as systemAnswers from './responses/system.ts';

/**
 * Mainland mobile numbers as the user form checks them (SPEC §5, this form only): 11 digits starting
 * 13x, 147, 15x but not 154, 170, 171, 176–178 or 18x.
 */
export const userMobilePattern = /^(?:13\d|147|15[0-35-9]|17[01678]|18\d)\d{8}$/;
export const userEmailPattern = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
/** Account names travel in URL paths (强制下线 / 刷新缓存), so no spaces, slashes or other specials. */
export const userNamePattern = /^[A-Za-z0-9_.@-]+$/;

export const userSave = z.object({
  userId: optionalId,
  userName: requiredText(m.userNameRequired, 64, m.tooLong).regex(userNamePattern, m.userNameFormat),
  userRealName: requiredText(m.userRealNameRequired, 64, m.tooLong),
  roleId: idOf(m.roleRequired),
  userSex: typedText(m.sexRequired).refine((v) => sexOptions.some((o) => o.value === v), m.sexRequired),
  userMobile: requiredText(m.mobileRequired, 20, m.mobileFormat).regex(userMobilePattern, m.mobileFormat),
  userEmail: requiredText(m.emailRequired, 128, m.tooLong).regex(userEmailPattern, m.emailFormat),
  /** New users default to the caller's company; 部门设置 moves them later. */
  deptId: optionalId,
});
export type UserSave = z.infer<typeof userSave>;

export const userListQuery = pageQuery.extend({
  isLock: z.preprocess((v) => (v == null ? '' : v), z.enum(['', LockStatus.normal, LockStatus.locked], { error: m.lockValue })),
  userName: optionalText(64),
  userMobile: optionalText(20),
});
export type UserListQuery = z.infer<typeof userListQuery>;

export const userLockRequest = z.object({
  userId: requiredId,
  lock: z.enum([LockStatus.normal, LockStatus.locked], { error: m.lockValue }),
});

export const userIdRequest = z.object({ userId: requiredId });
/** GET /api/UserDept/tree/{userId}. */
export const userIdParams = z.object({ userId: pathIdOf(common.badParameter) });

export const userChangeDeptRequest = z.object({
  userIds: idListOf(m.usersRequired),
  deptId: idOf(m.deptRequired),
  /** Sent by the original screen; the server names the company from its own table. */
  deptName: optionalText(100),
});

export const userDeptSaveRequest = z.object({
  userId: requiredId,
  /** The granted companies, '[1,2]' as the original sent them or an array; empty clears the grants. */
  deptIds: grantIdList,
});

/** GET /api/UserDept/deptTree/{parentId}: 0 for every company the caller may see. */
export const userDeptTreeParams = z.object({
  parentId: levelOf(common.badParameter),
});

/** GET /api/User/expireToken/{userName} and flashCache/{userName}: the account named in the path. */
export const userNameParams = z.object({ userName: typedText(m.notFound).trim().min(1, m.notFound).max(64, m.notFound) });

export type User = z.output<typeof systemAnswers.userRow>;

/** Answer of POST /api/User/save: initialPassword only when an account was created (shown once). */
export type UserSaveAnswer = z.output<typeof systemAnswers.userSaveAnswer>;

/** Answer of POST /api/User/pwd: the new temporary password, shown once. */
export type UserPasswordReset = z.output<typeof systemAnswers.userPasswordReset>;

/** One company of the data-permission and department trees (SPEC §3 permission tree node). */
export type UserDeptNode = z.output<typeof systemAnswers.userDeptNode>;

/** The list's sortable fields (the server's sort whitelist); addTime is the default order, sortable by API only. */
export const userSortFields = ['userName', 'userRealName', 'userMobile', 'isLock', 'deptName', 'roleName', 'editUser', 'editTime', 'addTime'] as const;
