import { messages, type Page, type Permission, type PermissionSave } from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import type { ListParams, FiltersOf } from './types.ts';
import type { permissionListQuery } from '@huiyun/contract';

const m = messages.permission;

export type PermissionFilters = FiltersOf<typeof permissionListQuery, 'permissionName' | 'permission'>;

export async function listPermissions(params: ListParams<PermissionFilters>): Promise<Page<Permission>> {
  return requestPage<Permission>('/api/Permission/list', { body: params, failText: m.loadFailed });
}

/** Answers the server's success text ('保存成功！'). */
export async function savePermission(input: Partial<PermissionSave>): Promise<string> {
  const answer = await request('/api/Permission/save', { body: input, failText: m.saveFailed });
  return answer.msg || m.saved;
}

export async function deletePermissions(ids: number[]): Promise<string> {
  const answer = await request('/api/Permission/delete', { method: 'DELETE', query: { ids: ids.join(',') }, failText: m.deleteFailed });
  return answer.msg || m.deleted;
}

export function exportPermissions(params: Omit<ListParams<PermissionFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/Permission/export', { body: params, fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}

/** The permission ids the role holds: the ticks to preselect. */
export async function rolePermissionIds(roleId: number): Promise<number[]> {
  const answer = await request<number[]>(`/api/RolePermission/list/${roleId}`, { failText: m.grantsLoadFailed });
  return answer.data ?? [];
}

/** Replaces the role's grants with exactly these ids (SPEC §7.6: a comma list). */
export async function saveRolePermissions(roleId: number, permissionIds: number[]): Promise<string> {
  const answer = await request('/api/RolePermission/save', {
    body: { roleId, permissionIds: permissionIds.join(',') },
    failText: m.grantFailed,
  });
  return answer.msg || m.grantOk;
}
