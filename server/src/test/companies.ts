import { RoleId } from '@huiyun/contract';
import { ADMIN_PASSWORD, USER_PASSWORD, type TestApp } from './harness.ts';

// The companies and accounts a data-scope test is played by: who may see and change what.

/** A company of its own with a company administrator of it, logged in: the "other company" of a test. */
export async function companyWithAdmin(t: TestApp, deptName: string, deptNo: string, userName: string): Promise<{ deptId: number; token: string }> {
  const deptId = await t.createCompany(deptName, deptNo);
  await t.createUser({ userName, roleId: RoleId.companyAdmin, deptId });
  return { deptId, token: await t.login(userName, USER_PASSWORD) };
}

export type TwoCompanies = { companyA: number; companyB: number; admin: string; adminA: string; adminB: string; userA: string };

/**
 * Companies `${label}A公司` and `${label}B公司`, an administrator of each (`${prefix}_adminA`, `${prefix}_adminB`)
 * and an ordinary user of A (`${prefix}_userA`), with their tokens and the super administrator's (`admin`).
 */
export async function twoCompanies(t: TestApp, prefix: string, label: string): Promise<TwoCompanies> {
  const deptNo = prefix.toUpperCase();
  const a = await companyWithAdmin(t, `${label}A公司`, `${deptNo}_A`, `${prefix}_adminA`);
  const b = await companyWithAdmin(t, `${label}B公司`, `${deptNo}_B`, `${prefix}_adminB`);
  await t.createUser({ userName: `${prefix}_userA`, roleId: RoleId.ordinaryUser, deptId: a.deptId });
  return {
    companyA: a.deptId,
    companyB: b.deptId,
    admin: await t.login('admin', ADMIN_PASSWORD),
    adminA: a.token,
    adminB: b.token,
    userA: await t.login(`${prefix}_userA`, USER_PASSWORD),
  };
}
