import { useState, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import { LoadingOutlined } from '@ant-design/icons';
import zhCN from 'antd/locale/zh_CN';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './queryClient.ts';
import { router } from './router.tsx';

/**
 * Every button's loading spinner: given here, antd shows it exactly while `loading` is true. Its default
 * spinner leaves with a CSS transition and is removed only on `transitionend`; when a quick answer
 * interrupts the entering transition (a busy machine), that event never comes and the spinner stays in
 * the button for good ('loading 登录' after a wrong password).
 */
const buttonConfig = { autoInsertSpace: false, loadingIcon: <LoadingOutlined /> };

/** TanStack Query, its failed loads told through the antd App's message (hence inside AntApp). */
function QueryProvider({ children }: { children: ReactNode }) {
  const { message } = AntApp.useApp();
  const [client] = useState(() => createQueryClient((text) => void message.error(text)));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** Providers: Chinese locale, antd App (message / modal hooks), TanStack Query, the router. */
export function App() {
  return (
    <ConfigProvider locale={zhCN} button={buttonConfig} theme={{ token: { colorPrimary: '#1668dc' } }}>
      <AntApp>
        <QueryProvider>
          <RouterProvider router={router} />
        </QueryProvider>
      </AntApp>
    </ConfigProvider>
  );
}
