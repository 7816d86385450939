import type { Key } from 'react';
import type { TreeDataNode } from 'antd';
import { actionLabel, type RoleGrantTree } from '@huiyun/contract';

// The 菜单权限 tree's rules, without UI: groups → screens → each screen's actions (permission codes).
// Ticking a screen ticks its actions (antd's tree conduction); any action ticked keeps its screen's 查询
// ticked; a screen is granted when any of its actions is (or, having none, when it is ticked itself).

export const moduleKey = (moduleId: number): Key => `m${moduleId}`;
export const actionKey = (permissionId: number): Key => `p${permissionId}`;

/** The flat grant tree as antd tree data: modules by pId, each screen's actions under it. */
export function toTreeData(tree: RoleGrantTree): TreeDataNode[] {
  const ids = new Set(tree.modules.map((n) => n.id));
  const childrenOf = new Map<Key, TreeDataNode[]>();
  const add = (parent: Key, node: TreeDataNode) => (childrenOf.get(parent) ?? childrenOf.set(parent, []).get(parent)!).push(node);
  const roots: TreeDataNode[] = [];
  for (const node of tree.modules) {
    const item: TreeDataNode = { key: moduleKey(node.id), title: node.name };
    if (ids.has(node.pId)) add(moduleKey(node.pId), item);
    else roots.push(item);
  }
  for (const action of tree.actions) add(moduleKey(action.moduleId), { key: actionKey(action.permissionId), title: actionLabel(action.permissionName), isLeaf: true });
  const attach = (items: TreeDataNode[]): TreeDataNode[] =>
    items.map((item) => {
      const kids = childrenOf.get(item.key);
      return kids ? { ...item, children: attach(kids) } : item;
    });
  return attach(roots);
}

/** The keys of the tree's leaves: actions, and screens without actions. Only these are kept as ticks. */
function leafKeys(tree: RoleGrantTree): Set<Key> {
  const parents = new Set([...tree.modules.map((n) => n.pId), ...tree.actions.map((a) => a.moduleId)]);
  return new Set([...tree.modules.filter((n) => !parents.has(n.id)).map((n) => moduleKey(n.id)), ...tree.actions.map((a) => actionKey(a.permissionId))]);
}

/** Any action ticked keeps its screen's 查询 ticked: a screen without it answers 没有权限执行此操作. */
export function withListTicks(tree: RoleGrantTree, keys: Iterable<Key>): Key[] {
  const leaves = leafKeys(tree);
  const ticked = new Set([...keys].filter((key) => leaves.has(key)));
  for (const action of tree.actions) {
    if (action.isList || !ticked.has(actionKey(action.permissionId))) continue;
    const list = tree.actions.find((a) => a.moduleId === action.moduleId && a.isList);
    if (list) ticked.add(actionKey(list.permissionId));
  }
  return [...ticked];
}

/**
 * The ticks a role's grants show: its codes, and its screens without codes. A screen held with none of
 * its codes (granted before screens and codes were one act) shows its 查询 ticked, so saving repairs it.
 */
export function initialTicks(tree: RoleGrantTree): Key[] {
  const keys: Key[] = tree.actions.filter((a) => a.checked).map((a) => actionKey(a.permissionId));
  for (const screen of tree.modules.filter((n) => n.checked)) {
    const actions = tree.actions.filter((a) => a.moduleId === screen.id);
    if (actions.length === 0) keys.push(moduleKey(screen.id));
    else if (!actions.some((a) => a.checked)) {
      const list = actions.find((a) => a.isList);
      if (list) keys.push(actionKey(list.permissionId));
    }
  }
  return withListTicks(tree, keys);
}

/** What a save sends: the granted screens (the server adds their groups) and the ticked codes. */
export function toGrants(tree: RoleGrantTree, keys: Key[]): { moduleIds: number[]; permissionIds: number[] } {
  const ticked = new Set(withListTicks(tree, keys));
  const permissionIds = tree.actions.filter((a) => ticked.has(actionKey(a.permissionId))).map((a) => a.permissionId);
  const withActions = new Set(tree.actions.filter((a) => ticked.has(actionKey(a.permissionId))).map((a) => a.moduleId));
  const moduleIds = tree.modules.filter((n) => withActions.has(n.id) || ticked.has(moduleKey(n.id))).map((n) => n.id);
  return { moduleIds, permissionIds };
}
