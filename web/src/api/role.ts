import { messages, type Page, type Role, type RoleGrantTree, type RoleOption, type RoleSave } from '@huiyun/contract';
import { queryOptions } from '@tanstack/react-query';
import { download, request, requestPage } from './client.ts';
import { queryKeys } from './queryKeys.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { roleListQuery } from '@huiyun/contract';

const m = messages.role;

export type RoleFilters = FiltersOf<typeof roleListQuery, 'roleName' | 'roleNo'>;

export async function listRoles(params: ListParams<RoleFilters>): Promise<Page<Role>> {
  return requestPage<Role>('/api/Role/list', { body: params, failText: m.loadFailed });
}

/** Answers the server's success text ('角色保存成功！'). */
export async function saveRole(input: Partial<RoleSave>): Promise<string> {
  const answer = await request('/api/Role/save', { body: input, failText: m.saveFailed });
  return answer.msg || m.saved;
}

export async function deleteRoles(ids: number[]): Promise<string> {
  const answer = await request('/api/Role/delete', { method: 'DELETE', query: { ids: ids.join(',') }, failText: m.deleteFailed });
  return answer.msg || m.deleted;
}

export function exportRoles(params: Omit<ListParams<RoleFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/Role/export', { body: params, fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}

/** The role choices of the user form and of 权限管理 (GET /api/Role/dropDown/all). */
export async function roleDropDown(): Promise<RoleOption[]> {
  const answer = await request<RoleOption[]>('/api/Role/dropDown/all', { failText: m.loadFailed });
  return answer.data ?? [];
}

/** The one role dropdown query of every screen: a role saved or deleted anywhere reloads it (api/queryKeys.ts). */
export const roleOptionsQuery = queryOptions({ queryKey: queryKeys.options('role'), queryFn: roleDropDown, staleTime: 60_000 });

/** 菜单权限: the menu tree with each screen's permission codes under it, ticked where the role holds them. */
export async function fetchRoleGrants(roleId: number): Promise<RoleGrantTree> {
  const answer = await request<RoleGrantTree>(`/api/RoleRight/grants/${roleId}`, { failText: m.rightsLoadFailed });
  return answer.data ?? { modules: [], actions: [] };
}

/** Saves a role's screens and their codes in one call; answers the server's success text ('权限保存成功'). */
export async function saveRoleGrants(roleId: number, moduleIds: number[], permissionIds: number[]): Promise<string> {
  const answer = await request('/api/RoleRight/save', { body: { roleId, moduleIds, permissionIds }, failText: m.rightsSaveFailed });
  return answer.msg || m.rightsSaved;
}
