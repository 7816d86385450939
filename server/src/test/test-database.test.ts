import { sql } from 'kysely';
import { DEFAULT_MIGRATION_TABLE } from 'kysely/migration';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../db/migrations/index.ts';
import { createTestDatabase, testDbKind, type TestDatabase } from './test-database.ts';

// A test database is empty unless asked for `migrated` (on PostgreSQL: copied from the run's migrated template).
describe(`test databases (${testDbKind()})`, () => {
  const made: TestDatabase[] = [];
  afterAll(async () => {
    for (const t of made) {
      await t.db.destroy();
      await t.drop();
    }
  });
  const tables = async (t: TestDatabase) => (await t.db.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name);

  it('a migrated one has every migration and the tables they make, and writes of its own', async () => {
    const [a, b] = [await createTestDatabase({ migrated: true }), await createTestDatabase({ migrated: true })];
    made.push(a, b);
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`.execute(a.db);
    expect(rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
    expect(await tables(a)).toEqual(expect.arrayContaining(['pay_order', 'sys_user', 'sync_task']));
    // two copies are two databases
    await a.db.deleteFrom('sys_variable').execute();
    expect(Number((await b.db.selectFrom('sys_variable').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBeGreaterThan(0);
  });

  it('one not asked for it is empty', async () => {
    const t = await createTestDatabase();
    made.push(t);
    expect(await tables(t)).toEqual([]);
  });
});
