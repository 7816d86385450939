// Permission codes (SPEC §3: shaped like system:User:list). Every server route names one of these or
// says it is public / needs only a login. The seed grants each code to the roles listed here when
// the code is first created; 权限管理 edits the grants afterwards. The super administrator holds all.
// Exporting a list needs the list's own code. Every code belongs to one screen (permissionScreens): 角色管理 →
// 菜单权限 shows it under that screen, so granting a screen and its actions is one act.

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
  'task:Task:list': { name: '任务列表-查询', roles: ['companyAdmin', 'ordinaryUser', 'demo'] },
  'task:Task:save': { name: '任务列表-保存', roles: ['companyAdmin', 'ordinaryUser'] },
  'task:Task:delete': { name: '任务列表-删除', roles: ['companyAdmin', 'ordinaryUser'] },
  'task:Task:pause': { name: '任务列表-暂停/启动', roles: ['companyAdmin', 'ordinaryUser'] },
  'task:Task:upload': { name: '任务列表-上传号码', roles: ['companyAdmin', 'ordinaryUser'] },
  'task:Task:export': { name: '任务列表-导出', roles: ['companyAdmin', 'ordinaryUser'] },
  'task:Task:insertTest': { name: '任务列表-插入测试号码', roles: ['companyAdmin'] },
  'task:AuthCode:list': { name: '授权码-查询', roles: ['companyAdmin', 'ordinaryUser', 'demo'] },
  'task:AuthCode:save': { name: '授权码-新增', roles: ['companyAdmin'] },
  'task:AuthCode:recharge': { name: '授权码-充值', roles: ['companyAdmin'] },
  'task:AuthCode:delete': { name: '授权码-删除', roles: ['companyAdmin'] },
  'task:Blacklist:list': { name: '黑名单-查询', roles: ['companyAdmin', 'ordinaryUser', 'demo'] },
  'task:Blacklist:save': { name: '黑名单-添加', roles: ['companyAdmin', 'ordinaryUser'] },
  'task:Blacklist:delete': { name: '黑名单-删除', roles: ['companyAdmin'] },
  'task:Reply:list': { name: '回复记录-查询', roles: ['companyAdmin', 'ordinaryUser', 'demo'] },
  'task:Statistics:list': { name: '发送统计-查询', roles: ['companyAdmin', 'ordinaryUser', 'demo'] },
  'task:TaskUser:save': { name: '发送统计-新增账号', roles: ['companyAdmin'] },
  'task:TaskUser:clear': { name: '发送统计-清除', roles: ['companyAdmin'] },
  'task:TaskUser:delete': { name: '发送统计-删除账号', roles: ['companyAdmin'] },
  'pay:Config:list': { name: '支付配置-查询', roles: ['companyAdmin'] },
  'pay:Config:save': { name: '支付配置-保存', roles: ['companyAdmin'] },
  'pay:Config:delete': { name: '支付配置-删除', roles: ['companyAdmin'] },
  'machine:MachineConfig:list': { name: '终端支付配置-查询', roles: ['companyAdmin'] },
  'machine:MachineConfig:save': { name: '终端支付配置-保存', roles: ['companyAdmin'] },
  'machine:MachineConfig:delete': { name: '终端支付配置-删除', roles: ['companyAdmin'] },
  'machine:MachineInfo:list': { name: '机器列表-查询', roles: ['companyAdmin'] },
  'machine:MachineInfo:save': { name: '机器列表-保存', roles: ['companyAdmin'] },
  'machine:MachineInfo:delete': { name: '机器列表-删除', roles: ['companyAdmin'] },
  'machine:MachineInfo:resetKey': { name: '机器列表-重置密钥', roles: ['companyAdmin'] },
  'machine:MachineAisle:list': { name: '货道信息-查询', roles: ['companyAdmin'] },
  'machine:MachineAisle:save': { name: '货道信息-保存', roles: ['companyAdmin'] },
  'machine:MachineAisle:delete': { name: '货道信息-删除', roles: ['companyAdmin'] },
  'pay:Order:list': { name: '交易订单-查询', roles: ['companyAdmin'] },
  'pay:Order:refund': { name: '交易订单-退款', roles: ['companyAdmin'] },
  'pay:PayAlarm:list': { name: '支付告警-查询', roles: ['companyAdmin'] },
  'pay:Reconcile:list': { name: '对账-查询', roles: ['companyAdmin'] },
  'pay:Reconcile:run': { name: '对账-对账', roles: ['companyAdmin'] },
  'pay:Reconcile:handle': { name: '对账-标记处理', roles: ['companyAdmin'] },
  'charts:Statistics:list': { name: '数据可视化-查询', roles: ['companyAdmin'] },
  // the platform's own figures: the super administrator's only (granted to no role)
  'monitor:System:list': { name: '监控查询-查询', roles: [] },
} as const satisfies Record<string, { name: string; roles: readonly GrantedRole[] }>;

export type PermissionCode = keyof typeof table;
export const permissionTable: Record<PermissionCode, { name: string; roles: readonly GrantedRole[] }> = table;

/** The first two segments of a code: 'system:User' of 'system:User:list'. */
type AreaOf<C extends string> = C extends `${infer S}:${infer R}:${string}` ? `${S}:${R}` : never;
export type PermissionArea = AreaOf<PermissionCode>;

/**
 * The screen (a consoleRoutes url) each area's codes belong to. Every area of the table must be here
 * (the type says so): a new screen's codes need their line, or 菜单权限 could not grant them.
 */
export const permissionScreens: Record<PermissionArea, string> = {
  'system:Dept': '/system/Dept',
  'system:User': '/system/user',
  'system:Role': '/system/Role',
  'system:Module': '/system/Module',
  'system:Permission': '/system/Permission',
  'system:Variable': '/system/Variable',
  'monitor:OperLog': '/monitor/operLog',
  'monitor:LoginLog': '/monitor/loginLog',
  'monitor:Online': '/monitor/online',
  'task:Task': '/task/index',
  'task:AuthCode': '/task/authcode',
  'task:Blacklist': '/task/blacklist',
  'task:Reply': '/task/reply',
  'task:Statistics': '/task/userStatistics',
  'task:TaskUser': '/task/userStatistics',
  'pay:Config': '/pay/Config',
  'machine:MachineConfig': '/machine/MachineConfig',
  'machine:MachineInfo': '/machine/MachineInfo',
  'machine:MachineAisle': '/machine/MachineAisle',
  'pay:Order': '/pay/Order',
  'pay:PayAlarm': '/pay/Alarm',
  'pay:Reconcile': '/pay/Reconcile',
  'charts:Statistics': '/charts/statistics',
  'monitor:System': '/druid/login',
};

/**
 * The screen a code belongs to, by its area; a code added in 权限管理 to a known area (task:Blacklist:import)
 * belongs to that area's screen. undefined: a code of no screen, granted in 权限管理 only.
 */
export function screenOfCode(code: string): string | undefined {
  const area = code.split(':').slice(0, 2).join(':');
  return Object.hasOwn(permissionScreens, area) ? permissionScreens[area as PermissionArea] : undefined;
}

/**
 * A screen's 查询 code (the table's one `:list` code of that screen): whoever holds the screen holds at
 * least this one, or its list would not load. undefined for a screen without codes (修改密码).
 */
export function listCodeOf(screenUrl: string): PermissionCode | undefined {
  return (Object.keys(permissionTable) as PermissionCode[]).find((code) => code.endsWith(':list') && screenOfCode(code) === screenUrl);
}

/** The action part of a code's name, shown under its screen: '查询' of '任务列表-查询'. */
export function actionLabel(permissionName: string): string {
  const dash = permissionName.indexOf('-');
  return dash < 0 ? permissionName : permissionName.slice(dash + 1);
}

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
  taskList: 'task:Task:list',
  taskSave: 'task:Task:save',
  taskDelete: 'task:Task:delete',
  taskPause: 'task:Task:pause',
  taskUpload: 'task:Task:upload',
  taskExport: 'task:Task:export',
  taskInsertTest: 'task:Task:insertTest',
  authCodeList: 'task:AuthCode:list',
  authCodeSave: 'task:AuthCode:save',
  authCodeRecharge: 'task:AuthCode:recharge',
  authCodeDelete: 'task:AuthCode:delete',
  blacklistList: 'task:Blacklist:list',
  blacklistSave: 'task:Blacklist:save',
  blacklistDelete: 'task:Blacklist:delete',
  replyList: 'task:Reply:list',
  statisticsList: 'task:Statistics:list',
  taskUserSave: 'task:TaskUser:save',
  taskUserClear: 'task:TaskUser:clear',
  taskUserDelete: 'task:TaskUser:delete',
  payConfigList: 'pay:Config:list',
  payConfigSave: 'pay:Config:save',
  payConfigDelete: 'pay:Config:delete',
  terminalConfigList: 'machine:MachineConfig:list',
  terminalConfigSave: 'machine:MachineConfig:save',
  terminalConfigDelete: 'machine:MachineConfig:delete',
  machineList: 'machine:MachineInfo:list',
  machineSave: 'machine:MachineInfo:save',
  machineDelete: 'machine:MachineInfo:delete',
  machineResetKey: 'machine:MachineInfo:resetKey',
  aisleList: 'machine:MachineAisle:list',
  aisleSave: 'machine:MachineAisle:save',
  aisleDelete: 'machine:MachineAisle:delete',
  orderList: 'pay:Order:list',
  orderRefund: 'pay:Order:refund',
  payAlarmList: 'pay:PayAlarm:list',
  reconcileList: 'pay:Reconcile:list',
  reconcileRun: 'pay:Reconcile:run',
  reconcileHandle: 'pay:Reconcile:handle',
  salesChartsList: 'charts:Statistics:list',
  systemMonitorView: 'monitor:System:list',
} as const satisfies Record<string, PermissionCode>;
