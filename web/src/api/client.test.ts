import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, UploadKind } from '@huiyun/contract';
import { ApiError, download, readEnvelope, request, requestPage, setSessionExpiredHandler } from './client.ts';
import { uploadFile } from './files.ts';

const FAIL = '屏幕的失败文字';

function memoryStorage(entries: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(entries));
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, value),
  };
}

/** A browser with a stored session (token 't1'), or without one. */
function signIn(token: string | null) {
  vi.stubGlobal('window', { localStorage: memoryStorage(token ? { logintoken: token } : {}), sessionStorage: memoryStorage() });
}

const expired = { success: false, msg: '登录已失效' };
const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** An XMLHttpRequest that answers status + body as soon as it is sent. */
function fakeXhr(status: number, body: string) {
  return class {
    status = status;
    responseText = body;
    upload = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    open() {}
    setRequestHeader() {}
    send() {
      queueMicrotask(() => this.onload?.());
    }
  };
}

let expiredTexts: string[];
beforeEach(() => {
  expiredTexts = [];
  setSessionExpiredHandler((text) => expiredTexts.push(text));
});
afterEach(() => {
  setSessionExpiredHandler(null);
  vi.unstubAllGlobals();
});

describe('readEnvelope', () => {
  it('answers the data, total and text of a success', () => {
    expect(readEnvelope(200, { success: true, data: [1], total: 3, msg: '好' }, { failText: FAIL, token: 't1' })).toEqual({ data: [1], total: 3, msg: '好' });
  });

  it('keeps the flag of a bounded count, and a list page carries it to the pager (共 1,000+ 条)', async () => {
    const bounded = { success: true, data: [1], total: 1001, totalBounded: true };
    expect(readEnvelope(200, bounded, { failText: FAIL, token: 't1' })).toEqual({ data: [1], total: 1001, msg: '', totalBounded: true });
    signIn('t1');
    vi.stubGlobal('fetch', async () => jsonResponse(200, bounded));
    expect(await requestPage('/x', { body: {}, failText: FAIL })).toEqual({ data: [1], total: 1001, totalBounded: true });
    vi.stubGlobal('fetch', async () => jsonResponse(200, { success: true, data: [], total: 1001 }));
    expect(await requestPage('/x', { body: {}, failText: FAIL })).toEqual({ data: [], total: 1001 });
  });

  it('carries the cursor of a full page to the pager, which sends it back with the next page (keyset paging)', async () => {
    signIn('t1');
    vi.stubGlobal('fetch', async () => jsonResponse(200, { success: true, data: [1], total: 30, next: 'abc' }));
    expect(await requestPage('/x', { body: {}, failText: FAIL })).toEqual({ data: [1], total: 30, next: 'abc' });
  });

  it('gives the screen text for an answer that is no envelope', () => {
    for (const body of [null, 'text', { data: 1 }]) {
      expect(() => readEnvelope(200, body, { failText: FAIL, token: 't1' })).toThrow(FAIL);
    }
  });

  it('gives the server text of a refusal, else the screen text', () => {
    expect(() => readEnvelope(400, { success: false, msg: '不行' }, { failText: FAIL, token: 't1' })).toThrow('不行');
    expect(() => readEnvelope(400, { success: false, errorInfo: '错误' }, { failText: FAIL, token: 't1' })).toThrow('错误');
    expect(() => readEnvelope(400, { success: false }, { failText: FAIL, token: 't1' })).toThrow(FAIL);
    expect(expiredTexts).toEqual([]);
  });

  it('ends a session on 401 once, and marks the error as already told', () => {
    let caught: unknown;
    try {
      readEnvelope(401, expired, { failText: FAIL, token: 't1' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect(caught).toMatchObject({ status: 401, handled: true, message: '登录已失效' });
    expect(expiredTexts).toEqual(['登录已失效']);
  });

  it('leaves a 401 without a session, or one the call asked to skip (login), to the screen', () => {
    expect(() => readEnvelope(401, expired, { failText: FAIL, token: null })).toThrow(expect.objectContaining({ handled: false }));
    expect(() => readEnvelope(401, { success: false, msg: '用户名或密码错误' }, { failText: FAIL, token: 't1', skipSessionExpiry: true })).toThrow(
      expect.objectContaining({ handled: false, status: 401, message: '用户名或密码错误' }),
    );
    expect(expiredTexts).toEqual([]);
  });

  it('says the session expired when a 401 carries no text', () => {
    expect(() => readEnvelope(401, { success: false }, { failText: FAIL, token: 't1' })).toThrow(messages.common.sessionExpired);
    expect(expiredTexts).toEqual([messages.common.sessionExpired]);
  });
});

describe('the session-expiry rule is the same for every kind of call', () => {
  it('request', async () => {
    signIn('t1');
    vi.stubGlobal('fetch', async () => jsonResponse(401, expired));
    await expect(request('/x', { failText: FAIL })).rejects.toMatchObject({ status: 401, handled: true });
    expect(expiredTexts).toEqual(['登录已失效']);
  });

  it('download', async () => {
    signIn('t1');
    vi.stubGlobal('fetch', async () => jsonResponse(401, expired));
    await expect(download('/x', { failText: FAIL, fileName: 'a.xlsx' })).rejects.toMatchObject({ status: 401, handled: true });
    expect(expiredTexts).toEqual(['登录已失效']);
  });

  it('uploadFile (it ignored the rule before)', async () => {
    signIn('t1');
    vi.stubGlobal('XMLHttpRequest', fakeXhr(401, JSON.stringify(expired)));
    await expect(uploadFile(new Blob(['1']), UploadKind.numbers, () => {}, FAIL)).rejects.toMatchObject({ status: 401, handled: true });
    expect(expiredTexts).toEqual(['登录已失效']);
  });

  it('uploadFile answers the stored files, and the screen text for a broken answer', async () => {
    signIn('t1');
    vi.stubGlobal('XMLHttpRequest', fakeXhr(200, JSON.stringify({ success: true, data: [{ fileNo: 'f1' }] })));
    await expect(uploadFile(new Blob(['1']), UploadKind.numbers, () => {}, FAIL)).resolves.toEqual([{ fileNo: 'f1' }]);
    vi.stubGlobal('XMLHttpRequest', fakeXhr(502, '<html>'));
    await expect(uploadFile(new Blob(['1']), UploadKind.numbers, () => {}, FAIL)).rejects.toMatchObject({ status: 502, message: FAIL });
  });

  it('a download refused with a JSON envelope shows the server text', async () => {
    signIn('t1');
    vi.stubGlobal('fetch', async () => jsonResponse(403, { success: false, msg: '无权限' }));
    await expect(download('/x', { failText: FAIL, fileName: 'a.xlsx' })).rejects.toMatchObject({ status: 403, message: '无权限', handled: false });
    expect(expiredTexts).toEqual([]);
  });
});
