import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { App as AntApp } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { RequireAuth } from '../guards.tsx';
import { queryClient } from '../queryClient.ts';
import { MainLayout } from './MainLayout.tsx';

// Dates in the screens (pickers, relative times) speak Chinese; the login page shows none.
dayjs.locale('zh-cn');

/** The console's frame for a signed-in user, with antd's App (message, modal, notification hooks) and the query cache (loaded after login, not with the login page). */
export function ProtectedLayout() {
  return (
    <RequireAuth>
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <MainLayout />
        </QueryClientProvider>
      </AntApp>
    </RequireAuth>
  );
}
