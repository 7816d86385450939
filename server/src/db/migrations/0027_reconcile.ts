import { sql, type Kysely } from 'kysely';
import { withAutoId } from './helpers.ts';

// 对账. A run per (Beijing day, 支付配置): the unique key is also how several instances agree
// who runs it (one claims the row, the others see it taken). Its differences hang off the run; a re-run
// replaces them and keeps the handled note of a difference that reappears (same category, kind and numbers).
// Amounts are integer fen; a side a difference lacks is null. Times are epoch ms.
export async function up(db: Kysely<any>): Promise<void> {
  await withAutoId(db, db.schema.createTable('pay_reconcile_run'), 'runId')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('configId', 'integer', (c) => c.notNull())
    .addColumn('deptId', 'integer', (c) => c.notNull())
    .addColumn('gateway', 'varchar(32)', (c) => c.notNull())
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .addColumn('platformCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('platformAmount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('gatewayCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('gatewayAmount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('diffCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('runBy', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    /** a running run's claim: another instance may take it over only after this instant */
    .addColumn('leaseUntil', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('startTime', 'bigint', (c) => c.notNull())
    .addColumn('finishTime', 'bigint')
    .execute();
  await db.schema.createIndex('pay_reconcile_run_day_config').unique().on('pay_reconcile_run').columns(['day', 'configId']).execute();
  await db.schema.createIndex('pay_reconcile_run_dept_day').on('pay_reconcile_run').columns(['deptId', 'day', 'runId']).execute();

  await withAutoId(db, db.schema.createTable('pay_reconcile_diff'), 'diffId')
    .addColumn('runId', 'integer', (c) => c.notNull())
    .addColumn('category', 'varchar(16)', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('orderNo', 'varchar(64)', (c) => c.notNull())
    .addColumn('refundNo', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('gatewayTradeNo', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('platformAmount', 'bigint')
    .addColumn('platformStatus', 'integer')
    .addColumn('gatewayAmount', 'bigint')
    .addColumn('gatewayTime', 'bigint')
    .addColumn('handled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('handleNote', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('handledBy', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('handledTime', 'bigint')
    .execute();
  await db.schema.createIndex('pay_reconcile_diff_run').on('pay_reconcile_diff').columns(['runId', 'diffId']).execute();

  // the platform side of a day: a config's payments and refunds by the time they were paid / refunded
  await sql`create index pay_order_config_paid on pay_order ("configId", "payTime") where "payTime" is not null`.execute(db);
  // the simulator's bill of a day (gateway/simulator/bill.ts): its payments by config and time, its refunds by time
  await sql`create index pay_sim_payment_config_paid on pay_sim_payment ("configId", "payTime") where "payTime" is not null`.execute(db);
  await db.schema.createIndex('pay_sim_refund_time').on('pay_sim_refund').column('createTime').execute();
}
