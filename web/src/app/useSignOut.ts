import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { messages } from '@huiyun/contract';
import { logout } from '../api/auth.ts';
import { clearSession } from '../shared/session.ts';
import { useToast } from '../shared/toast.tsx';

const LEAVE_DELAY_MS = 1000;

/** Shared end of a session: clear it, say 已退出登录!, go to loginUrl after delayMs. */
function useLeave() {
  const message = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (loginUrl: string, delayMs: number) => {
    clearSession();
    void message.success(messages.login.loggedOut);
    setTimeout(() => {
      navigate(loginUrl, { replace: true });
      queryClient.clear();
    }, delayMs);
  };
}

/** 退出 after confirmation (SPEC §2.3): POST /sync/logout, whatever it answers the local session ends. */
export function useLogout() {
  const leave = useLeave();
  return async () => {
    try {
      await logout();
    } catch {
      // The session ends locally anyway; the server drops it when it idles out.
    }
    leave('/login', LEAVE_DELAY_MS);
  };
}

/** SPEC §4 for HTTP 401: the server's text, then a second later the logged-out text and /login?redirect=. */
export function useSessionExpiry() {
  const message = useToast();
  const leave = useLeave();
  const leaving = useRef(false);
  return (serverMessage: string) => {
    if (leaving.current) return;
    leaving.current = true;
    void message.info(serverMessage);
    const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
    setTimeout(() => leave(`/login?redirect=${encodeURIComponent(here)}`, 0), LEAVE_DELAY_MS);
  };
}
