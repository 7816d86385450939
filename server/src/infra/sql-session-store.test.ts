import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from '../db/migrate.ts';
import { seed } from '../seed.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-database.ts';
import { TOUCH_INTERVAL_MS } from './session-store.ts';
import { SqlSessionStore } from './sql-session-store.ts';

// The row's lastSeenAt is written at most once a touch interval, which used to end a
// session up to a minute before its idle time had passed since the last request.
let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
  await migrateToLatest(testDb.db);
  await seed(testDb.db, { adminPassword: 'Admin@12345', dataDir: '/tmp', log: () => {} });
});
afterAll(async () => {
  await testDb?.db.destroy();
  await testDb?.drop();
});

const IDLE_MS = 30 * 60_000;
const session = (tokenHash: string, now: number) => ({ tokenHash, userId: 1, createdAt: now, lastSeenAt: now, idleMs: IDLE_MS, ip: '127.0.0.1', userAgent: 'test' });

it('ends a session exactly its idle time after its last request, not up to a touch interval earlier', async () => {
  const store = new SqlSessionStore(testDb.db);
  const t0 = 1_700_000_000_000;
  await store.create(session('exact', t0));
  // A request just before the row would be written again: only the store's memory holds it.
  const last = t0 + TOUCH_INTERVAL_MS - 1;
  expect((await store.resume('exact', last))?.lastSeenAt).toBe(last);
  expect((await testDb.db.selectFrom('sys_session').select('lastSeenAt').where('tokenHash', '=', 'exact').executeTakeFirstOrThrow()).lastSeenAt).toBe(t0);

  // 在线用户 lists it by its real last request, up to the last millisecond of its idle time.
  const listed = (await store.listActive(last + IDLE_MS)).find((s) => s.tokenHash === 'exact');
  expect(listed?.lastSeenAt).toBe(last);
  // A new login's sweep does not take it either.
  await store.create(session('other', last + IDLE_MS));
  expect((await store.resume('exact', last + IDLE_MS))?.userId).toBe(1);

  const next = last + IDLE_MS;
  expect(await store.resume('exact', next + IDLE_MS + 1)).toBeUndefined();
  expect((await store.listActive(next + IDLE_MS + 1)).find((s) => s.tokenHash === 'exact')).toBeUndefined();
});

it('after a restart (nothing remembered) falls back to the row, and forgets revoked sessions', async () => {
  const t0 = 1_800_000_000_000;
  const first = new SqlSessionStore(testDb.db);
  await first.create(session('restart', t0));
  await first.resume('restart', t0 + 1000);
  const second = new SqlSessionStore(testDb.db);
  expect((await second.resume('restart', t0 + IDLE_MS))?.userId).toBe(1);
  expect(await second.resume('restart', t0 + 2 * IDLE_MS + 1)).toBeUndefined();

  await first.create(session('revoked', t0));
  await first.revokeUser(1);
  expect(await first.resume('revoked', t0 + 1)).toBeUndefined();
});

it('touches the row once a touch interval while the session is read from memory', async () => {
  const store = new SqlSessionStore(testDb.db);
  const t0 = 2_000_000_000_000;
  await store.create(session('touch', t0));
  const rowTime = async () => (await testDb.db.selectFrom('sys_session').select('lastSeenAt').where('tokenHash', '=', 'touch').executeTakeFirstOrThrow()).lastSeenAt;
  for (let at = t0; at < t0 + TOUCH_INTERVAL_MS; at += 250) await store.resume('touch', at);
  expect(await rowTime()).toBe(t0);
  await store.resume('touch', t0 + TOUCH_INTERVAL_MS);
  expect(await rowTime()).toBe(t0 + TOUCH_INTERVAL_MS);
  await store.resume('touch', t0 + TOUCH_INTERVAL_MS + 100); // within the recheck time: no second write
  expect(await rowTime()).toBe(t0 + TOUCH_INTERVAL_MS);
});
