import type { Kysely } from 'kysely';

// The background jobs' last runs (监控查询): one row a job (the order sweep, the log retention,
// the daily 对账), written at the end of each run by whichever server process ran it — so every process's
// snapshot shows the same, on SQLite and PostgreSQL alike. `counts`: what the run did (JSON of its counts);
// the last failure is kept apart, so the next good run does not hide it. Times are epoch ms.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('sys_job_run')
    .addColumn('job', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('startTime', 'bigint', (c) => c.notNull())
    .addColumn('durationMs', 'integer', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('counts', 'varchar(1000)', (c) => c.notNull().defaultTo(''))
    .addColumn('error', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('failTime', 'bigint')
    .addColumn('failError', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sys_job_run').execute();
}
