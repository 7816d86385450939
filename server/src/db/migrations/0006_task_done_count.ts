import { sql, type Kysely } from 'kysely';

// How many of a task's number rows are final (sent, finally failed, blocked at their turn). The
// engine completes a task when doneNum reaches totalNum (the task's rows), read off the task row it
// updates anyway: on PostgreSQL a whole report is then one statement, so the task row's lock, which
// every report of the task queues on, is held for the statement's own work and the commit only,
// not for round trips to the server.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sync_task').addColumn('doneNum', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db
    .updateTable('sync_task')
    .set({
      doneNum: (eb: any) => eb
        .selectFrom('sync_task_number as n')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('n.taskId', '=', 'sync_task.taskId')
        .where('n.state', 'in', [2, 3, 4]),
    })
    .execute();
}
