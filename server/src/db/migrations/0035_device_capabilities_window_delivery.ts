import type { Kysely } from 'kysely';

// Real phones as devices (docs/device-protocol.md): what a device can send, a task's sending window, and
// delivery reports. All columns have defaults that keep older devices and tasks working as before.
export async function up(db: Kysely<any>): Promise<void> {
  // Capabilities declared at activation: a comma list of text,image,file,contact,schedule; null = everything
  // (older clients). deviceState: the free text of the last heartbeat (限额已满, 手机无响应 …).
  await db.schema.alterTable('sync_auth_code').addColumn('capabilities', 'varchar(64)').execute();
  await db.schema.alterTable('sync_auth_code').addColumn('deviceState', 'varchar(32)').execute();

  // The sending window, "HH:mm" Beijing time; both '' = any time (tasks made before it).
  await db.schema.alterTable('sync_task').addColumn('sendStartTime', 'varchar(5)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('sync_task').addColumn('sendEndTime', 'varchar(5)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('sync_task').addColumn('deliveredNum', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sync_task').addColumn('undeliveredNum', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  // A sent number's delivery outcome (null: none reported yet; DeliveryState 1 delivered, 2 undelivered).
  await db.schema.alterTable('sync_task_number').addColumn('deliveryState', 'integer').execute();
  await db.schema.alterTable('sync_task_number').addColumn('deliveredAt', 'bigint').execute();
  await db.schema.alterTable('sync_task_number').addColumn('deliveryReason', 'varchar(200)').execute();

  // The owner's delivered messages: all time beside totalSendNum (cleared with it), and per Shanghai day.
  await db.schema.alterTable('sys_user').addColumn('deliveredNum', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sync_send_daily').addColumn('deliveredCount', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sync_send_daily').addColumn('undeliveredCount', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
