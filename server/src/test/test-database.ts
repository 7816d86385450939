import { randomBytes } from 'node:crypto';
import type { Kysely, LogConfig } from 'kysely';
import pg from 'pg';
import { connectDatabase } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

export type TestDatabase = { db: Kysely<Database>; kind: 'sqlite' | 'postgres'; url?: string; drop: () => Promise<void> };

export const testDbKind = (): 'sqlite' | 'postgres' => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite');

/**
 * A database of its own for one test file: SQLite in memory, or a new PostgreSQL database dropped after.
 * `log` sees every statement run (a test counting the statements of a request).
 */
export async function createTestDatabase(options: { prepared?: boolean; poolSize?: number; log?: LogConfig } = {}): Promise<TestDatabase> {
  if (testDbKind() === 'sqlite') {
    const db = connectDatabase({ kind: 'sqlite', file: ':memory:' }, { log: options.log });
    return { db, kind: 'sqlite', drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `huiyun_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = connectDatabase({ kind: 'postgres', url: url.toString(), prepared: options.prepared, poolSize: options.poolSize }, { log: options.log });
  return {
    db,
    kind: 'postgres',
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await dropWhenClosed(client, name);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Drops the database once the test's own connections are gone. A pool's end() can resolve before its
 * sockets have closed; `with (force)` would then kill them and their clients would raise FATAL 57P01
 * as unhandled errors, so wait for them (55006: still in use) and force only as a last resort.
 */
async function dropWhenClosed(client: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await client.query(`drop database if exists ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006') throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await client.query(`drop database if exists ${name} with (force)`);
}
