import type { Insertable, Kysely } from 'kysely';
import { OrderStatus, PayType, TransType } from '@huiyun/contract';
import type { Database, OrderTable } from '../db/schema.ts';

// pay_order rows written straight into a test's database, for tests whose subject is what reads orders
// (lists, charts, alarms, monitoring) rather than how the payment half writes them.

export type OrderValues = Insertable<OrderTable>;

let serial = 0;

/**
 * A pay_order row: every NOT NULL column filled, then the overrides. By default a 1.00 yuan WeChat sale
 * of the demo company (deptId 1), paid and dispensed now, with an order number no other row has;
 * payAmount follows goodsPrice and payTime follows createTime unless given.
 */
export function orderValues(overrides: Partial<OrderValues> = {}): OrderValues {
  const createTime = overrides.createTime ?? Date.now();
  const goodsPrice = overrides.goodsPrice ?? 100;
  return {
    deptId: 1, orderNo: `TEST-ORDER-${process.pid}-${++serial}`, payType: PayType.wechat, transType: TransType.consume, machineNo: 'TEST-M1',
    goodsPrice, payAmount: goodsPrice, orderStatus: OrderStatus.dispensed, createTime, payTime: createTime,
    ...overrides,
  };
}

/** Inserts one order (orderValues of the overrides); answers its orderId. */
export async function insertOrder(db: Kysely<Database>, overrides: Partial<OrderValues> = {}): Promise<number> {
  const row = await db.insertInto('pay_order').values(orderValues(overrides)).returning('orderId').executeTakeFirstOrThrow();
  return row.orderId;
}

/** Inserts many orders, 500 to a statement (PostgreSQL takes at most 65,535 parameters in one). */
export async function insertOrders(db: Kysely<Database>, rows: Partial<OrderValues>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('pay_order').values(rows.slice(i, i + 500).map(orderValues)).execute();
}
