import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from './migrations/index.ts';
import { migrateToLatest, NewerDatabaseError, unknownMigrations } from './migrate.ts';
import { useDatabaseBefore } from '../test/migration-test-support.ts';
import { serverOnTestDatabase, type ServerOnTestDatabase } from '../test/server-process.ts';

// A rolling upgrade runs old and new versions side by side; an old one started after the new one migrated
// must not run on a schema it does not know (docs/architecture.md, "Schema changes and a rolling upgrade").

const FUTURE = '9999_from_a_newer_version';
const recorded = async (db: Kysely<any>) =>
  (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);
const recordFuture = (db: Kysely<any>) => sql`insert into kysely_migration (name, timestamp) values (${FUTURE}, ${new Date().toISOString()})`.execute(db);

describe('a server started on a database migrated by a newer version', () => {
  let t: ServerOnTestDatabase;
  beforeAll(async () => {
    t = await serverOnTestDatabase();
    await t.server.kill();
    await recordFuture(t.db);
  });
  afterAll(() => t?.close());

  it('exits non-zero with the unknown migrations and what to do in its log, and changes nothing', async () => {
    const before = await recorded(t.db);
    await expect(t.server.start()).rejects.toThrow(/server exited with 1/);
    expect(t.server.exitedByItself()).toBe(1);
    const fatal = t.server.output().stdout.split('\n').filter((line) => line.includes('"level":60')).map((line) => JSON.parse(line));
    expect(fatal).toHaveLength(1);
    expect(fatal[0].unknownMigrations).toEqual([FUTURE]);
    expect(fatal[0].msg).toContain(FUTURE);
    expect(fatal[0].msg).toContain('newer version');
    expect(fatal[0].msg).toContain('restore the backup');
    expect(await recorded(t.db)).toEqual(before);
  });
});

describe('an older database (fewer migrations)', () => {
  const database = useDatabaseBefore('0034_sales_pending');
  beforeAll(() => database.migrate());

  it('has no unknown migrations and migrates forward to the latest', async () => {
    expect(await unknownMigrations(database.db())).toEqual([]);
    await database.finish();
    expect(await recorded(database.db())).toEqual(Object.keys(migrations).sort());
  });

  it('is refused by the migration once a newer version has recorded one, before anything runs', async () => {
    await recordFuture(database.db());
    await expect(migrateToLatest(database.db())).rejects.toThrow(NewerDatabaseError);
    await expect(migrateToLatest(database.db())).rejects.toThrow(FUTURE);
  });
});
