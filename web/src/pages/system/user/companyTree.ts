import { useQuery } from '@tanstack/react-query';
import type { UserDeptNode } from '@huiyun/contract';
import { companyTree } from '../../../api/user.ts';
import { queryKeys } from '../../../api/queryKeys.ts';

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

/**
 * 用户管理's companies (GET /api/UserDept/deptTree/0), for its company field and 部门设置's tree. Not
 * useCompanyOptions: this list is read by 数据权限's and 部门设置's permissions, /api/Dept/choices by
 * the screens that filter by company; and the user dialog offers the field whenever the list has one.
 * `silent`: a failed load leaves the field out without a message (the dialog's tree says it).
 */
export function useCompanyTree(enabled: boolean, { silent = false }: { silent?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.options('dept', 'companyTree'),
    queryFn: companyTree,
    enabled,
    staleTime: 0,
    retry: false,
    ...(silent ? { meta: { silent: true } } : {}),
  });
}
