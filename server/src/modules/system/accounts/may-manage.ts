import type { Kysely } from 'kysely';
import { messages, RoleId } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { assertDeptInScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { forbidden, notFound } from '../../../http/errors.ts';
import { findAccount, findAccountByName, type Account } from './find.ts';

/**
 * May the caller change this account? Only inside its data scope (PRODUCT §3), and only the super
 * administrator touches a super administrator. Refuses with 403, changing nothing.
 */
export function assertMayManage(caller: Access, target: Pick<Account, 'deptId' | 'roleId'>): void {
  assertDeptInScope(caller.deptScope, target.deptId);
  if (target.roleId === RoleId.superAdmin && !caller.isSuperAdmin) throw forbidden(messages.user.superAdminProtected);
}

/** The account the caller may manage: 404 with `notFoundMessage` when there is none, 403 per assertMayManage. */
export async function manageableAccount(db: Kysely<Database>, caller: Access, userId: number, notFoundMessage: string): Promise<Account> {
  const target = await findAccount(db, userId);
  if (!target) throw notFound(notFoundMessage);
  assertMayManage(caller, target);
  return target;
}

/** manageableAccount, found by name. */
export async function manageableAccountByName(db: Kysely<Database>, caller: Access, userName: string, notFoundMessage: string): Promise<Account> {
  const target = await findAccountByName(db, userName);
  if (!target) throw notFound(notFoundMessage);
  assertMayManage(caller, target);
  return target;
}
