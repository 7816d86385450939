import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/** What a write about an account needs: enough to check scope (deptId) and the protections (roleId). */
export type Account = { userId: number; userName: string; deptId: number | null; roleId: number };

/** The account with this id, or undefined. */
export async function findAccount(db: Kysely<Database>, userId: number): Promise<Account | undefined> {
  return db.selectFrom('sys_user').select(['userId', 'userName', 'deptId', 'roleId']).where('userId', '=', userId).executeTakeFirst();
}

/** The account with this name, or undefined. */
export async function findAccountByName(db: Kysely<Database>, userName: string): Promise<Account | undefined> {
  return db.selectFrom('sys_user').select(['userId', 'userName', 'deptId', 'roleId']).where('userName', '=', userName).executeTakeFirst();
}
