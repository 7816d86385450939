import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { migrations } from './migrations/index.ts';

// The same migration files run on SQLite and PostgreSQL, at every start, before the server listens.
const provider: MigrationProvider = {
  getMigrations: async () => migrations as Record<string, Migration>,
};

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  await migrateTo(db);
}

/** Up to and including `name` (a key of migrations/index.ts); all of them when omitted. Tests of a migration stop before it. */
export async function migrateTo(db: Kysely<any>, name?: keyof typeof migrations): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = name ? await migrator.migrateTo(name) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String((error as Error)?.message ?? error)}`, { cause: error });
  }
}
