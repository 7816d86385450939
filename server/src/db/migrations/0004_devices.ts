import { sql, type Kysely } from 'kysely';

// The sending engine (docs/device-protocol.md). A device is the authorization code that
// activated it, so its token and last-seen figures live on sync_auth_code. Leases are columns of the
// number rows already; two partial indexes hold only the leased rows, so uploads (state 0) never pay
// for them while the engine finds expired leases and a device's outstanding numbers at once.
export async function up(db: Kysely<any>): Promise<void> {
  for (const [column, type] of [
    ['tokenHash', 'varchar(64)'],
    ['lastSeenAt', 'bigint'],
    ['battery', 'integer'],
    ['signalLevel', 'integer'],
    ['appVersion', 'varchar(32)'],
  ] as const) {
    await db.schema.alterTable('sync_auth_code').addColumn(column, type).execute();
  }
  await db.schema.createIndex('sync_auth_code_token').unique().on('sync_auth_code').column('tokenHash').where('tokenHash', 'is not', null).execute();

  // How many numbers of the task have been handed out, for the test phone every testNum numbers.
  await db.schema.alterTable('sync_task').addColumn('dispatchedNum', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  // Sent messages per device and Asia/Shanghai day: the daily cap (singleSendNumDay) and 今日发送.
  await db.schema
    .createTable('sync_device_daily')
    .addColumn('machineCode', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('sendCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('sync_device_daily_pk', ['machineCode', 'day'])
    .execute();

  const leased = sql<boolean>`state = 1`;
  await db.schema.createIndex('sync_task_number_lease').on('sync_task_number').columns(['taskId', 'leaseUntil']).where(leased).execute();
  await db.schema.createIndex('sync_task_number_holder').on('sync_task_number').columns(['machineCode', 'leaseUntil']).where(leased).execute();
}
