import { describe, expect, it } from 'vitest';
import { AccountCode, Perm, RoleId, SUPER_ADMIN_USER_ID } from '@huiyun/contract';
import { accessAllows } from './useCurrentUser.ts';

const user = (over: { permissions?: string[]; code?: (typeof AccountCode)[keyof typeof AccountCode]; userId?: number; roleId?: number } = {}) => ({
  permissions: over.permissions ?? [Perm.authCodeSave],
  code: over.code ?? AccountCode.ordinary,
  userId: over.userId ?? 7,
  roleId: over.roleId ?? 0,
});

describe('accessAllows (ListPage\'s one check of a button)', () => {
  it('an open Access lets everyone in, even before the user is loaded', () => {
    expect(accessAllows(undefined, {})).toBe(true);
    expect(accessAllows(user(), {})).toBe(true);
  });

  it('a permission needs the code', () => {
    expect(accessAllows(user(), { permission: Perm.authCodeSave })).toBe(true);
    expect(accessAllows(user(), { permission: Perm.authCodeDelete })).toBe(false);
    expect(accessAllows(undefined, { permission: Perm.authCodeSave })).toBe(false);
  });

  it("'administrator' needs an administrator account on top of the code", () => {
    const access = { permission: Perm.authCodeSave, account: 'administrator' } as const;
    expect(accessAllows(user(), access)).toBe(false);
    expect(accessAllows(user({ code: AccountCode.administrator }), access)).toBe(true);
    expect(accessAllows(user({ code: AccountCode.administrator, permissions: [] }), access)).toBe(false);
  });

  it("'accountOne' is account 1 only", () => {
    expect(accessAllows(user({ code: AccountCode.administrator }), { account: 'accountOne' })).toBe(false);
    expect(accessAllows(user({ userId: SUPER_ADMIN_USER_ID }), { account: 'accountOne' })).toBe(true);
  });

  it("'superAdministrator' is the super administrator's role only", () => {
    expect(accessAllows(user({ code: AccountCode.administrator }), { account: 'superAdministrator' })).toBe(false);
    expect(accessAllows(user({ roleId: RoleId.superAdmin }), { account: 'superAdministrator' })).toBe(true);
    expect(accessAllows(undefined, { account: 'superAdministrator' })).toBe(false);
  });
});
