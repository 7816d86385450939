// A gateway's bill of one Beijing day, as rows both sides of reconciliation (对账) compare in integer fen.
export type BillRow = {
  kind: 'payment' | 'refund';
  /** our order number (out_trade_no) */
  orderNo: string;
  /** our refund number (out_refund_no / out_request_no), refunds only */
  refundNo?: string;
  /** the gateway's own trade number */
  gatewayTradeNo: string;
  /** positive, integer fen */
  amountFen: number;
  /** epoch ms of the payment or refund at the gateway */
  at: number;
};
export type Bill = { day: string; rows: BillRow[] };
