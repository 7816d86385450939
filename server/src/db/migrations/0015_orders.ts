import { sql, type Kysely } from 'kysely';
import { withAutoId } from './helpers.ts';

// The money core: what the order state machine, the terminal protocol and the simulator
// gateway need. Amounts stay integer fen. Nothing of 0011 is changed, only added to.
export async function up(db: Kysely<any>): Promise<void> {
  // pay_order: the 支付配置 and aisle an order was made with, its deadline, its last change, the
  // sweeper's lease (claimBy/claimUntil), and refundNeeded = 1 where money must go back automatically
  // (dispense failure, a payment arriving after the order was closed) — the refund sweeper
  // picks those up.
  await db.schema.alterTable('pay_order').addColumn('configId', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('pay_order').addColumn('aisleId', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('pay_order').addColumn('expireAt', 'bigint').execute();
  await db.schema.alterTable('pay_order').addColumn('updateTime', 'bigint').execute();
  await db.schema.alterTable('pay_order').addColumn('dispenseTime', 'bigint').execute();
  await db.schema.alterTable('pay_order').addColumn('closeTime', 'bigint').execute();
  await db.schema.alterTable('pay_order').addColumn('dispenseMessage', 'varchar(255)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('pay_order').addColumn('claimBy', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('pay_order').addColumn('claimUntil', 'bigint').execute();
  await db.schema.alterTable('pay_order').addColumn('refundNeeded', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // the sweeper reads unpaid orders past their deadline; the refund sweeper reads refundNeeded = 1
  await db.schema.createIndex('pay_order_status_expire').on('pay_order').columns(['orderStatus', 'expireAt']).execute();
  await sql`create index pay_order_refund_needed on pay_order ("orderId") where "refundNeeded" = 1`.execute(db);
  // One order at a time per machine: at most one consumption order in 初始化 / 处理中 / 已支付 for a
  // machine. Two concurrent creates cannot both pass (the second insert is refused by the database).
  await sql`create unique index pay_order_machine_active on pay_order ("machineNo") where "transType" = 1 and "orderStatus" in (1, 2, 10)`.execute(db);

  // What a machine last reported of each aisle's stock (heartbeat), beside the stock the server keeps.
  await db.schema.alterTable('pay_aisle').addColumn('reportedStock', 'integer').execute();
  await db.schema.alterTable('pay_aisle').addColumn('reportedAt', 'bigint').execute();

  // Replay protection of the terminal protocol: a (machine, nonce) pair is accepted once; rows past
  // expireAt (beyond the ±300 s window) are swept.
  await db.schema
    .createTable('pay_terminal_nonce')
    .addColumn('machineId', 'integer', (c) => c.notNull())
    .addColumn('nonce', 'varchar(64)', (c) => c.notNull())
    .addColumn('expireAt', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pay_terminal_nonce_pk', ['machineId', 'nonce'])
    .execute();
  await db.schema.createIndex('pay_terminal_nonce_expire').on('pay_terminal_nonce').column('expireAt').execute();

  // Payment alarms: notifications that do not match their order, payments after close. No secrets.
  await withAutoId(db, db.schema.createTable('pay_alarm'), 'alarmId')
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('orderNo', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('detail', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('createTime', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pay_alarm_time').on('pay_alarm').columns(['createTime', 'alarmId']).execute();

  // The simulator gateway's own books (what a real gateway keeps on its side): payments and refunds.
  await db.schema
    .createTable('pay_sim_payment')
    .addColumn('orderNo', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('configId', 'integer', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('mchId', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('appId', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('subject', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('notifyUrl', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('transId', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('expireAt', 'bigint', (c) => c.notNull())
    .addColumn('createTime', 'bigint', (c) => c.notNull())
    .addColumn('payTime', 'bigint')
    .execute();
  await db.schema
    .createTable('pay_sim_refund')
    .addColumn('refundNo', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('orderNo', 'varchar(64)', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('createTime', 'bigint', (c) => c.notNull())
    .execute();
}
