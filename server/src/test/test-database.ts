import { randomBytes } from 'node:crypto';
import type { Kysely, LogConfig } from 'kysely';
import pg from 'pg';
import { connectDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';

export type TestDatabase = { db: Kysely<Database>; kind: 'sqlite' | 'postgres'; url?: string; drop: () => Promise<void> };

export const testDbKind = (): 'sqlite' | 'postgres' => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite');

/** The start of a test database's name: huiyun_test_<run>_<pid of the worker that made it>_<random>. */
export const TEST_DATABASE_PREFIX = 'huiyun_test_';

/** The start of the names of this test run's databases (the run: set by no-leftover-databases.ts, else `x`). */
export const testRunPrefix = (run = process.env.HUIYUN_TEST_RUN ?? 'x') => `${TEST_DATABASE_PREFIX}${run}_`;

/**
 * The run's migrated database (made by no-leftover-databases.ts as the run starts), which a test database asked
 * for `migrated` is copied from: migrating a new PostgreSQL database took ~650 ms of CPU (the server's and the
 * test's), copying this one ~60 ms. Unset outside the PostgreSQL leg: a migrated test database is then migrated.
 */
export const testTemplateName = (run: string) => `${testRunPrefix(run)}template`;
const migratedTemplate = () => process.env.HUIYUN_TEST_TEMPLATE;

/** The URL of database `name` on the PostgreSQL server of `adminUrl`. */
function databaseUrlOf(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** `work` on a connection to the PostgreSQL server of `url` (its administrative database), closed after. */
export async function asAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own for one test file: SQLite in memory, or a new PostgreSQL database dropped after.
 * `log` sees every statement run (a test counting the statements of a request). `migrated`: brought up to the
 * latest migration (else empty, as a migration's test or a restore needs it).
 */
export async function createTestDatabase(options: { prepared?: boolean; poolSize?: number; log?: LogConfig; migrated?: boolean } = {}): Promise<TestDatabase> {
  if (testDbKind() === 'sqlite') {
    const db = connectDatabase({ kind: 'sqlite', file: ':memory:' }, { log: options.log });
    if (options.migrated) await migrateToLatest(db);
    return { db, kind: 'sqlite', drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `${testRunPrefix()}${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = options.migrated ? migratedTemplate() : undefined;
  await asAdmin(adminUrl, (admin) => admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`));
  const url = databaseUrlOf(adminUrl, name);
  const db = connectDatabase({ kind: 'postgres', url, prepared: options.prepared, poolSize: options.poolSize }, { log: options.log });
  if (options.migrated && !template) await migrateToLatest(db);
  return {
    db,
    kind: 'postgres',
    url,
    drop: () => asAdmin(adminUrl, (client) => dropWhenClosed(client, name)),
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

/** Makes the run's migrated template (testTemplateName) on the PostgreSQL server of `adminUrl`. */
export async function createMigratedTemplate(adminUrl: string, name: string): Promise<void> {
  await asAdmin(adminUrl, (admin) => admin.query(`create database ${name}`));
  const db = connectDatabase({ kind: 'postgres', url: databaseUrlOf(adminUrl, name), prepared: false, poolSize: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}
