import { sql, type Kysely } from 'kysely';
import { DEFAULT_MIGRATION_TABLE, Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { migrations } from './migrations/index.ts';

// The same migration files run on SQLite and PostgreSQL, at every start, before the server listens.
const provider: MigrationProvider = {
  getMigrations: async () => migrations as Record<string, Migration>,
};

/**
 * The database was migrated by a newer version of the server: it holds migrations this one does not know.
 * Running on it would read and write a schema this code was not written for, so the server does not start.
 */
export class NewerDatabaseError extends Error {
  readonly unknownMigrations: string[];

  constructor(unknownMigrations: string[]) {
    super(`The database was migrated by a newer version of the server: it has migrations this version does not know (${unknownMigrations.join(', ')}). `
      + 'Start the newer version again, or restore the backup made before the upgrade to run this one. Nothing was changed.');
    this.name = 'NewerDatabaseError';
    this.unknownMigrations = unknownMigrations;
  }
}

/** The migrations recorded in the database that are not in migrations/index.ts; [] on a new database. */
export async function unknownMigrations(db: Kysely<any>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === DEFAULT_MIGRATION_TABLE)) return [];
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`.execute(db);
  return rows.map((r) => r.name).filter((name) => !Object.hasOwn(migrations, name));
}

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  await migrateTo(db);
}

/**
 * Up to and including `name` (a key of migrations/index.ts); all of them when omitted. Tests of a migration stop before it.
 * Throws NewerDatabaseError, before changing anything, on a database migrated by a newer version.
 */
export async function migrateTo(db: Kysely<any>, name?: keyof typeof migrations): Promise<void> {
  const unknown = await unknownMigrations(db);
  if (unknown.length > 0) throw new NewerDatabaseError(unknown);
  const migrator = new Migrator({ db, provider });
  const { error, results } = name ? await migrator.migrateTo(name) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String((error as Error)?.message ?? error)}`, { cause: error });
  }
}
