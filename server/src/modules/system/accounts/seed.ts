import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { RoleId, SUPER_ADMIN_USER_ID } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { resyncSerial } from '../../../db/seed.ts';
import { randomPassword } from '../auth/index.ts';
import { createAccount } from './create.ts';
import { findAccount, findAccountByName } from './find.ts';

export type SeedAccountsOptions = {
  /** The company the seeded accounts belong to (the demo company of db/seed.ts). */
  deptId: number;
  adminPassword?: string;
  dataDir: string;
  e2eSeed?: boolean;
  log: (message: string) => void;
  now?: number;
};

/**
 * The accounts every installation starts with, run at every start after db/seed.ts (server/src/seed.ts):
 * account 1 `admin`, the super administrator, with ADMIN_PASSWORD or a random password written once
 * to DATA_DIR/initial-admin-password.txt; with E2E_SEED=1 the end-to-end suite's ordinary user. An
 * existing account is never touched (its password stays what its owner made it).
 */
export async function seedAccounts(db: Kysely<Database>, options: SeedAccountsOptions): Promise<void> {
  const now = options.now ?? Date.now();
  await db.transaction().execute(async (trx) => {
    await seedAdmin(trx, options, now);
    if (options.e2eSeed && !(await findAccountByName(trx, 'user1'))) {
      await createAccount(trx, {
        userName: 'user1', userRealName: '测试用户', password: 'User@12345', userSex: '女', userMobile: '13800000001',
        userEmail: 'user1@example.com', deptId: options.deptId, roleId: RoleId.ordinaryUser, addUser: 'system', now,
      });
    }
  });
  // Account 1 is inserted with its id, which does not move PostgreSQL's serial sequence.
  await resyncSerial(db, 'sys_user', 'userId');
}

async function seedAdmin(trx: Kysely<Database>, options: SeedAccountsOptions, now: number) {
  if (await findAccount(trx, SUPER_ADMIN_USER_ID)) return;
  const generated = !options.adminPassword;
  const password = options.adminPassword ?? randomPassword(16);
  await createAccount(trx, {
    userId: SUPER_ADMIN_USER_ID, userName: 'admin', userRealName: '超级管理员', password, userSex: '男',
    deptId: options.deptId, roleId: RoleId.superAdmin, addUser: 'system', now,
  });
  if (generated) {
    const file = path.join(options.dataDir, 'initial-admin-password.txt');
    fs.mkdirSync(options.dataDir, { recursive: true });
    fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
    options.log(`Initial password of account admin: ${password} (also written to ${file}; change it after the first login)`);
  }
}
