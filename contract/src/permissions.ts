// Permission codes (SPEC §3: shaped like system:User:list). Every server route names one of these or
// says it is public / needs only a login. The seed grants each code to the roles listed here when
// the code is first created; 权限管理 edits the grants afterwards. The super administrator holds all.
// Exporting a list needs the list's own code.

export type GrantedRole = 'companyAdmin' | 'ordinaryUser' | 'demo';

const table = {
  'system:Dept:list': { name: '公司管理-查询', roles: ['companyAdmin'] },
  'system:Dept:save': { name: '公司管理-保存', roles: ['companyAdmin'] },
  'system:Dept:delete': { name: '公司管理-删除', roles: ['companyAdmin'] },
  'system:User:list': { name: '用户管理-查询', roles: ['companyAdmin'] },
  'system:User:save': { name: '用户管理-保存', roles: ['companyAdmin'] },
  'system:User:delete': { name: '用户管理-删除', roles: ['companyAdmin'] },
  'system:User:lock': { name: '用户管理-锁定', roles: ['companyAdmin'] },
  'system:User:resetPwd': { name: '用户管理-重置密码', roles: ['companyAdmin'] },
  'system:User:changeDept': { name: '用户管理-部门设置', roles: ['companyAdmin'] },
  'system:User:dataScope': { name: '用户管理-数据权限', roles: ['companyAdmin'] },
  'system:User:expireToken': { name: '用户管理-强制下线', roles: ['companyAdmin'] },
  'system:User:flashCache': { name: '用户管理-刷新缓存', roles: ['companyAdmin'] },
  'system:Role:list': { name: '角色管理-查询', roles: ['companyAdmin'] },
  'system:Role:save': { name: '角色管理-保存', roles: [] },
  'system:Role:delete': { name: '角色管理-删除', roles: [] },
  'system:Role:grantMenu': { name: '角色管理-菜单权限', roles: [] },
  'system:Module:list': { name: '菜单管理-查询', roles: ['companyAdmin'] },
  'system:Module:save': { name: '菜单管理-保存', roles: [] },
  'system:Module:delete': { name: '菜单管理-删除', roles: [] },
  'system:Permission:list': { name: '权限管理-查询', roles: ['companyAdmin'] },
  'system:Permission:save': { name: '权限管理-保存', roles: [] },
  'system:Permission:delete': { name: '权限管理-删除', roles: [] },
  'system:Permission:grant': { name: '权限管理-配置权限', roles: [] },
  'system:Variable:list': { name: '系统环境变量-查询', roles: ['companyAdmin'] },
  'system:Variable:save': { name: '系统环境变量-保存', roles: [] },
  'system:Variable:delete': { name: '系统环境变量-删除', roles: [] },
  'monitor:OperLog:list': { name: '操作日志-查询', roles: ['companyAdmin'] },
  'monitor:LoginLog:list': { name: '登录日志-查询', roles: ['companyAdmin'] },
  'monitor:Online:list': { name: '在线用户-查询', roles: ['companyAdmin'] },
  'monitor:Online:forceLogout': { name: '在线用户-强制下线', roles: ['companyAdmin'] },
} as const satisfies Record<string, { name: string; roles: readonly GrantedRole[] }>;

export type PermissionCode = keyof typeof table;
export const permissionTable: Record<PermissionCode, { name: string; roles: readonly GrantedRole[] }> = table;

/** Named access to the codes: Perm.variableList === 'system:Variable:list'. */
export const Perm = {
  deptList: 'system:Dept:list',
  deptSave: 'system:Dept:save',
  deptDelete: 'system:Dept:delete',
  userList: 'system:User:list',
  userSave: 'system:User:save',
  userDelete: 'system:User:delete',
  userLock: 'system:User:lock',
  userResetPwd: 'system:User:resetPwd',
  userChangeDept: 'system:User:changeDept',
  userDataScope: 'system:User:dataScope',
  userExpireToken: 'system:User:expireToken',
  userFlashCache: 'system:User:flashCache',
  roleList: 'system:Role:list',
  roleSave: 'system:Role:save',
  roleDelete: 'system:Role:delete',
  roleGrantMenu: 'system:Role:grantMenu',
  moduleList: 'system:Module:list',
  moduleSave: 'system:Module:save',
  moduleDelete: 'system:Module:delete',
  permissionList: 'system:Permission:list',
  permissionSave: 'system:Permission:save',
  permissionDelete: 'system:Permission:delete',
  permissionGrant: 'system:Permission:grant',
  variableList: 'system:Variable:list',
  variableSave: 'system:Variable:save',
  variableDelete: 'system:Variable:delete',
  operLogList: 'monitor:OperLog:list',
  loginLogList: 'monitor:LoginLog:list',
  onlineList: 'monitor:Online:list',
  onlineForceLogout: 'monitor:Online:forceLogout',
} as const satisfies Record<string, PermissionCode>;
