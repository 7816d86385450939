import { createContext, use, type ReactNode } from 'react';
import { message } from 'antd';

type Toast = ReturnType<typeof message.useMessage>[0];

const ToastContext = createContext<Toast | null>(null);

/**
 * The console's one message holder, above the router: a toast outlives the screen that raised it, so
 * 已退出登录! is still read on the login page the session ended on (a holder inside the signed-in layout
 * was unmounted with it, taking the toast along).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, holder] = message.useMessage();
  return (
    <ToastContext value={toast}>
      {holder}
      {children}
    </ToastContext>
  );
}

/** success / info / warning / error toasts at the top of the window (antd message). */
export function useToast(): Toast {
  const toast = use(ToastContext);
  if (!toast) throw new Error('useToast outside ToastProvider');
  return toast;
}
