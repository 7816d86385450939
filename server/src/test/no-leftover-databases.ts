import pg from 'pg';

// Vitest global setup of the PostgreSQL leg: every test file makes its own database (test-database.ts)
// and must drop it. A file that closes its app without dropping the database (list-routes.test.ts once
// called `app.close()` where `close()` also drops) left one behind on every run. After the run, a database
// of ours that was not there before and whose worker process is gone is such a leftover: it is dropped
// and the run fails, naming it. A database whose process still runs belongs to another run.

const OURS = 'huiyun_test_%';

async function databasesOfTests(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [OURS]);
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

/** The worker process a test database was made by (its name: huiyun_test_<pid>_<random>). */
const pidOf = (name: string) => Number(name.split('_')[2]);

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export default async function setup(): Promise<(() => Promise<void>) | void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const before = new Set(await databasesOfTests(url));
  return async () => {
    const left = (await databasesOfTests(url)).filter((name) => !before.has(name) && !isRunning(pidOf(name)));
    if (left.length === 0) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const name of left) await client.query(`drop database if exists "${name}" with (force)`);
    } finally {
      await client.end();
    }
    throw new Error(`test databases left behind (dropped now): ${left.join(', ')} — a test file did not drop its database (use TestApp.close() / useTestDatabase)`);
  };
}
