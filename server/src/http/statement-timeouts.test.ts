import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@huiyun/contract';
import { startAdminApp, type TestApp } from '../test/harness.ts';
import { testDbKind } from '../test/test-database.ts';
import { answers } from './route-doc.ts';
import { statementTimeoutOf } from './statement-timeouts.ts';

// Which routes run under a statement timeout, and (PostgreSQL) what a console read stopped by it answers.

const bounds = { readMs: 200, exportMs: 5_000 };
const of = (config: Record<string, unknown>) => statementTimeoutOf({ config }, bounds);

describe('statementTimeoutOf', () => {
  it('bounds a console read by readMs and an export by exportMs', () => {
    expect(of({ access: { permission: 'machine:MachineInfo:list' }, doc: { tag: 'machines', answer: answers.list(answers.message as never) } })).toBe(200);
    expect(of({ access: 'login', doc: { tag: 'auth', answer: answers.message } })).toBe(200);
    expect(of({ access: { anyOf: ['system:User:list'] } })).toBe(200);
    expect(of({ access: { permission: 'machine:MachineInfo:list' }, doc: { tag: 'machines', answer: answers.xlsx } })).toBe(5_000);
    expect(of({ access: { permission: 'task:Task:export' }, doc: { tag: 'task', answer: answers.numbersText } })).toBe(5_000);
  });

  it('leaves unbounded what changes something, the machines\', the devices\' and the public calls', () => {
    expect(of({ access: { permission: 'system:Variable:save' }, audit: { module: '变量管理', action: '保存' } })).toBe(0);
    for (const access of ['terminal', 'device', 'public']) expect(of({ access })).toBe(0);
    expect(statementTimeoutOf({ config: { access: { permission: 'machine:MachineInfo:list' } } }, { readMs: 0, exportMs: 0 })).toBe(0);
  });
});

describe.runIf(testDbKind() === 'postgres')('a console read past its statement timeout (needs TEST_DATABASE_URL)', () => {
  const METRICS_TOKEN = 'metrics-token-0123456789';
  let t: TestApp;
  let token: string;
  let holder: pg.Client;
  beforeAll(async () => {
    ({ t, token } = await startAdminApp({ CONSOLE_STATEMENT_TIMEOUT_MS: String(bounds.readMs), EXPORT_STATEMENT_TIMEOUT_MS: String(bounds.exportMs), METRICS_TOKEN }));
    holder = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await t?.close();
  });

  // another session holds the machines' table: every read of it waits until that one ends
  const whileLocked = async <T>(work: () => Promise<T>, unlockAfter?: Promise<unknown>) => {
    await holder.query('begin');
    await holder.query('lock table pay_machine in access exclusive mode');
    try {
      const done = work();
      await unlockAfter;
      if (unlockAfter) await holder.query('commit');
      return await done;
    } finally {
      await holder.query('rollback').catch(() => {});
    }
  };
  const metric = async (name: string) => {
    const text = (await t.call('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).raw.body;
    return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
  };

  it('answers 503 with its message (never a 500), is counted, and the next read goes through', async () => {
    expect(await metric('huiyun_database_statement_timeouts_total')).toBe(0);
    const stopped = await whileLocked(() => t.call('POST', '/api/Machine/list', { token, body: { page: 1, limit: 10 } }));
    expect(stopped.status).toBe(503);
    expect(stopped.body.msg).toBe(messages.common.queryTimedOut);
    expect(await metric('huiyun_database_statement_timeouts_total')).toBe(1);
    expect((await t.call('POST', '/api/Machine/list', { token, body: { page: 1, limit: 10 } })).status).toBe(200);
  });

  it('lets an export wait past the read bound, within its own', async () => {
    let waited!: () => void;
    const lockHeldPastReadBound = new Promise<void>((resolve) => (waited = resolve));
    const exported = whileLocked(() => t.call('POST', '/api/Machine/export', { token, body: { page: 1, limit: 10 } }), lockHeldPastReadBound);
    // once the export's statement waits on the lock, hold it past the read bound, then let it go
    const waitingOnLock = sql<{ n: number }>`select count(*)::int as n from pg_locks where relation = 'pay_machine'::regclass and not granted`;
    while ((await waitingOnLock.execute(t.ctx.db)).rows[0]!.n === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, bounds.readMs * 3));
    waited();
    const answer = await exported;
    expect(answer.status).toBe(200);
    expect(answer.raw.headers['content-type']).toMatch(/spreadsheetml/);
    expect(await metric('huiyun_database_statement_timeouts_total')).toBe(1);
  });
});
