import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialectOf } from './dialect.ts';
import { migrateToLatest } from './migrate.ts';
import { optimizeSqlite, startSqliteOptimizer } from './sqlite-optimize.ts';
import { useTestDatabase } from '../test/use-test-database.ts';

describe('SQLite planner statistics (pragma optimize)', () => {
  const t = useTestDatabase();

  it('are gathered for the tables with rows by the first pass, and the schedule stops cleanly', async () => {
    const { db } = t();
    if (dialectOf(db) !== 'sqlite') {
      await startSqliteOptimizer(db).stop(); // nothing to do on PostgreSQL (autovacuum analyses)
      return;
    }
    await migrateToLatest(db);
    const log = (i: number) => ({ userName: `user${i % 7}`, userId: null, deptId: null, ip: `10.0.0.${i % 200}`, userAgent: '', success: i % 3 ? 1 : 0, message: '', loginTime: i });
    await db.insertInto('sys_login_log').values(Array.from({ length: 500 }, (_, i) => log(i))).execute();
    const stats = async () => (await sql<{ idx: string | null }>`select idx from sqlite_stat1 where tbl = 'sys_login_log'`.execute(db).catch(() => ({ rows: [] }))).rows.map((r) => r.idx);
    expect(await stats()).toEqual([]);
    await optimizeSqlite(db, true);
    expect(await stats()).toEqual(expect.arrayContaining(['sys_login_log_user_time', 'sys_login_log_time']));
    const optimizer = startSqliteOptimizer(db, { everyMs: 60_000, onError: (error) => { throw error; } });
    await optimizer.stop();
  });
});
