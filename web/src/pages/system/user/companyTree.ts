import type { UserDeptNode } from '@huiyun/contract';

export type CompanyTreeNode = { key: number; title: string; children: CompanyTreeNode[] };

/** Flat tree items (id, pId) → antd Tree data; an item whose parent is not listed becomes a root. */
export function toTreeData(items: UserDeptNode[]): CompanyTreeNode[] {
  const nodes = new Map(items.map((item) => [item.id, { key: item.id, title: item.name, children: [] as CompanyTreeNode[] }]));
  const roots: CompanyTreeNode[] = [];
  for (const item of items) {
    const node = nodes.get(item.id)!;
    const parent = item.pId !== item.id ? nodes.get(item.pId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}
