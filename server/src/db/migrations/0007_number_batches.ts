import { sql, type Kysely } from 'kysely';

// A pulled batch's fresh numbers are no longer written when they are handed out (each number's row was written twice, at the claim and at the report, with four index
// entries at the claim). A fresh claim takes the task's next pending numbers above its cursor
// (sync_task_cursor.claimedTo), moves the cursor past them and records the range in one sync_batch
// row; the numbers stay pending (batchId null) until the report writes them once.
// docs/device-protocol.md §3 has the rules. The cursor is a row of its own, not a column of
// sync_task: claims of a task take turns on it until their pull commits, and every report updates
// the task row, so on one row they would wait for each other.
//
// Existing rows, so that they mean the same under those rules: the cursor starts at the highest id
// the engine has touched, and a pending number below it (a failed number waiting for its retry)
// becomes "given back": leased with an ended lease and no batch, which the next claim takes first.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sync_batch')
    .addColumn('batchId', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('taskId', 'integer', (c) => c.notNull().references('sync_task.taskId').onDelete('cascade'))
    .addColumn('machineCode', 'varchar(64)', (c) => c.notNull())
    .addColumn('fromId', 'bigint', (c) => c.notNull())
    .addColumn('toId', 'bigint', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('doneNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('leaseUntil', 'bigint', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('addTime', 'bigint', (c) => c.notNull())
    .execute();
  // Only open batches (state 0) are looked up by device (what it holds) and by task (ended leases).
  const open = sql.lit(0);
  await db.schema.createIndex('sync_batch_open_device').on('sync_batch').columns(['machineCode', 'leaseUntil']).where(sql.ref('state'), '=', open).execute();
  await db.schema.createIndex('sync_batch_open_task').on('sync_batch').columns(['taskId', 'leaseUntil']).where(sql.ref('state'), '=', open).execute();

  // A claim on PostgreSQL commits on its own; the device's claim count tells it whether another pull of
  // the same device claimed since this pull read what the device holds (modules/sending/devices/number-leases.ts).
  await db.schema.alterTable('sync_auth_code').addColumn('pulls', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('sync_task_cursor')
    .addColumn('taskId', 'integer', (c) => c.primaryKey().references('sync_task.taskId').onDelete('cascade'))
    .addColumn('claimedTo', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .insertInto('sync_task_cursor')
    .columns(['taskId', 'claimedTo'])
    .expression((eb: any) => eb
      .selectFrom('sync_task_number as n')
      .select(['n.taskId', sql<number>`max(n.id)`.as('claimedTo')])
      .where('n.state', '<>', 0)
      .groupBy('n.taskId'))
    .execute();
  await db
    .updateTable('sync_task_number')
    .set({ state: 1, leaseUntil: 0, batchId: null, machineCode: null })
    .where('state', '=', 0)
    .where('id', '<', (eb: any) => eb.selectFrom('sync_task_cursor as c').select('c.claimedTo').whereRef('c.taskId', '=', 'sync_task_number.taskId'))
    .execute();
}
