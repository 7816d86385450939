import { ConfigProvider } from 'antd';
import { LoadingOutlined } from '@ant-design/icons';
import zhCN from 'antd/es/locale/zh_CN';
import 'virtual:antd-css/base.css';
import { AppRoutes } from './router.tsx';
import { ToastProvider } from '../shared/toast.tsx';
import { prefersReducedMotion } from './motion.ts';

/**
 * Every button's loading spinner: given here, antd shows it exactly while `loading` is true. Its default
 * spinner leaves with a CSS transition and is removed only on `transitionend`; when a quick answer
 * interrupts the entering transition (a busy machine), that event never comes and the spinner stays in
 * the button for good ('loading 登录' after a wrong password). Hidden from assistive technology like
 * every icon (icons.tsx): the button's own text names it.
 */
const buttonConfig = { autoInsertSpace: false, loadingIcon: <LoadingOutlined aria-hidden /> };
/**
 * antd renders with static CSS (`zeroRuntime`; web/build/antd-css.ts cuts antd.css in parts, this one for
 * what shows before sign-in): a cold screen load runs about half the script (5.9 → 2.4 s of main-thread
 * work measured on a list screen) and a dialog opens in a quarter of the time. The style functions antd
 * would run otherwise are left out of the build (web/build/antd-style-strip.ts).
 */
const theme = { zeroRuntime: true, token: { colorPrimary: '#1668dc', motion: !prefersReducedMotion } };
const wave = { disabled: prefersReducedMotion };

/** Providers: Chinese locale and theme, the one toast holder, the router. antd App (modal hooks) and TanStack Query: ProtectedLayout. */
export function App() {
  return (
    <ConfigProvider locale={zhCN} button={buttonConfig} theme={theme} wave={wave}>
      <ToastProvider>
        <AppRoutes />
      </ToastProvider>
    </ConfigProvider>
  );
}
