import { lazy, Suspense, useEffect, useState } from 'react';
import { Layout, Spin, theme } from 'antd';
import { Outlet } from 'react-router';
import { alwaysAllowedUrls, consoleRoutes, menuGroups, menuUrlOf, messages, type MenuNode } from '@huiyun/contract';
import { setSessionExpiredHandler } from '../../api/client.ts';
import { useCurrentRoute, type ScreenRoute } from '../routeMeta.ts';
import { menuUrls, useCurrentUser } from '../../shared/useCurrentUser.ts';
import { useSessionExpiry } from '../useSignOut.ts';
import { SideMenu } from './SideMenu.tsx';
import { TopBar } from './TopBar.tsx';

// Result pages carry large illustrations (antd's Result imports all of them): loaded only when a screen is
// refused or the user could not be loaded.
const ForbiddenPage = lazy(() => import('../ResultPages.tsx').then((m) => ({ default: m.ForbiddenPage })));
const UserLoadFailedPage = lazy(() => import('../ResultPages.tsx').then((m) => ({ default: m.UserLoadFailedPage })));

const m = messages.layout;

/** Group name / screen name (/ sub-screen name), from the user's menu tree, else from the contract. */
function crumbsOf(route: ScreenRoute | undefined, menus: MenuNode[]): string[] {
  if (!route) return [m.home];
  const sub = 'parent' in route ? [route.name] : [];
  const menuUrl = menuUrlOf(route.url);
  for (const group of menus) {
    const leaf = group.children?.find((c) => c.moduleUrl === menuUrl);
    if (leaf) return [group.moduleName, leaf.moduleName, ...sub];
  }
  const group = menuGroups.find((g) => g.key === route.group);
  const screen = consoleRoutes.find((r) => r.url === menuUrl);
  return [...(group ? [group.name] : []), ...(screen ? [screen.name] : []), ...sub];
}

/** Side menu + top bar + the screen; a screen outside the user's menu shows 403. */
export function MainLayout() {
  const [collapsed, setCollapsed] = useState(false);
  const { token } = theme.useToken();
  const route = useCurrentRoute();
  const user = useCurrentUser();
  const onSessionExpired = useSessionExpiry();

  useEffect(() => {
    setSessionExpiredHandler(onSessionExpired);
    return () => setSessionExpiredHandler(null);
  }, [onSessionExpired]);

  const menus = user.data?.menus ?? [];
  // A sub-screen opens for whoever holds its parent screen.
  const menuUrl = route ? menuUrlOf(route.url) : undefined;
  const allowed = !menuUrl || alwaysAllowedUrls.includes(menuUrl) || menuUrls(menus).has(menuUrl);

  let content;
  if (user.isPending) {
    content = <Spin size="large" description={m.loadingUser} style={{ display: 'block', marginTop: 120 }}><div /></Spin>;
  } else if (user.isError) {
    content = (
      <Suspense fallback={null}>
        <UserLoadFailedPage text={user.error.message || m.userLoadFailed} onRetry={() => void user.refetch()} />
      </Suspense>
    );
  } else {
    // A screen's chunk on its first load; later navigations keep the screen shown until the next has come.
    content = allowed ? <Suspense fallback={null}><Outlet /></Suspense> : (
      <Suspense fallback={null}>
        <ForbiddenPage />
      </Suspense>
    );
  }

  // The frame is the window's height: the side menu scrolls on its own and stays in place, the
  // screen scrolls in the content area under a fixed top bar.
  return (
    <Layout style={{ height: '100vh', overflow: 'hidden' }}>
      <Layout.Sider collapsible collapsed={collapsed} trigger={null} width={220}>
        <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
          <div
            style={{
              height: 56,
              flex: 'none',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              color: '#fff',
              fontWeight: 600,
              fontSize: collapsed ? 14 : 18,
              letterSpacing: 1,
              whiteSpace: 'nowrap',
              overflow: 'hidden',
            }}
          >
            {collapsed ? messages.login.title.slice(0, 2) : messages.login.title}
          </div>
          <nav
            className="side-menu"
            style={{ flex: 'auto', minHeight: 0, overflowY: 'auto', overflowX: 'hidden', scrollbarWidth: 'thin', scrollbarColor: 'rgba(255,255,255,0.3) transparent' }}
          >
            <SideMenu menus={menus} currentUrl={menuUrl} collapsed={collapsed} />
          </nav>
        </div>
      </Layout.Sider>
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header style={{ flex: 'none', padding: 0, height: 56, lineHeight: 'normal', background: token.colorBgContainer }}>
          <TopBar
            collapsed={collapsed}
            onToggle={() => setCollapsed((c) => !c)}
            crumbs={crumbsOf(route, menus)}
            displayName={user.data?.userRealName || user.data?.userName || ''}
          />
        </Layout.Header>
        <Layout.Content className="main-content" style={{ flex: 'auto', minHeight: 0, overflow: 'auto', padding: 16 }}>
          {content}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
