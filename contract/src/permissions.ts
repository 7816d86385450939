// Permission codes (SPEC §3: shaped like system:User:list). Every server route names one of these or
// says it is public / needs only a login; the seed grants them to roles (权限管理 edits the grants).

export const Perm = {
  variableList: 'system:Variable:list',
  variableSave: 'system:Variable:save',
  variableDelete: 'system:Variable:delete',
  userExpireToken: 'system:User:expireToken',
  userFlashCache: 'system:User:flashCache',
} as const;
export type PermissionCode = (typeof Perm)[keyof typeof Perm];

export const permissionNames: Record<PermissionCode, string> = {
  [Perm.variableList]: '系统环境变量-查询',
  [Perm.variableSave]: '系统环境变量-保存',
  [Perm.variableDelete]: '系统环境变量-删除',
  [Perm.userExpireToken]: '用户-强制下线',
  [Perm.userFlashCache]: '用户-刷新缓存',
};

/** Codes the ordinary-user role (普通用户) is granted by the seed: the task area only. */
export const ordinaryUserPermissions: PermissionCode[] = [];
