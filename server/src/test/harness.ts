import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { LightMyRequestResponse } from 'fastify';
import { RoleId, type Envelope, type LockStatus } from '@huiyun/contract';
import { buildApp, type App } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { createAccount } from '../modules/system/accounts/index.ts';
import { createTestDatabase, testDbKind } from './test-database.ts';

export const ADMIN_PASSWORD = 'Admin@12345';
/** The password createUser gives when the test names none. */
export const USER_PASSWORD = 'User@12345';

export type TestApp = App & {
  clock: { advance: (ms: number) => void };
  /** Logs in and answers the token; fails the test when the login fails. */
  login: (userName: string, passwd: string, extra?: Record<string, unknown>) => Promise<string>;
  call: (method: string, url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }) => Promise<Called>;
  createUser: (user: { userName: string; password?: string; roleId?: number; deptId?: number | null; isLock?: LockStatus }) => Promise<number>;
  /** A company row of its own (data-scope tests need a second one); answers its deptId. */
  createCompany: (deptName: string, deptNo: string) => Promise<number>;
  close: () => Promise<void>;
  /** The start of this app's Redis keys (a second app on the same database shares its sessions with it). */
  redisPrefix: string;
  /** PostgreSQL: the app's database (a test's own session on it); undefined on SQLite. */
  databaseUrl?: string;
};

export type Called = { status: number; body: Envelope<any>; raw: LightMyRequestResponse };

/**
 * The real server through fastify.inject, on its own database (SQLite in memory, or a fresh
 * PostgreSQL database when TEST_DB=postgres, with Redis sessions when TEST_REDIS_URL is set too).
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const testDb = await createTestDatabase({ migrated: true });
  const redisUrl = testDbKind() === 'postgres' ? process.env.TEST_REDIS_URL : undefined;
  const redisPrefix = `huiyun-test:${randomBytes(4).toString('hex')}:`;
  const config: Config = loadConfig({
    ADMIN_PASSWORD,
    DATA_DIR: path.join(os.tmpdir(), `huiyun-test-${process.pid}`),
    LOGIN_SLOWDOWN_MS: '0',
    LOG_LEVEL: 'silent',
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...env,
  });
  let offset = 0;
  const built = await buildApp(config, { db: testDb.db, redisPrefix, now: () => Date.now() + offset, logger: false });
  const { app } = built;

  const call: TestApp['call'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.token = options.token;
    const raw = await app.inject({ method: method as 'GET', url, headers, ...(options.body !== undefined ? { payload: options.body as object } : {}) });
    let body: Envelope<any>;
    try {
      body = raw.json();
    } catch {
      body = { success: false, msg: `non-JSON answer: ${raw.body.slice(0, 200)}`, errorInfo: '' };
    }
    return { status: raw.statusCode, body, raw };
  };

  return {
    ...built,
    redisPrefix,
    clock: { advance: (ms) => void (offset += ms) },
    call,
    login: async (userName, passwd, extra = {}) => {
      const { body } = await call('POST', '/sync/login', { body: { userName, passwd, ...extra } });
      if (!body.success) throw new Error(`login of ${userName} failed: ${body.msg}`);
      return body.data.token as string;
    },
    createUser: async ({ userName, password = USER_PASSWORD, roleId = RoleId.ordinaryUser, deptId = 1, isLock = 'N' }) => {
      return createAccount(built.ctx.db, {
        userName, userRealName: userName, password, userSex: '男', isLock, deptId, roleId, addUser: 'test', now: Date.now(),
      });
    },
    createCompany: async (deptName, deptNo) => {
      const now = Date.now();
      const row = await built.ctx.db
        .insertInto('sys_dept')
        .values({ deptName, deptNo, parentId: 0, addUser: 'test', editUser: 'test', addTime: now, editTime: now })
        .returning('deptId')
        .executeTakeFirstOrThrow();
      return row.deptId;
    },
    databaseUrl: testDb.url,
    close: async () => {
      await app.close();
      await testDb.drop();
      if (redisUrl) await dropRedisKeys(redisUrl, redisPrefix);
    },
  };
}

/** A test app and the super administrator's token: `({ t, token } = await startAdminApp())` in a beforeAll. */
export async function startAdminApp(env: Record<string, string> = {}): Promise<{ t: TestApp; token: string }> {
  const t = await startTestApp(env);
  return { t, token: await t.login('admin', ADMIN_PASSWORD) };
}

async function dropRedisKeys(url: string, prefix: string) {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
