import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayType } from '@huiyun/contract';
import { buildApp, type App } from '../../../app.ts';
import { loadConfig } from '../../../config.ts';
import { connectDatabase } from '../../../db/connect.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from '../../../test/test-database.ts';
import { payAccount } from './pay-account-cache.ts';

// An instance keeps the 支付配置 it opened (pay-account-cache.ts); no secret is used after the save that
// replaced it: not by the instance that saved, nor by another one once the save's announcement arrives (Redis).

const simulatorConfig = (partnerKey: string, id?: number) => ({
  ...(id === undefined ? {} : { id }), name: '缓存-模拟网关', payType: PayType.wechat, gateway: 'simulator', partner: 'MCH-CACHE', appid: '', partnerKey, deptId: 1,
});

async function saveAs(app: App['app'], token: string, body: Record<string, unknown>): Promise<number> {
  const answer = (await app.inject({ method: 'POST', url: '/api/Config/save', headers: { token }, payload: body })).json() as { success: boolean; msg: string; data?: { id: number } };
  if (!answer.success) throw new Error(`save refused: ${answer.msg}`);
  return answer.data!.id;
}

async function adminToken(app: App['app']): Promise<string> {
  const answer = (await app.inject({ method: 'POST', url: '/sync/login', payload: { userName: 'admin', passwd: ADMIN_PASSWORD } })).json() as { data: { token: string } };
  return answer.data.token;
}

describe('the opened 支付配置 of an instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('is opened once, and opened anew after every save and delete', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const id = await saveAs(t.app, token, simulatorConfig('key-one'));
    const first = await payAccount(t.ctx, id);
    expect(first?.secrets.partnerKey).toBe('key-one');
    expect(await payAccount(t.ctx, id)).toBe(first); // kept: not read nor opened again

    await saveAs(t.app, token, simulatorConfig('key-two', id));
    expect((await payAccount(t.ctx, id))?.secrets.partnerKey).toBe('key-two');

    // (a read under way while the save commits is not kept: infra/invalidated-cache.test.ts)

    const deleted = (await t.call('DELETE', `/api/Config/delete?ids=${id}`, { token })).body;
    expect(deleted.success).toBe(true);
    expect(await payAccount(t.ctx, id)).toBeUndefined();
  });
});

// Two instances on one PostgreSQL database and one Redis: a save on one drops the other's copy.
describe.runIf(testDbKind() === 'postgres' && process.env.TEST_REDIS_URL)('the opened 支付配置 across instances (Redis)', () => {
  let database: TestDatabase;
  let a: App;
  let b: App;
  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    const config = loadConfig({
      ADMIN_PASSWORD, DATA_DIR: path.join(os.tmpdir(), `huiyun-test-${process.pid}`), LOGIN_SLOWDOWN_MS: '0', LOG_LEVEL: 'silent', REDIS_URL: process.env.TEST_REDIS_URL!,
    });
    const redisPrefix = `huiyun-test:${randomBytes(4).toString('hex')}:`;
    a = await buildApp(config, { db: database.db, redisPrefix, logger: false });
    b = await buildApp(config, { db: connectDatabase({ kind: 'postgres', url: database.url! }), redisPrefix, logger: false });
  });
  afterAll(async () => {
    await b?.app.close();
    await a?.app.close();
    await database?.drop();
  });

  it('is never used by another instance after a save', async () => {
    const token = await adminToken(a.app);
    const id = await saveAs(a.app, token, simulatorConfig('key-one'));
    expect((await payAccount(b.ctx, id))?.secrets.partnerKey).toBe('key-one');
    expect(await payAccount(b.ctx, id)).toBe(await payAccount(b.ctx, id)); // B keeps its copy

    await saveAs(a.app, token, simulatorConfig('key-two', id));
    // B's copy is dropped when A's announcement arrives, just after A's commit (without it: kept 5 minutes, and this fails)
    await expect.poll(async () => (await payAccount(b.ctx, id))?.secrets.partnerKey, { timeout: 5_000 }).toBe('key-two');
    expect((await payAccount(a.ctx, id))?.secrets.partnerKey).toBe('key-two');
  });
});
