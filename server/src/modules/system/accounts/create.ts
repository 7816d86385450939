import type { Kysely } from 'kysely';
import { LockStatus, messages } from '@huiyun/contract';
import { AppError, isUniqueViolation } from '../../../db/errors.ts';
import type { Database } from '../../../db/schema.ts';
import { hashPassword } from '../auth/index.ts';

export type NewAccount = {
  userName: string;
  userRealName: string;
  /** Stored as a scrypt hash (auth/password.ts), never as given. */
  password: string;
  roleId: number;
  deptId: number | null;
  /** Who adds it (addUser / editUser) and when. */
  addUser: string;
  now: number;
  userSex?: string;
  userMobile?: string;
  userEmail?: string;
  isLock?: LockStatus;
  /** Only the seed gives an id (account 1); otherwise the database picks it. */
  userId?: number;
};

/** Refuses (用户名已存在) when another account than `exceptUserId` holds the name. */
export async function assertUserNameFree(db: Kysely<Database>, userName: string, exceptUserId?: number): Promise<void> {
  const taken = await db
    .selectFrom('sys_user')
    .select('userId')
    .where('userName', '=', userName)
    .$if(exceptUserId !== undefined, (qb) => qb.where('userId', '!=', exceptUserId!))
    .executeTakeFirst();
  if (taken) throw new AppError(messages.user.userNameTaken);
}

/**
 * Adds an account (用户管理 新增, 用户发送统计 新增账号, the seed's admin): its system number is its
 * role's. Two adds of one name at once: the unique index decides, the loser gets 用户名已存在.
 * Answers the new account's id.
 */
export async function createAccount(db: Kysely<Database>, account: NewAccount): Promise<number> {
  const role = await db.selectFrom('sys_role').select('systemNo').where('roleId', '=', account.roleId).executeTakeFirstOrThrow();
  try {
    const row = await db
      .insertInto('sys_user')
      .values({
        ...(account.userId === undefined ? {} : { userId: account.userId }),
        userName: account.userName, userRealName: account.userRealName, passwordHash: await hashPassword(account.password),
        userSex: account.userSex ?? '', userMobile: account.userMobile ?? '', userEmail: account.userEmail ?? '',
        isLock: account.isLock ?? LockStatus.normal, deptId: account.deptId, roleId: account.roleId, systemNo: role.systemNo,
        addUser: account.addUser, editUser: account.addUser, addTime: account.now, editTime: account.now,
      })
      .returning('userId')
      .executeTakeFirstOrThrow();
    return row.userId;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(messages.user.userNameTaken);
    throw error;
  }
}
