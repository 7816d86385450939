import { useState, type ReactNode } from 'react';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { App as AntApp } from 'antd';
// antd's static CSS of the signed-in console (App.tsx: base.css before sign-in; web/build/antd-css.ts).
import 'virtual:antd-css/console.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { RequireAuth } from '../guards.tsx';
import { createQueryClient } from '../queryClient.ts';
import { MainLayout } from './MainLayout.tsx';
import { useToast } from '../../shared/toast.tsx';

// Dates in the screens (pickers, relative times) speak Chinese; the login page shows none.
dayjs.locale('zh-cn');

/** TanStack Query, its failed loads told as toasts; a new cache for each sign-in. */
function QueryProvider({ children }: { children: ReactNode }) {
  const message = useToast();
  const [client] = useState(() => createQueryClient((text) => void message.error(text)));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/**
 * The console's frame for a signed-in user, with antd's App (modal hooks) and the
 * query cache: loaded after login, not with the login page, which carries only what it shows.
 */
export function ProtectedLayout() {
  return (
    <RequireAuth>
      <AntApp>
        <QueryProvider>
          <MainLayout />
        </QueryProvider>
      </AntApp>
    </RequireAuth>
  );
}
