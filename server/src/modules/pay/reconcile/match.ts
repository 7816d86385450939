import { ReconcileCategory } from '@huiyun/contract';
import type { Bill, BillRow } from '../gateways/index.ts';

// The comparison of one (day, 支付配置): the gateway's bill against our payments and refunds of that Beijing
// day, by order number (payments) and refund number (refunds), in integer fen — never amounts as text
// (dax-pay compared '1.0' with '1.00'). Payments and refunds are compared apart, so a refund never stands
// in for its payment's status (dax-pay overwrote one with the other). Nothing here writes anything.
//
// Across days: a gateway row with no match among our rows of the day is looked up among ours of any day
// (a payment the gateway took at 23:59:59 that reached us after midnight, a late payment) before it is
// called 通道有/平台无; one of ours with no row in the day's bill is looked up in the gateway's bills of the
// day before and after before it is called 平台有/通道无.

export type Kind = BillRow['kind'];

/** One of our rows: a consumption order by its order number, a refund by its refund number. */
export type OurRow = {
  orderNo: string;
  refundNo: string;
  amountFen: number;
  /** pay_order.orderStatus */
  status: number;
  /** paid (payTime set) for a payment, 退款成功 for a refund: what the gateway's row says it is */
  settled: boolean;
};

export type Difference = {
  category: ReconcileCategory;
  kind: Kind;
  orderNo: string;
  refundNo: string;
  gatewayTradeNo: string;
  platformAmount: number | null;
  platformStatus: number | null;
  gatewayAmount: number | null;
  gatewayTime: number | null;
};

export type DaySources = {
  /** ours settled that day (payments paid, refunds succeeded) */
  ours: Record<Kind, OurRow[]>;
  /** ours of any day by number (order numbers for payments, refund numbers for refunds) */
  find: (kind: Kind, numbers: string[]) => Promise<Map<string, OurRow>>;
  /** the gateway's rows of the days before and after (read once, only when needed) */
  neighbourRows: () => Promise<BillRow[]>;
};

export type Side = { count: number; amount: number };
export type Comparison = { differences: Difference[]; platform: Side; gateway: Side };

const keyOfBill = (row: BillRow) => (row.kind === 'payment' ? row.orderNo : row.refundNo ?? '');
const keyOfOurs = (kind: Kind, row: OurRow) => (kind === 'payment' ? row.orderNo : row.refundNo);

function sideOf(rows: { kind: Kind; amountFen: number }[]): Side {
  return { count: rows.length, amount: rows.reduce((sum, row) => sum + (row.kind === 'payment' ? row.amountFen : -row.amountFen), 0) };
}

function difference(category: ReconcileCategory, kind: Kind, ours: OurRow | undefined, bill: BillRow | undefined): Difference {
  return {
    category, kind,
    orderNo: ours?.orderNo ?? bill?.orderNo ?? '',
    refundNo: ours?.refundNo ?? bill?.refundNo ?? '',
    gatewayTradeNo: bill?.gatewayTradeNo ?? '',
    platformAmount: ours ? ours.amountFen : null,
    platformStatus: ours ? ours.status : null,
    gatewayAmount: bill ? bill.amountFen : null,
    gatewayTime: bill ? bill.at : null,
  };
}

export async function compareDay(bill: Bill, sources: DaySources): Promise<Comparison> {
  const differences: Difference[] = [];
  let neighbours: Promise<Map<string, BillRow>> | undefined;
  const neighbourOf = async (kind: Kind, key: string) => {
    neighbours ??= sources.neighbourRows().then((rows) => new Map(rows.map((row) => [`${row.kind}:${keyOfBill(row)}`, row])));
    return (await neighbours).get(`${kind}:${key}`);
  };
  for (const kind of ['payment', 'refund'] as const) {
    const ours = new Map(sources.ours[kind].map((row) => [keyOfOurs(kind, row), row]));
    const billRows = bill.rows.filter((row) => row.kind === kind);
    const elsewhere = await sources.find(kind, [...new Set(billRows.map(keyOfBill).filter((key) => key !== '' && !ours.has(key)))]);
    const matched = new Set<string>();
    for (const row of billRows) {
      const key = keyOfBill(row);
      const our = ours.get(key) ?? elsewhere.get(key);
      matched.add(key);
      if (!our) differences.push(difference(ReconcileCategory.gatewayOnly, kind, undefined, row));
      else if (!our.settled) differences.push(difference(ReconcileCategory.status, kind, our, row));
      else if (our.amountFen !== row.amountFen) differences.push(difference(ReconcileCategory.amount, kind, our, row));
    }
    for (const [key, our] of ours) {
      if (matched.has(key)) continue;
      const row = await neighbourOf(kind, key);
      if (!row) differences.push(difference(ReconcileCategory.platformOnly, kind, our, undefined));
      else if (row.amountFen !== our.amountFen) differences.push(difference(ReconcileCategory.amount, kind, our, row));
    }
  }
  const oursAll = (['payment', 'refund'] as const).flatMap((kind) => sources.ours[kind].map((row) => ({ kind, amountFen: row.amountFen })));
  return { differences, platform: sideOf(oursAll), gateway: sideOf(bill.rows) };
}
