import { beijingDay, beijingText, yuan, type FakeBooks } from './books.ts';

// WeChat Pay's trade bill of a Beijing day from a fake's books, as the real one is laid out (v2 and v3
// alike): BOM, header, every detail field prefixed with a backtick, REFUND rows, then the summary rows.
// undefined: no trade that day (the real service answers "No Bill Exist" / NO_STATEMENT_EXIST).

const HEADER = '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注';

export function wechatBillCsv(books: FakeBooks, day: string): string | undefined {
  const lines: string[] = [];
  let paid = 0;
  let refunded = 0;
  const row = (fields: string[]) => lines.push(fields.map((f) => `\`${f}`).join(','));
  for (const p of books.payments.values()) {
    if (p.payTime === undefined || beijingDay(p.payTime) !== day) continue;
    paid += p.amount;
    row([beijingText(p.payTime), p.appId, p.mchId, '0', '', p.transId, p.orderNo, 'oFAKE', 'NATIVE', 'SUCCESS', 'OTHERS', 'CNY', yuan(p.amount), '0.00', '0', '0', '0.00', '0.00', '', '', p.subject, 'a,b', '0.00000', '0.60%', yuan(p.amount), '0.00', '']);
  }
  for (const r of books.refunds.values()) {
    const p = books.payments.get(r.orderNo)!;
    if (beijingDay(r.time) !== day || r.status !== 'SUCCESS') continue;
    refunded += r.amount;
    row([beijingText(r.time), p.appId, p.mchId, '0', '', p.transId, p.orderNo, 'oFAKE', 'NATIVE', 'REFUND', 'OTHERS', 'CNY', '0.00', '0.00', r.refundId, r.refundNo, yuan(r.amount), '0.00', 'ORIGINAL', 'SUCCESS', p.subject, '', '0.00000', '0.60%', '0.00', yuan(r.amount), '']);
  }
  if (lines.length === 0) return undefined;
  return `\uFEFF${HEADER}\r\n${lines.join('\r\n')}\r\n总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额\r\n\`${lines.length},\`${yuan(paid)},\`${yuan(refunded)},\`0.00,\`0.00,\`${yuan(paid)},\`${yuan(refunded)}\r\n`;
}
