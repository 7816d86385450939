import { randomAuthCode, type AuthCodeSave, type Envelope, type LoginAnswer, type TaskUserChoice } from '@huiyun/contract';

// The demo shortcut of `npm run device -- --admin USER:PASSWORD --owner USERNAME`: makes the
// fleet's codes through the console API, as an administrator would in 授权码列表 (随机生成).

export type MakeCodes = { server: string; admin: string; password: string; owner: string; count: number; quota: number; days: number };

export async function makeAuthCodes(options: MakeCodes): Promise<string[]> {
  const server = options.server.replace(/\/+$/, '');
  const call = async <T>(path: string, body: unknown, token?: string): Promise<T> => {
    const response = await fetch(`${server}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
      body: JSON.stringify(body),
    });
    const envelope = (await response.json().catch(() => ({ success: false, msg: `HTTP ${response.status}` }))) as Envelope<T>;
    if (!envelope.success) throw new Error(`${path}: ${envelope.msg || `HTTP ${response.status}`}`);
    return envelope.data as T;
  };

  const { token } = await call<LoginAnswer>('/sync/login', { userName: options.admin, passwd: options.password });
  try {
    const owners = await call<TaskUserChoice[]>('/sync/queryTaskUserList', {}, token);
    const owner = owners.find((o) => o.userName === options.owner);
    if (!owner) throw new Error(`no account "${options.owner}" among the owners ${options.admin} may make codes for`);
    const codes: string[] = [];
    while (codes.length < options.count) {
      const save: AuthCodeSave = { authCode: randomAuthCode(), authUserId: owner.userId, dueNum: options.quota, dueDateNum: options.days };
      await call('/sync/saveAuthCode', save, token);
      codes.push(save.authCode);
    }
    return codes;
  } finally {
    await call('/sync/logout', {}, token).catch(() => undefined);
  }
}
