import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PoolBusyError } from '../db/connection-queue.ts';
import { isStatementTimeout } from '../db/statement-timeout.ts';
import { freePort } from '../test/server-process.ts';
import { DependencyWatch, unavailableDependency } from './dependency-faults.ts';
import { REDIS_OPTIONS } from './redis.ts';

// The errors are real ones, made by the drivers: a refused PostgreSQL connection, SQLite busy and full,
// an ioredis command while it is not connected. Nothing here needs a running service.

const caught = async (work: () => unknown) => {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
};

describe('unavailableDependency', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-faults-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('knows PostgreSQL away: a refused connection, and one that does not come within its timeout', async () => {
    const port = await freePort();
    const refused = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/x`, connectionTimeoutMillis: 2_000 });
    expect(unavailableDependency(await caught(() => refused.query('select 1')))).toBe('database');
    await refused.end();
    // a server that takes the connection and never answers
    const silent = net.createServer(() => {}).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const waiting = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${(silent.address() as net.AddressInfo).port}/x`, connectionTimeoutMillis: 200 });
    expect(unavailableDependency(await caught(() => waiting.query('select 1')))).toBe('database');
    await waiting.end();
    silent.close();
    expect(unavailableDependency(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe('database');
  });

  it('knows SQLite busy and full, and not a constraint', async () => {
    const file = path.join(dir, 'busy.db');
    const holder = new DatabaseSync(file);
    holder.exec('create table t (x blob)');
    holder.exec('begin immediate');
    const waiter = new DatabaseSync(file, { timeout: 0 });
    const busy = await caught(() => waiter.exec('insert into t values (1)'));
    holder.exec('rollback');
    expect(unavailableDependency(busy)).toBe('database');

    const full = new DatabaseSync(':memory:');
    full.exec('create table t (x blob unique); pragma max_page_count = 8');
    expect(unavailableDependency(await caught(() => full.exec("insert into t select randomblob(4096) from (select 1 union all select 2 union all select 3 union all select 4 union all select 5 union all select 6 union all select 7 union all select 8 union all select 9)")))).toBe('database');
    full.exec('insert into t values (1)');
    expect(unavailableDependency(await caught(() => full.exec('insert into t values (1)')))).toBeUndefined();
    for (const db of [holder, waiter, full]) db.close();
  });

  it('knows Redis away: a command while not connected fails at once', async () => {
    const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, { ...REDIS_OPTIONS, retryStrategy: () => null });
    redis.on('error', () => {});
    await caught(() => redis.connect());
    expect(unavailableDependency(await caught(() => redis.get('k')))).toBe('redis');
    redis.disconnect();
  });

  it('knows PostgreSQL too busy: its pool refused the caller (queue full, or waited out)', () => {
    expect(unavailableDependency(new PoolBusyError('queueFull'))).toBe('database');
    expect(unavailableDependency(new PoolBusyError('waitTimeout'))).toBe('database');
    // a statement stopped by its timeout is not the database away: http/error-handler.ts answers it apart
    const timedOut = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    expect(unavailableDependency(timedOut)).toBeUndefined();
    expect(isStatementTimeout(timedOut)).toBe(true);
  });

  it('leaves anything else to the generic answer', () => {
    expect(unavailableDependency(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBeUndefined();
    expect(unavailableDependency(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeUndefined();
    expect(unavailableDependency(undefined)).toBeUndefined();
  });
});

describe('DependencyWatch', () => {
  it('logs one line per change of state, however many failures come between', () => {
    const lines: string[] = [];
    const watch = new DependencyWatch('Redis', { warn: (_details, message) => void lines.push(message) });
    watch.back();
    for (let i = 0; i < 5; i++) watch.lost(new Error('connect ECONNREFUSED'));
    expect(watch.up).toBe(false);
    watch.back();
    watch.back();
    watch.lost();
    expect(lines).toEqual(['Redis unreachable', 'Redis back', 'Redis unreachable']);
  });
});
