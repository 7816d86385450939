import { describe, expect, it } from 'vitest';
import { messages } from '@huiyun/contract';
import { ApiError } from '../api/client.ts';
import { createQueryClient, queryErrorText } from './queryClient.ts';

describe('queryErrorText', () => {
  it('shows the server (or client) text of an ApiError', () => {
    expect(queryErrorText(new ApiError('权限不足', 403), undefined)).toBe('权限不足');
  });
  it('stays quiet when the client already told the user (session expiry)', () => {
    expect(queryErrorText(new ApiError('登录已失效', 401, true), undefined)).toBeNull();
  });
  it("falls back to the screen's text, else 加载失败", () => {
    expect(queryErrorText(new TypeError('x'), { errorText: '设备加载失败' })).toBe('设备加载失败');
    expect(queryErrorText(new TypeError('x'), undefined)).toBe(messages.common.loadFailed);
  });
  it('stays quiet for a query the screen reports itself', () => {
    expect(queryErrorText(new ApiError('权限不足', 403), { silent: true })).toBeNull();
  });
});

describe('createQueryClient', () => {
  it('tells a failed load once, however many screens watch the query', async () => {
    const shown: string[] = [];
    const client = createQueryClient((text) => shown.push(text));
    const queryFn = async (): Promise<string[]> => {
      throw new ApiError('公司加载失败', 500);
    };
    await Promise.all([
      client.query({ queryKey: ['a'], queryFn }).catch(() => undefined),
      client.query({ queryKey: ['a'], queryFn }).catch(() => undefined),
    ]);
    expect(shown).toEqual(['公司加载失败']);
  });
});
