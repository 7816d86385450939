import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { RouterProvider } from 'react-router';
import { router } from './router.tsx';

/** Providers: Chinese locale and theme, the router. antd App (message / modal hooks) and TanStack Query: ProtectedLayout. */
export function App() {
  return (
    <ConfigProvider locale={zhCN} button={{ autoInsertSpace: false }} theme={{ token: { colorPrimary: '#1668dc' } }}>
      <RouterProvider router={router} />
    </ConfigProvider>
  );
}
