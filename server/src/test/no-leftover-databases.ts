import { randomBytes } from 'node:crypto';
import { asAdmin, createMigratedTemplate, testRunPrefix, testTemplateName } from './test-database.ts';

// Vitest global setup of the PostgreSQL leg: every test file makes its own database (test-database.ts)
// and must drop it. A file that closes its app without dropping the database (list-routes.test.ts once
// called `app.close()` where `close()` also drops) left one behind on every run. The run gets a name of
// its own, which the workers (started after this setup) put in their databases' names; after the run,
// a database of this run still there is a leftover: it is dropped and the run fails, naming it. The run's
// migrated template, which test databases asked for `migrated` are copied from, is made here and dropped after.

export default async function setup(): Promise<(() => Promise<void>) | void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const run = randomBytes(4).toString('hex');
  process.env.HUIYUN_TEST_RUN = run;
  const template = testTemplateName(run);
  await createMigratedTemplate(url, template);
  process.env.HUIYUN_TEST_TEMPLATE = template;
  return async () => {
    const left = await asAdmin(url, async (client) => {
      await client.query(`drop database if exists ${template} with (force)`);
      const { rows } = await client.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [testRunPrefix(run)]);
      for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
      return rows.map((row) => row.datname);
    });
    if (left.length) throw new Error(`test databases left behind (dropped now): ${left.join(', ')} — a test file did not drop its database (use TestApp.close() / useTestDatabase)`);
  };
}
