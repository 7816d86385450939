import { lazy, Suspense, type ComponentType } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { HOME_URL } from '@huiyun/contract';
import { LoginPage } from '../pages/login/index.tsx';
import { GuestOnly } from './guards.tsx';
import { screenRoutes, type ScreenRoute } from './routeMeta.ts';

type Screen = { default: ComponentType };

// Each screen is its own chunk, loaded the first time it is opened: the login page and the layout
// stay small, and a screen's code (charts, trees, dialogs) comes only with that screen. The router is
// react-router's declarative one: its data router (loaders, actions, fetchers, none of them used here)
// would add 15 KB br to every screen's first load.
const screens: Record<string, () => Promise<Screen>> = {
  '/task/index': () => import('../pages/task/index/index.tsx').then((m) => ({ default: m.TaskPage })),
  '/task/authcode': () => import('../pages/task/authcode/index.tsx').then((m) => ({ default: m.AuthCodePage })),
  '/task/devices': () => import('../pages/task/devices/index.tsx').then((m) => ({ default: m.DevicesPage })),
  '/task/userStatistics': () => import('../pages/task/userStatistics/index.tsx').then((m) => ({ default: m.UserStatisticsPage })),
  '/task/updatePasswd': () => import('../pages/task/updatePasswd/index.tsx').then((m) => ({ default: m.UpdatePasswordPage })),
  '/task/profile': () => import('../pages/task/profile/index.tsx').then((m) => ({ default: m.ProfilePage })),
  '/task/blacklist': () => import('../pages/task/blacklist/index.tsx').then((m) => ({ default: m.BlacklistPage })),
  '/task/reply': () => import('../pages/task/reply/index.tsx').then((m) => ({ default: m.ReplyPage })),
  '/system/user': () => import('../pages/system/user/index.tsx').then((m) => ({ default: m.UserPage })),
  '/system/Dept': () => import('../pages/system/dept/index.tsx').then((m) => ({ default: m.DeptPage })),
  '/system/Role': () => import('../pages/system/role/index.tsx').then((m) => ({ default: m.RolePage })),
  '/system/Module': () => import('../pages/system/module/index.tsx').then((m) => ({ default: m.MenuPage })),
  '/system/Permission': () => import('../pages/system/permission/index.tsx').then((m) => ({ default: m.PermissionPage })),
  '/system/Variable': () => import('../pages/system/variable/index.tsx').then((m) => ({ default: m.VariablePage })),
  '/monitor/online': () => import('../pages/monitor/online/index.tsx').then((m) => ({ default: m.OnlinePage })),
  '/monitor/operLog': () => import('../pages/monitor/operLog/index.tsx').then((m) => ({ default: m.OperLogPage })),
  '/monitor/loginLog': () => import('../pages/monitor/loginLog/index.tsx').then((m) => ({ default: m.LoginLogPage })),
  '/pay/Config': () => import('../pages/pay/config/index.tsx').then((m) => ({ default: m.PayConfigPage })),
  '/machine/MachineConfig': () => import('../pages/machine/config/index.tsx').then((m) => ({ default: m.TerminalConfigPage })),
  '/machine/MachineInfo': () => import('../pages/machine/info/index.tsx').then((m) => ({ default: m.MachineInfoPage })),
  '/machine/MachineAisle': () => import('../pages/machine/aisle/index.tsx').then((m) => ({ default: m.MachineAislePage })),
  '/pay/Order': () => import('../pages/pay/order/index.tsx').then((m) => ({ default: m.OrderPage })),
  '/pay/Alarm': () => import('../pages/pay/alarm/index.tsx').then((m) => ({ default: m.PayAlarmPage })),
  '/pay/Reconcile': () => import('../pages/pay/reconcile/index.tsx').then((m) => ({ default: m.ReconcilePage })),
  '/charts/statistics': () => import('../pages/charts/statistics/index.tsx').then((m) => ({ default: m.SalesChartsPage })),
  '/druid/login': () => import('../pages/monitor/system/index.tsx').then((m) => ({ default: m.SystemMonitorPage })),
};

/** A screen's component, its chunk fetched the first time it renders; screens not built yet show the coming-soon page. */
function screenComponent(route: ScreenRoute): ComponentType {
  const load = screens[route.url] ?? (() => import('./ResultPages.tsx').then((m) => ({ default: () => <m.ComingSoonPage name={route.name} /> })));
  return lazy(load);
}

// The layout (menu, top bar) is a chunk of its own too: the login page loads only what it shows.
const ProtectedLayout = lazy(() => import('./layout/ProtectedLayout.tsx').then((m) => ({ default: m.ProtectedLayout })));
const NotFoundPage = lazy(() => import('./ResultPages.tsx').then((m) => ({ default: m.NotFoundPage })));
const layoutScreens = screenRoutes.map((route) => ({ url: route.url, Screen: screenComponent(route) }));

const login = (
  <GuestOnly>
    <LoginPage />
  </GuestOnly>
);

/**
 * Every console route and sub-screen of the contract inside the layout. A navigation is a transition
 * (BrowserRouter's default): the screen shown stays until the next one's chunk has come; the layout's
 * own Suspense covers a screen's first load.
 */
export function AppRoutes() {
  return (
    <BrowserRouter>
      <Suspense fallback={null}>
        <Routes>
          <Route path="/" element={login} />
          <Route path="/login" element={login} />
          <Route element={<ProtectedLayout />}>
            <Route path="/index" element={<Navigate to={HOME_URL} replace />} />
            {layoutScreens.map(({ url, Screen }) => <Route key={url} path={url} element={<Screen />} />)}
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
