import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { entities, invalidateEntity, keysChangedBy, queryKeys, shownIn } from './queryKeys.ts';
import { roleOptionsQuery } from './role.ts';

/** A client holding one list page and the dropdowns of the screens that share them. */
function clientWithScreens() {
  const client = new QueryClient();
  const keys = {
    roleList: queryKeys.list('role', { page: 1, limit: 10 }),
    roleSelect: roleOptionsQuery.queryKey,
    userList: queryKeys.list('user', { page: 1, limit: 10 }),
    companyTree: queryKeys.options('dept', 'companyTree'),
    taskDevices: queryKeys.options('device', 'me'),
    authcodeOwners: queryKeys.options('user', 'taskUsers'),
    authcodeList: queryKeys.list('authcode', { page: 1, limit: 10 }),
  };
  for (const key of Object.values(keys)) client.setQueryData(key, []);
  const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
  return { client, keys, invalidated };
}

describe('query keys', () => {
  it('key every list and dropdown by its entity first, so one prefix reaches them all', () => {
    expect(queryKeys.list('role', { page: 2 })).toEqual(['role', 'list', { page: 2 }]);
    expect(queryKeys.options('device', 7)).toEqual(['device', 'options', 7]);
    expect(roleOptionsQuery.queryKey).toEqual(['role', 'options']);
  });

  it('name only known entities in what a change makes stale', () => {
    for (const [entity, others] of Object.entries(shownIn)) {
      expect(entities).toContain(entity);
      for (const other of others ?? []) expect(entities, `${entity} → ${other}`).toContain(other);
    }
    expect(keysChangedBy('variable')).toEqual([['variable']]);
  });

  it('a role saved in 角色管理 makes 新增用户\'s role select and the user list stale, nothing unrelated', async () => {
    const { client, keys, invalidated } = clientWithScreens();
    await invalidateEntity(client, 'role');
    expect(invalidated(keys.roleSelect)).toBe(true);
    expect(invalidated(keys.roleList)).toBe(true);
    expect(invalidated(keys.userList)).toBe(true);
    expect(invalidated(keys.companyTree)).toBe(false);
    expect(invalidated(keys.taskDevices)).toBe(false);
  });

  it('a new company reaches the company tree; a new account the owner picker of 授权码', async () => {
    const dept = clientWithScreens();
    await invalidateEntity(dept.client, 'dept');
    expect(dept.invalidated(dept.keys.companyTree)).toBe(true);
    expect(dept.invalidated(dept.keys.roleSelect)).toBe(false);

    const user = clientWithScreens();
    await invalidateEntity(user.client, 'user');
    expect(user.invalidated(user.keys.authcodeOwners)).toBe(true);
    expect(user.invalidated(user.keys.roleList)).toBe(true); // its user counts
  });

  it('a code made or deleted reaches the device picker of the task dialog', async () => {
    const { client, keys, invalidated } = clientWithScreens();
    await invalidateEntity(client, 'authcode');
    expect(invalidated(keys.authcodeList)).toBe(true);
    expect(invalidated(keys.taskDevices)).toBe(true);
  });
});
