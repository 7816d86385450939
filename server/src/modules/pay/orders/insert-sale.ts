import type { Insertable } from 'kysely';
import { compiledOnce } from '../../../db/compiled-once.ts';
import type { Database, Queryable } from '../../../db/schema.ts';
import { sharedWrite } from '../../../db/shared-commit.ts';

// The insert of a new sale (order/create.ts), built once (db/compiled-once.ts), its commit shared with the
// purchases' other writes (db/shared-commit.ts).

export type Sale = Insertable<Database['pay_order']>;

const insertSale = compiledOnce((db, v: Sale) => db.insertInto('pay_order').values({
  deptId: v.deptId, orderNo: v.orderNo, payType: v.payType, transType: v.transType, machineNo: v.machineNo, goodsNo: v.goodsNo, goodsName: v.goodsName,
  goodsPrice: v.goodsPrice, payAmount: v.payAmount, aisleNo: v.aisleNo, orderStatus: v.orderStatus, mchId: v.mchId,
  createTime: v.createTime, payTime: v.payTime, configId: v.configId, aisleId: v.aisleId, expireAt: v.expireAt, updateTime: v.updateTime,
}).returning('orderId'));

/** Inserts the sale; answers its orderId. A second open sale of the machine throws the unique violation. */
export async function insertSaleOrder(db: Queryable, sale: Sale): Promise<number> {
  return (await sharedWrite(db, (q) => insertSale(q, sale)))[0]!.orderId;
}
