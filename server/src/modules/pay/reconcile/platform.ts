import { OrderStatus, shanghaiDayStart, TransType } from '@huiyun/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Kind, OurRow } from './match.ts';

// Our side of a day: the 支付配置's consumption orders paid and refunds succeeded within the Beijing day
// (bounds from a fixed +8 h — never the server's local day, dax-pay's bug), both by payTime (a refund's
// is the time it succeeded), read off pay_order_config_paid (migration 0027).

export const DAY_MS = 86_400_000;

/** [from, before) of a Beijing day 'YYYY-MM-DD'. */
export function dayBounds(day: string): { from: number; before: number } {
  const from = shanghaiDayStart(day);
  if (from === undefined) throw new RangeError(`not a day: ${day}`);
  return { from, before: from + DAY_MS };
}

type Row = { orderNo: string; parentNo: string | null; payAmount: number | string; orderStatus: number; payTime: number | string | null; transType: number };

function ourRow(row: Row): OurRow {
  const refund = row.transType === TransType.refund;
  return {
    orderNo: refund ? (row.parentNo ?? '') : row.orderNo,
    refundNo: refund ? row.orderNo : '',
    amountFen: Math.abs(Number(row.payAmount)),
    status: row.orderStatus,
    settled: refund ? row.orderStatus === OrderStatus.refunded : row.payTime !== null,
  };
}

const selectRows = (db: Kysely<Database>) => db.selectFrom('pay_order as o').leftJoin('pay_order as p', 'p.orderId', 'o.parentId')
  .select(['o.orderNo', 'p.orderNo as parentNo', 'o.payAmount', 'o.orderStatus', 'o.payTime', 'o.transType']);

export async function oursOfDay(db: Kysely<Database>, configId: number, day: string): Promise<Record<Kind, OurRow[]>> {
  const { from, before } = dayBounds(day);
  const rows = await selectRows(db).where('o.configId', '=', configId).where('o.payTime', '>=', from).where('o.payTime', '<', before)
    .orderBy('o.payTime').orderBy('o.orderId').execute();
  return {
    payment: rows.filter((r) => r.transType === TransType.consume).map(ourRow),
    refund: rows.filter((r) => r.transType === TransType.refund && r.orderStatus === OrderStatus.refunded).map(ourRow),
  };
}

/** Ours of any day by order number (payments) or refund number (refunds), whatever their status. */
export async function oursByNumber(db: Kysely<Database>, kind: Kind, numbers: string[]): Promise<Map<string, OurRow>> {
  const found = new Map<string, OurRow>();
  const transType = kind === 'payment' ? TransType.consume : TransType.refund;
  for (let i = 0; i < numbers.length; i += 500) {
    const rows = await selectRows(db).where('o.orderNo', 'in', numbers.slice(i, i + 500)).where('o.transType', '=', transType).execute();
    for (const row of rows) found.set(row.orderNo, ourRow(row));
  }
  return found;
}
