import pg from 'pg';
import { cpuSeconds } from './process-cpu.ts';

/** The application_name of the bench's own connections (its bare driver, its recount): left out of the backends' CPU. */
export const BENCH_APPLICATION = 'huiyun-bench';

/**
 * The CPU of the PostgreSQL backends serving one database (the server's connections to the bench's
 * database): /proc/<pid>/stat utime + stime of each, found in pg_stat_activity. The PostgreSQL of the
 * machine is shared (other databases, other sessions), so this counts neither other databases' backends
 * nor the bench's own connections nor the shared background processes (WAL writer, checkpointer).
 * A backend's time is kept after it ends as last read: `sample` runs every 500 ms so little is lost
 * (the pool closes a connection idle 10 s).
 */
export async function watchBackends(databaseUrl: string): Promise<{ cpu: () => Promise<number>; stop: () => Promise<void> }> {
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const admin = new pg.Client({ connectionString: databaseUrl, application_name: BENCH_APPLICATION });
  await admin.connect();
  const lastRead = new Map<number, number>();
  const sample = async () => {
    const { rows } = await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend' and application_name <> $2`, [database, BENCH_APPLICATION]);
    for (const { pid } of rows) {
      try {
        lastRead.set(pid, cpuSeconds(pid));
      } catch {
        // ended since the listing: its last reading stands
      }
    }
  };
  let sampling = Promise.resolve();
  const timer = setInterval(() => void (sampling = sampling.then(sample, sample)), 500);
  const total = () => [...lastRead.values()].reduce((sum, s) => sum + s, 0);
  return {
    cpu: async () => {
      await (sampling = sampling.then(sample, sample));
      return total();
    },
    stop: async () => {
      clearInterval(timer);
      await sampling.catch(() => {});
      await admin.end();
    },
  };
}
