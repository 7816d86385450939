import type { BillRow } from './bill.ts';
import { parseBeijingDateTime, yuanTextToFen } from './beijing-time.ts';

// WeChat Pay's trade bill (the same CSV from APIv2 downloadbill and APIv3 tradebill): UTF-8, maybe a
// BOM, a header line, detail rows whose every field starts with a backtick (so a field may hold a comma:
// split on ",`"), then the summary header (总交易单数,…) and its row. Payments are the SUCCESS rows;
// refunds the REFUND rows whose 退款状态 is SUCCESS, their money in 申请退款金额 (or 退款金额).

export function parseWechatBill(text: string): BillRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = (lines.shift() ?? '').split(',').map((h) => h.trim());
  if (header.length === 1 && header[0] === '') return [];
  const at = (name: string) => header.indexOf(name);
  const col = {
    time: at('交易时间'), transactionId: at('微信订单号'), orderNo: at('商户订单号'), state: at('交易状态'), settled: at('应结订单金额'),
    total: at('订单金额'), refundId: at('微信退款单号'), refundNo: at('商户退款单号'), refund: at('退款金额'), refundApplied: at('申请退款金额'), refundState: at('退款状态'),
  };
  if (col.time < 0 || col.orderNo < 0 || col.state < 0 || col.transactionId < 0) throw new Error('not a WeChat Pay trade bill: header lacks 交易时间/微信订单号/商户订单号/交易状态');
  const rows: BillRow[] = [];
  for (const line of lines) {
    if (line.startsWith('总交易单数')) break;
    if (!line.startsWith('`')) continue;
    const f = line.slice(1).split(',`');
    const field = (i: number) => (i >= 0 ? (f[i] ?? '').trim() : '');
    const time = parseBeijingDateTime(field(col.time));
    if (Number.isNaN(time)) throw new Error(`WeChat Pay bill: bad 交易时间 in ${JSON.stringify(line.slice(0, 60))}`);
    const state = field(col.state);
    if (state === 'SUCCESS') {
      rows.push({ kind: 'payment', orderNo: field(col.orderNo), gatewayTradeNo: field(col.transactionId), amountFen: yuanTextToFen(field(col.total) || field(col.settled)), at: time });
    } else if (state === 'REFUND' && field(col.refundState) === 'SUCCESS') {
      rows.push({
        kind: 'refund', orderNo: field(col.orderNo), refundNo: field(col.refundNo), gatewayTradeNo: field(col.refundId) || field(col.transactionId),
        amountFen: yuanTextToFen(field(col.refundApplied) || field(col.refund)), at: time,
      });
    }
  }
  return rows;
}
