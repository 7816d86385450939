// The locally stored session (SPEC §3): logintoken, userId, code, userInfo. 记住密码 keeps it in
// localStorage (survives a browser restart) and remembers the account name; otherwise it lives in
// sessionStorage. The password itself is never stored.
import type { LoginAnswer } from '@huiyun/contract';

const KEYS = ['logintoken', 'userId', 'code', 'userInfo'] as const;
const REMEMBERED_ACCOUNT = 'rememberedAccount';

export type StoredUserInfo = { userId: number; userName: string; code: number };
export type Session = { token: string; userId: number; code: number; userInfo: StoredUserInfo };

function storages(): Storage[] {
  return [window.localStorage, window.sessionStorage];
}

export function getSession(): Session | null {
  for (const store of storages()) {
    const token = store.getItem('logintoken');
    if (!token) continue;
    let userInfo: StoredUserInfo;
    try {
      userInfo = JSON.parse(store.getItem('userInfo') ?? '{}') as StoredUserInfo;
    } catch {
      userInfo = { userId: 0, userName: '', code: 0 };
    }
    return {
      token,
      userId: Number(store.getItem('userId') ?? userInfo.userId ?? 0),
      code: Number(store.getItem('code') ?? 0),
      userInfo,
    };
  }
  return null;
}

export function getToken(): string | null {
  return getSession()?.token ?? null;
}

export function saveSession(answer: LoginAnswer, userName: string, remember: boolean): void {
  clearSession();
  const store = remember ? window.localStorage : window.sessionStorage;
  const userInfo: StoredUserInfo = { userId: answer.userId, userName, code: answer.code };
  store.setItem('logintoken', answer.token);
  store.setItem('userId', String(answer.userId));
  store.setItem('code', String(answer.code));
  store.setItem('userInfo', JSON.stringify(userInfo));
  if (remember) window.localStorage.setItem(REMEMBERED_ACCOUNT, userName);
  else window.localStorage.removeItem(REMEMBERED_ACCOUNT);
}

export function clearSession(): void {
  for (const store of storages()) for (const key of KEYS) store.removeItem(key);
}

export function getRememberedAccount(): string | null {
  return window.localStorage.getItem(REMEMBERED_ACCOUNT);
}
