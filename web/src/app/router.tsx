import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { consoleRoutes, HOME_URL, subScreenRoutes } from '@huiyun/contract';
import { LoginPage } from '../pages/login/index.tsx';
import { GuestOnly } from './guards.tsx';
import type { RouteHandle, ScreenRoute } from './routeMeta.ts';

type Screen = { Component: ComponentType };

// Each screen is its own chunk, loaded the first time it is opened: the login page and the layout
// stay small, and a screen's code (charts, trees, dialogs) comes only with that screen.
const screens: Record<string, () => Promise<Screen>> = {
  '/task/index': () => import('../pages/task/index/index.tsx').then((m) => ({ Component: m.TaskPage })),
  '/task/authcode': () => import('../pages/task/authcode/index.tsx').then((m) => ({ Component: m.AuthCodePage })),
  '/task/devices': () => import('../pages/task/devices/index.tsx').then((m) => ({ Component: m.DevicesPage })),
  '/task/userStatistics': () => import('../pages/task/userStatistics/index.tsx').then((m) => ({ Component: m.UserStatisticsPage })),
  '/task/updatePasswd': () => import('../pages/task/updatePasswd/index.tsx').then((m) => ({ Component: m.UpdatePasswordPage })),
  '/task/profile': () => import('../pages/task/profile/index.tsx').then((m) => ({ Component: m.ProfilePage })),
  '/task/blacklist': () => import('../pages/task/blacklist/index.tsx').then((m) => ({ Component: m.BlacklistPage })),
  '/task/reply': () => import('../pages/task/reply/index.tsx').then((m) => ({ Component: m.ReplyPage })),
  '/system/user': () => import('../pages/system/user/index.tsx').then((m) => ({ Component: m.UserPage })),
  '/system/Dept': () => import('../pages/system/dept/index.tsx').then((m) => ({ Component: m.DeptPage })),
  '/system/Role': () => import('../pages/system/role/index.tsx').then((m) => ({ Component: m.RolePage })),
  '/system/Module': () => import('../pages/system/module/index.tsx').then((m) => ({ Component: m.MenuPage })),
  '/system/Permission': () => import('../pages/system/permission/index.tsx').then((m) => ({ Component: m.PermissionPage })),
  '/system/Variable': () => import('../pages/system/variable/index.tsx').then((m) => ({ Component: m.VariablePage })),
  '/monitor/online': () => import('../pages/monitor/online/index.tsx').then((m) => ({ Component: m.OnlinePage })),
  '/monitor/operLog': () => import('../pages/monitor/operLog/index.tsx').then((m) => ({ Component: m.OperLogPage })),
  '/monitor/loginLog': () => import('../pages/monitor/loginLog/index.tsx').then((m) => ({ Component: m.LoginLogPage })),
  '/pay/Config': () => import('../pages/pay/config/index.tsx').then((m) => ({ Component: m.PayConfigPage })),
  '/machine/MachineConfig': () => import('../pages/machine/config/index.tsx').then((m) => ({ Component: m.TerminalConfigPage })),
  '/machine/MachineInfo': () => import('../pages/machine/info/index.tsx').then((m) => ({ Component: m.MachineInfoPage })),
  '/machine/MachineAisle': () => import('../pages/machine/aisle/index.tsx').then((m) => ({ Component: m.MachineAislePage })),
  '/pay/Order': () => import('../pages/pay/order/index.tsx').then((m) => ({ Component: m.OrderPage })),
  '/pay/Alarm': () => import('../pages/pay/alarm/index.tsx').then((m) => ({ Component: m.PayAlarmPage })),
  '/pay/Reconcile': () => import('../pages/pay/reconcile/index.tsx').then((m) => ({ Component: m.ReconcilePage })),
  '/charts/statistics': () => import('../pages/charts/statistics/index.tsx').then((m) => ({ Component: m.SalesChartsPage })),
  '/druid/login': () => import('../pages/monitor/system/index.tsx').then((m) => ({ Component: m.SystemMonitorPage })),
};

/** Every console route and sub-screen of the contract; screens not built yet show the coming-soon page. */
function screenRoute(route: ScreenRoute): RouteObject {
  const handle: RouteHandle = { route };
  const load = screens[route.url];
  const comingSoon = () => import('./ResultPages.tsx').then((m) => ({ Component: () => <m.ComingSoonPage name={route.name} /> }));
  return { path: route.url, handle, lazy: load ?? comingSoon };
}

const login = (
  <GuestOnly>
    <LoginPage />
  </GuestOnly>
);

export const router = createBrowserRouter([
  { path: '/', element: login },
  { path: '/login', element: login },
  {
    // The layout (menu, top bar) is a chunk of its own too: the login page loads only what it shows.
    lazy: () => import('./layout/ProtectedLayout.tsx').then((m) => ({ Component: m.ProtectedLayout })),
    children: [{ path: '/index', element: <Navigate to={HOME_URL} replace /> }, ...[...consoleRoutes, ...subScreenRoutes].map(screenRoute)],
  },
  { path: '*', lazy: () => import('./ResultPages.tsx').then((m) => ({ Component: m.NotFoundPage })) },
]);
