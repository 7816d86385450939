// The front door of modules/system/accounts: what other areas, app.ts and the tools may import from it.
export { assertUserNameFree, createAccount } from './create.ts';
export { findAccount } from './find.ts';
export type { Account } from './find.ts';
export { assertMayManage, manageableAccount, manageableAccountByName } from './may-manage.ts';
export { seedAccounts } from './seed.ts';
