import { shanghaiDayStart } from '@huiyun/contract';
import type { Queryable } from '../../../../db/schema.ts';
import type { Bill, BillRow } from '../bill.ts';

// The simulator's bill of a Beijing day, from its own books (pay_sim_payment, pay_sim_refund) — what a real
// gateway's trade bill lists: the payments made that day and the refunds that succeeded that day, each on
// the day it happened at the gateway. The day's bounds are Beijing midnights (+8 h, whatever the server's TZ).

const DAY_MS = 86_400_000;

export async function simulatorBill(db: Queryable, configId: number, day: string): Promise<Bill> {
  const from = shanghaiDayStart(day);
  if (from === undefined) throw new RangeError(`not a day: ${day}`);
  const before = from + DAY_MS;
  const payments = await db.selectFrom('pay_sim_payment').select(['orderNo', 'transId', 'amount', 'payTime'])
    .where('configId', '=', configId).where('status', '=', 'paid').where('payTime', '>=', from).where('payTime', '<', before)
    .orderBy('payTime').orderBy('orderNo').execute();
  const refunds = await db.selectFrom('pay_sim_refund as r').innerJoin('pay_sim_payment as p', 'p.orderNo', 'r.orderNo')
    .select(['r.refundNo', 'r.orderNo', 'r.amount', 'r.createTime', 'p.transId'])
    .where('p.configId', '=', configId).where('r.status', '=', 'success').where('r.createTime', '>=', from).where('r.createTime', '<', before)
    .orderBy('r.createTime').orderBy('r.refundNo').execute();
  const rows: BillRow[] = [
    ...payments.map((p): BillRow => ({ kind: 'payment', orderNo: p.orderNo, gatewayTradeNo: p.transId, amountFen: Number(p.amount), at: Number(p.payTime) })),
    ...refunds.map((r): BillRow => ({ kind: 'refund', orderNo: r.orderNo, refundNo: r.refundNo, gatewayTradeNo: r.transId, amountFen: Number(r.amount), at: Number(r.createTime) })),
  ];
  return { day, rows };
}
