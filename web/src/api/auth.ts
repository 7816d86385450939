import { messages, type CurrentUser, type LoginAnswer } from '@huiyun/contract';
import { request } from './client.ts';

export type LoginInput = { userName: string; passwd: string; remember: boolean };

export async function login(input: LoginInput): Promise<LoginAnswer> {
  const answer = await request<LoginAnswer>('/sync/login', {
    body: input,
    skipSessionExpiry: true,
    failText: messages.common.serverBusy,
  });
  return answer.data;
}

export async function logout(): Promise<void> {
  await request('/sync/logout', { method: 'POST', body: {}, skipSessionExpiry: true });
}

export async function fetchCurrentUser(): Promise<CurrentUser> {
  const answer = await request<CurrentUser>('/sync/currentUser', { failText: messages.layout.userLoadFailed });
  return answer.data;
}

export type PasswordChangeInput = {
  userId: number;
  userName: string;
  oldPasswd: string;
  passwd: string;
  confirmPasswd: string;
};

/** Answers the server's success text ('保存成功！'). */
export async function updatePassword(input: PasswordChangeInput): Promise<string> {
  const answer = await request('/sync/update/password', { body: input, failText: messages.password.saveFailed });
  return answer.msg || messages.password.saved;
}
