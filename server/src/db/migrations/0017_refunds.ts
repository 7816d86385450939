import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

// Refunds. A refund is its own pay_order row (transType 2, negative payAmount, its own
// refund number in orderNo) pointing at the paid order by parentId. The paid order carries what has
// been refunded (13 退款成功) and what refunds under way have reserved (11/12): a refund reserves its
// amount before the gateway is called, and the database itself refuses a row where
// refunded + reserved would exceed what was paid — the last line behind the service's guarded UPDATE.
export async function up(db: Kysely<any>): Promise<void> {
  const bounds = sql`"refundedAmount" >= 0 and "reservedAmount" >= 0 and ("transType" <> 1 or "refundedAmount" + "reservedAmount" <= "payAmount")`;
  await db.schema.alterTable('pay_order').addColumn('parentId', 'integer').execute();
  await db.schema.alterTable('pay_order').addColumn('refundedAmount', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  if (dialectOf(db) === 'postgres') {
    await db.schema.alterTable('pay_order').addColumn('reservedAmount', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await sql`alter table pay_order add constraint pay_order_refund_bounds check (${bounds})`.execute(db);
  } else {
    // SQLite adds a CHECK only with a column (it holds for the rows written from now on; all are 0 now)
    await sql`alter table pay_order add column "reservedAmount" integer not null default 0 constraint pay_order_refund_bounds check (${bounds})`.execute(db);
  }
  // the dialog's idempotency key: one refund per (order, key), so a double click or a retry is one refund
  await db.schema.alterTable('pay_order').addColumn('requestKey', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('pay_order').addColumn('failReason', 'varchar(255)', (c) => c.notNull().defaultTo('')).execute();
  // an order's refunds (the preview) and the key's uniqueness, in one index
  await sql`create unique index pay_order_refund_key on pay_order ("parentId", "requestKey") where "parentId" is not null`.execute(db);
  // the refund sweeper reads refunds still under way (11/12) whose last change is old
  await sql`create index pay_order_refund_open on pay_order ("updateTime") where "orderStatus" in (11, 12)`.execute(db);
}
