import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { consoleRoutes, HOME_URL, type ConsoleRoute } from '@huiyun/contract';
import { LoginPage } from '../pages/login/index.tsx';
import { UpdatePasswordPage } from '../pages/task/updatePasswd/index.tsx';
import { VariablePage } from '../pages/system/variable/index.tsx';
import { UserPage } from '../pages/system/user/index.tsx';
import { DeptPage } from '../pages/system/dept/index.tsx';
import { PermissionPage } from '../pages/system/permission/index.tsx';
import { LoginLogPage } from '../pages/monitor/loginLog/index.tsx';
import { OnlinePage } from '../pages/monitor/online/index.tsx';
import { OperLogPage } from '../pages/monitor/operLog/index.tsx';
import { RolePage } from '../pages/system/role/index.tsx';
import { MenuPage } from '../pages/system/module/index.tsx';
import { AuthCodePage } from '../pages/task/authcode/index.tsx';
import { UserStatisticsPage } from '../pages/task/userStatistics/index.tsx';
import { TaskPage } from '../pages/task/index/index.tsx';
import { GuestOnly, RequireAuth } from './guards.tsx';
import { MainLayout } from './layout/MainLayout.tsx';
import { ComingSoonPage, NotFoundPage } from './ResultPages.tsx';
import type { RouteHandle } from './routeMeta.ts';

/** The screens built so far; every other console route shows the coming-soon page. */
const screens: Record<string, () => ReactNode> = {
  '/task/updatePasswd': () => <UpdatePasswordPage />,
  '/task/authcode': () => <AuthCodePage />,
  '/task/userStatistics': () => <UserStatisticsPage />,
  '/system/Variable': () => <VariablePage />,
  '/task/index': () => <TaskPage />,
  '/system/Role': () => <RolePage />,
  '/system/Module': () => <MenuPage />,
  '/system/user': () => <UserPage />,
  '/system/Dept': () => <DeptPage />,
  '/system/Permission': () => <PermissionPage />,
  '/monitor/online': () => <OnlinePage />,
  '/monitor/operLog': () => <OperLogPage />,
  '/monitor/loginLog': () => <LoginLogPage />,
};

function screenRoute(route: ConsoleRoute): RouteObject {
  const handle: RouteHandle = { route };
  return { path: route.url, handle, element: screens[route.url]?.() ?? <ComingSoonPage name={route.name} /> };
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
    element: (
      <RequireAuth>
        <MainLayout />
      </RequireAuth>
    ),
    children: [{ path: '/index', element: <Navigate to={HOME_URL} replace /> }, ...consoleRoutes.map(screenRoute)],
  },
  { path: '*', element: <NotFoundPage /> },
]);
