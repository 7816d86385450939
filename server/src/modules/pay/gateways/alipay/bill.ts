import type { BillRow } from '../bill.ts';
import { parseBeijingDateTime, yuanTextToFen } from '../beijing-time.ts';

// Alipay's trade bill (bill_type=trade): a zip of GBK CSVs (entry names GBK too), the details in
// <pid>0156_<day>_业务明细.csv beside a (汇总) summary; '#' comment lines; values end in a tab (kept
// from Excel's reformatting). 业务类型 交易 rows are payments, 退款 rows refunds (negative amounts,
// 退款批次号/请求号 = our out_request_no).

const gbk = new TextDecoder('gbk');

/** Loads jszip on first use (a daily 对账 reads one), not as the server starts. */
export async function readAlipayBillZip(zip: Buffer): Promise<BillRow[]> {
  const { default: JSZip } = await import('jszip');
  const archive = await JSZip.loadAsync(zip, { decodeFileName: (bytes) => gbk.decode(bytes as Uint8Array) });
  const details = Object.values(archive.files).filter((f) => !f.dir && f.name.endsWith('.csv') && !f.name.includes('汇总'));
  const rows: BillRow[] = [];
  for (const file of details) rows.push(...parseAlipayBillCsv(gbk.decode(await file.async('uint8array'))));
  return rows;
}

export function parseAlipayBillCsv(text: string): BillRow[] {
  let header: string[] | undefined;
  const rows: BillRow[] = [];
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (!line.trim() || line.startsWith('#')) continue;
    const fields = line.split(',').map((f) => f.trim());
    if (!header) {
      header = fields;
      for (const name of ['支付宝交易号', '商户订单号', '业务类型', '完成时间', '订单金额（元）']) if (!header.includes(name)) throw new Error(`not an Alipay trade bill: no column ${name}`);
      continue;
    }
    const field = (name: string) => fields[header!.indexOf(name)] ?? '';
    const kind = field('业务类型');
    if (kind !== '交易' && kind !== '退款') continue;
    const at = parseBeijingDateTime(field('完成时间') || field('创建时间'));
    if (Number.isNaN(at)) throw new Error(`Alipay bill: bad 完成时间 in ${JSON.stringify(line.slice(0, 60))}`);
    const row: BillRow = { kind: kind === '交易' ? 'payment' : 'refund', orderNo: field('商户订单号'), gatewayTradeNo: field('支付宝交易号'), amountFen: yuanTextToFen(field('订单金额（元）')), at };
    if (kind === '退款') row.refundNo = field('退款批次号/请求号');
    rows.push(row);
  }
  return rows;
}
