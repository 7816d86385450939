import { messages, type UserProfile } from '@huiyun/contract';
import { request } from './client.ts';

/** 个人中心: the caller's own account (GET /sync/profile). */
export async function fetchProfile(): Promise<UserProfile> {
  const answer = await request<UserProfile>('/sync/profile', { failText: messages.profile.loadFailed });
  return answer.data;
}
