import { sql, type Kysely } from 'kysely';

// Fewer index writes a purchase (docs/performance.md "Terminal flow"). A purchase moves its
// order 1 → 10 → 2 → 3, and each move rewrites every index that holds orderStatus (on PostgreSQL a move
// adds an entry to every index whose condition the row meets). Commits were the largest part of a
// purchase's cost on SQLite. What each pay_order index is for, read with EXPLAIN on both databases
// (bench/order-plans.ts):
// - (orderStatus, createTime, orderId) and (orderStatus, payType, createTime, orderId): 交易订单's status
//   filters, sorted newest first. Both stay: without the first, page 1 of 出货成功 alone sorted all its
//   rows (0.04 → 419 ms at 1,000,000 orders).
// - (orderStatus, expireAt) served only the sweeper's read of unpaid orders past their deadline. Dropped:
//   the status index above holds the unpaid orders (1 / 10) as two short ranges — at most one a machine,
//   since a machine has one open sale (pay_order_machine_active) — and the sweeper reads them there
//   (950 due of 1,000,000 orders: 0.12 ms a sweep, 0.06 with the dropped index). A paid order whose
//   dispense was never reported (2) is read there too.
// - ("updateTime") where orderStatus in (11, 12), the refunds under way: the same rows as that status
//   index's ranges 11 and 12, which SQLite read for the stuck-refund sweep anyway (without ANALYZE, as the
//   product runs). Dropped with it: one index less to test and keep on every refund row's move.
// - ("transId"), 交易订单's exact 交易号: now of the orders that have one (partial, transId <> ''). An order
//   is created without it and gets it when paid, so it entered the index at the '' end when created and
//   moved when paid; now it enters once, when paid (on PostgreSQL no entry at the insert and at → 10), and
//   the orders never paid are not in it. The list's filter names the condition literally (order-list/queries.ts).
// The others are each one filter of 交易订单 (time, machine, company, order number, pay type), the
// one-open-sale rule (machine_active), an order's refunds and their key (refund_key), and the automatic
// refunds to make (refundNeeded = 1, partial); none of them holds orderStatus but machine_active.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pay_order_status_expire').execute();
  await db.schema.dropIndex('pay_order_refund_open').execute();
  await db.schema.dropIndex('pay_order_trans_id').execute();
  await sql`create index pay_order_trans_id on pay_order ("transId") where "transId" <> ''`.execute(db);
}
