import type { Insertable, QueryCreator } from 'kysely';
import { compiledOnce } from '../../../db/compiled-once.ts';
import { dialectOf } from '../../../db/dialect.ts';
import type { Database, Queryable } from '../../../db/schema.ts';
import { sharedTransaction } from '../../../db/shared-commit.ts';
import { type BookedPayment, insertBookedPayment, openBookedPayment } from '../gateways/index.ts';

// The insert of a new sale (order/create.ts), with the payment of a gateway whose books are in this
// database (the simulator, gateway.ts `paymentInDatabase`): both or neither. On PostgreSQL that is ONE
// statement (the payment's insert a part of the order's: one round trip, where a transaction took five);
// on SQLite, which writes no table in a WITH, one transaction sharing its commit (db/shared-commit.ts).

export type Sale = Insertable<Database['pay_order']>;

const insertOrder = (db: QueryCreator<Database>, v: Sale) => db.insertInto('pay_order').values({
  deptId: v.deptId, orderNo: v.orderNo, payType: v.payType, transType: v.transType, machineNo: v.machineNo, goodsNo: v.goodsNo, goodsName: v.goodsName,
  goodsPrice: v.goodsPrice, payAmount: v.payAmount, aisleNo: v.aisleNo, orderStatus: v.orderStatus, mchId: v.mchId,
  createTime: v.createTime, payTime: v.payTime, configId: v.configId, aisleId: v.aisleId, expireAt: v.expireAt, updateTime: v.updateTime,
}).returning('orderId');

const insertSale = compiledOnce(insertOrder);
/** (the payment's values beside the order's, each under its own name: the statement is compiled once with stand-ins) */
type SaleAndPayment = Sale & { [K in keyof BookedPayment as `payment_${K}`]: BookedPayment[K] };
const insertSaleWithPayment = compiledOnce((db, v: SaleAndPayment) => {
  const withPayment = db.with('payment', (qc) => insertBookedPayment(qc, {
    orderNo: v.payment_orderNo, configId: v.payment_configId, amount: v.payment_amount, mchId: v.payment_mchId, appId: v.payment_appId, subject: v.payment_subject,
    notifyUrl: v.payment_notifyUrl, expireAt: v.payment_expireAt, createTime: v.payment_createTime,
  }).returning('orderNo'));
  // (the WITH adds a table the order's insert does not read)
  return insertOrder(withPayment as unknown as QueryCreator<Database>, v);
});

/** Inserts the sale (and the booked payment, both or neither); answers its orderId. A second open sale of the machine throws the unique violation. */
export async function insertSaleOrder(db: Queryable, sale: Sale, payment?: BookedPayment): Promise<number> {
  if (!payment) return (await insertSale(db, sale))[0]!.orderId;
  if (dialectOf(db) === 'postgres') {
    const values = { ...sale, ...Object.fromEntries(Object.entries(payment).map(([k, v]) => [`payment_${k}`, v])) } as SaleAndPayment;
    return (await insertSaleWithPayment(db, values))[0]!.orderId;
  }
  return sharedTransaction(db, async (trx) => {
    const orderId = (await insertSale(trx, sale))[0]!.orderId;
    await openBookedPayment(trx, payment);
    return orderId;
  });
}
