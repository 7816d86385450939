import type { QueryCreator } from 'kysely';
import { compiledWrite } from '../../../db/compiled-once.ts';
import type { Database } from '../../../db/schema.ts';
import type { BookedPayment } from './gateway.ts';

// The books of a gateway kept in this database (the simulator's pay_sim_payment): a new payment's insert,
// which the order module makes a part of the order's own insert (order/insert-sale.ts: the order and its
// payment commit together), so it lives here, beside the interface, not inside one gateway's folder.

/** The insert of a new payment, where `db` puts it: a statement of its own, or a part of the order's insert. */
export const insertBookedPayment = (db: QueryCreator<Database>, v: BookedPayment) => db
  .insertInto('pay_sim_payment')
  .values({
    orderNo: v.orderNo, configId: v.configId, amount: v.amount, mchId: v.mchId, appId: v.appId, subject: v.subject,
    notifyUrl: v.notifyUrl, status: 'open', expireAt: v.expireAt, createTime: v.createTime, payTime: null,
  })
  .onConflict((oc) => oc.column('orderNo').doNothing());

/** The same insert as a statement of its own, built once (db/compiled-once.ts). */
export const openBookedPayment = compiledWrite(insertBookedPayment);
