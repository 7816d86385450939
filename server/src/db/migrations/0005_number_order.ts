import type { Kysely } from 'kysely';

// A task's numbers are distinct, but the unique (taskId, phone) index that said so cost more than
// half of a million-number upload: with ids in file order, every row lands at a random place of it.
// Distinctness is decided by the upload itself, in memory, against the numbers the task already holds,
// under the task's lock (PostgreSQL: the task row FOR UPDATE; SQLite: one writer). Nothing else looks
// numbers up by phone; the engine and the export go by (taskId, state, id).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sync_task_number_phone').execute();
}
