import type { Kysely } from 'kysely';

// 交易订单 at a million rows (§7; docs/performance.md "Orders list"). 0011 indexed the
// order number (unique), the terminal, the company and the time, each ending in (createTime, orderId)
// so "newest first" walks an index and stops after a page. This adds the other filters of the screen:
// - the transaction number, looked up exactly;
// - the order status, the pay type, and both together, each ending in (createTime, orderId): a
//   filtered page of the newest orders reads the index backwards and stops after its rows.
// On SQLite a secondary index ends in the rowid (orderId) anyway; on PostgreSQL it is spelled out.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('pay_order_trans_id').on('pay_order').column('transId').execute();
  await db.schema.createIndex('pay_order_status_time').on('pay_order').columns(['orderStatus', 'createTime', 'orderId']).execute();
  await db.schema.createIndex('pay_order_pay_type_time').on('pay_order').columns(['payType', 'createTime', 'orderId']).execute();
  await db.schema.createIndex('pay_order_status_pay_type_time').on('pay_order').columns(['orderStatus', 'payType', 'createTime', 'orderId']).execute();
}
