import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { HOME_URL } from '@huiyun/contract';
import { getSession } from '../shared/session.ts';

/** SPEC §2.1: a protected route without a stored session goes to /login?redirect=<full path>. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (getSession()) return children;
  const target = `${location.pathname}${location.search}${location.hash}`;
  return <Navigate to={`/login?redirect=${encodeURIComponent(target)}`} replace />;
}

/** SPEC §2.1: / and /login while logged in go to the home screen. */
export function GuestOnly({ children }: { children: ReactNode }) {
  if (getSession()) return <Navigate to={HOME_URL} replace />;
  return children;
}
