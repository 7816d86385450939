import { describe, expect, it } from 'vitest';
import type { RoleGrantTree } from '@huiyun/contract';
import { actionKey, initialTicks, moduleKey, toGrants, toTreeData, withListTicks } from './menuRights.ts';

// 任务管理 (1) → 黑名单 (2: 查询 10, 添加 11, 删除 12), 修改密码 (3, no codes); 系统管理 (4) → 角色管理 (5: 查询 20).
function treeOf(held: { modules?: number[]; codes?: number[] } = {}): RoleGrantTree {
  const mod = (id: number, pId: number, name: string) => ({ id, pId, name, open: pId === 0, checked: held.modules?.includes(id) ?? false });
  const act = (permissionId: number, moduleId: number, permissionName: string, isList = false) =>
    ({ permissionId, moduleId, permissionName, permission: `x:${permissionId}`, isList, checked: held.codes?.includes(permissionId) ?? false });
  return {
    modules: [mod(1, 0, '任务管理'), mod(4, 0, '系统管理'), mod(2, 1, '黑名单'), mod(3, 1, '修改密码'), mod(5, 4, '角色管理')],
    actions: [act(10, 2, '黑名单-查询', true), act(11, 2, '黑名单-添加'), act(12, 2, '黑名单-删除'), act(20, 5, '角色管理-查询', true)],
  };
}

describe('the 菜单权限 tree', () => {
  it('hangs each screen\'s actions under it, labelled by the part after -', () => {
    const data = toTreeData(treeOf());
    expect(data.map((n) => n.title)).toEqual(['任务管理', '系统管理']);
    const blacklist = data[0].children![0];
    expect(blacklist.key).toBe(moduleKey(2));
    expect(blacklist.children!.map((n) => [n.key, n.title])).toEqual([[actionKey(10), '查询'], [actionKey(11), '添加'], [actionKey(12), '删除']]);
    expect(data[0].children![1].children).toBeUndefined();
  });

  it('keeps 查询 ticked while any action of its screen is', () => {
    expect(withListTicks(treeOf(), [actionKey(12)]).sort()).toEqual([actionKey(10), actionKey(12)].sort());
    // Parent keys antd reports (fully ticked screens and groups) are not kept.
    expect(withListTicks(treeOf(), [moduleKey(1), moduleKey(3)])).toEqual([moduleKey(3)]);
  });

  it('shows a screen held without codes with its 查询 ticked, so a save repairs it', () => {
    expect(initialTicks(treeOf({ modules: [1, 2, 3] })).sort()).toEqual([actionKey(10), moduleKey(3)].sort());
    expect(initialTicks(treeOf({ modules: [1, 2], codes: [10, 11] })).sort()).toEqual([actionKey(10), actionKey(11)].sort());
  });

  it('saves the screens of the ticked actions, the ticked screens without actions, and the codes', () => {
    const tree = treeOf();
    expect(toGrants(tree, [actionKey(11), moduleKey(3)])).toEqual({ moduleIds: [2, 3], permissionIds: [10, 11] });
    expect(toGrants(tree, [])).toEqual({ moduleIds: [], permissionIds: [] });
  });
});
