import { device } from './messages/device.ts';
import { profile } from './messages/profile.ts';

// The console's screens (SPEC §2.1) in their menu groups. The server seeds the module (menu) tree from
// this table; the web app maps each url to its page. A role sees a screen only if it holds its module.

export type MenuGroupKey = 'task' | 'system' | 'pay' | 'machine' | 'charts' | 'monitor';

export type ConsoleRoute = {
  url: string;
  name: string;
  icon: string;
  group: MenuGroupKey;
  /** Seeded into the ordinary-user role's menu rights. */
  ordinaryUser?: boolean;
  /** Seeded into no role's menu rights: the super administrator's alone (its permission is granted to no role). */
  superAdminOnly?: boolean;
};

export const menuGroups: { key: MenuGroupKey; name: string; icon: string; url: string }[] = [
  { key: 'task', name: '任务管理', icon: 'ScheduleOutlined', url: '/task' },
  { key: 'system', name: '系统管理', icon: 'SettingOutlined', url: '/system' },
  { key: 'pay', name: '支付管理', icon: 'PayCircleOutlined', url: '/pay' },
  { key: 'machine', name: '设备管理', icon: 'ShopOutlined', url: '/machine' },
  { key: 'charts', name: '统计分析', icon: 'BarChartOutlined', url: '/charts' },
  { key: 'monitor', name: '系统监控', icon: 'MonitorOutlined', url: '/monitor' },
];

export const consoleRoutes: ConsoleRoute[] = [
  { url: '/task/index', name: '任务列表', icon: 'UnorderedListOutlined', group: 'task', ordinaryUser: true },
  { url: '/task/authcode', name: '授权码列表', icon: 'KeyOutlined', group: 'task', ordinaryUser: true },
  { url: '/task/userStatistics', name: '用户发送统计', icon: 'LineChartOutlined', group: 'task', ordinaryUser: true },
  { url: '/task/updatePasswd', name: '修改密码', icon: 'LockOutlined', group: 'task', ordinaryUser: true },
  // Last of its group: the seed numbers a new screen by its place, so an upgraded database orders it the same.
  { url: '/task/blacklist', name: '黑名单', icon: 'StopOutlined', group: 'task', ordinaryUser: true },
  // Last of its group (see 黑名单): an upgraded database numbers it after 黑名单.
  { url: '/task/reply', name: '回复记录', icon: 'MessageOutlined', group: 'task', ordinaryUser: true },
  { url: '/system/user', name: '用户管理', icon: 'UserOutlined', group: 'system' },
  { url: '/system/Dept', name: '公司管理', icon: 'ApartmentOutlined', group: 'system' },
  { url: '/system/Role', name: '角色管理', icon: 'TeamOutlined', group: 'system' },
  { url: '/system/Module', name: '菜单管理', icon: 'MenuOutlined', group: 'system' },
  { url: '/system/Permission', name: '权限管理', icon: 'SafetyOutlined', group: 'system' },
  { url: '/system/Variable', name: '系统环境变量', icon: 'CodeOutlined', group: 'system' },
  { url: '/pay/Order', name: '交易订单', icon: 'ProfileOutlined', group: 'pay' },
  { url: '/pay/Config', name: '支付配置', icon: 'WalletOutlined', group: 'pay' },
  // Last of its group (see 黑名单): an upgraded database numbers it after 交易订单 and 支付配置 too.
  { url: '/pay/Alarm', name: '支付告警', icon: 'AlertOutlined', group: 'pay' },
  // Last of its group (see 黑名单): an upgraded database numbers it after 支付告警.
  { url: '/pay/Reconcile', name: '对账', icon: 'FileTextOutlined', group: 'pay' },
  { url: '/machine/MachineConfig', name: '终端支付配置', icon: 'ControlOutlined', group: 'machine' },
  { url: '/machine/MachineAisle', name: '货道信息', icon: 'InboxOutlined', group: 'machine' },
  // Last of its group (see 黑名单): an upgraded database numbers it after 终端支付配置 and 货道信息 too.
  { url: '/machine/MachineInfo', name: '机器列表', icon: 'DesktopOutlined', group: 'machine' },
  { url: '/charts/statistics', name: '数据可视化', icon: 'PieChartOutlined', group: 'charts' },
  { url: '/monitor/online', name: '在线用户', icon: 'WifiOutlined', group: 'monitor' },
  { url: '/monitor/operLog', name: '操作日志', icon: 'FileTextOutlined', group: 'monitor' },
  { url: '/monitor/loginLog', name: '登录日志', icon: 'LoginOutlined', group: 'monitor' },
  { url: '/druid/login', name: '监控查询', icon: 'DashboardOutlined', group: 'monitor', superAdminOnly: true },
];

/**
 * A screen opened from another screen, not from the menu (Ant Design Pro's hideInMenu): it is no
 * module, so nothing is seeded for it; whoever may open its parent may open it, and the menu and the
 * breadcrumb show it under its parent.
 */
export type SubScreenRoute = { url: string; name: string; group: MenuGroupKey; parent: string };

/** 设备列表, opened from 授权码列表. */
export const DEVICE_LIST_URL = '/task/devices';

/** 个人中心, opened from the top bar's account menu; it hangs under 修改密码, which everyone may open. */
export const PROFILE_URL = '/task/profile';
export const PASSWORD_URL = '/task/updatePasswd';

export const subScreenRoutes: SubScreenRoute[] = [
  { url: DEVICE_LIST_URL, name: device.title, group: 'task', parent: '/task/authcode' },
  { url: PROFILE_URL, name: profile.title, group: 'task', parent: PASSWORD_URL },
];

/** The menu screen whose right opens url: a sub-screen's parent, any other screen itself. */
export function menuUrlOf(url: string): string {
  return subScreenRoutes.find((r) => r.url === url)?.parent ?? url;
}

/** Where the console lands after login (SPEC §2.1). */
export const HOME_URL = '/task/index';
/** Screens every logged-in user may open whatever the menu says. */
export const alwaysAllowedUrls = [PASSWORD_URL];
