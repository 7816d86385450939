import { createSign, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import JSZip from 'jszip';
import { beijingDay, beijingText, FakeBooks, randomDigits, yuan, type FakePayment } from './books.ts';
import { encodeGbk } from './gbk.ts';
import { notifyUntilTaken, pagePathOrderNo, payPage, postNotification, serveLoopback, type FakeAnswer, type FakeRequest } from './http.ts';

// A local Alipay open platform (classic gateway.do) on loopback: it checks the application's request
// signature (RSA2) with the app key it made and the timestamp against Beijing time, signs every answer
// with its own "Alipay" key ({"<method>_response":{…},"sign":…}), a precreate trade exists only once its
// QR is scanned (ACQ.TRADE_NOT_EXIST before), notifications are signed forms (sign over the sorted fields
// without sign and sign_type), a full refund notifies TRADE_CLOSED, and bills are zips of GBK CSV.

export type FakeAlipayOptions = { port?: number; now?: () => number };
export type AlipayNotifyOverrides = { amount?: number; appid?: string; mchid?: string; signature?: 'forged'; tradeStatus?: string };

/** The merchant's acknowledgement of a notification, as the real service reads it. */
const taken = (a: { status: number; text: string }) => a.status === 200 && a.text.trim() === 'success';

export async function startFakeAlipay(options: FakeAlipayOptions = {}) {
  const now = options.now ?? Date.now;
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const account = {
    appId: `2021${randomDigits(12)}`, sellerId: `2088${randomDigits(12)}`,
    appPrivateKey: String(app.privateKey.export({ format: 'pem', type: 'pkcs8' })),
    alipayPublicKey: String(alipay.publicKey.export({ format: 'pem', type: 'spki' })),
  };
  const books = new FakeBooks();
  const bills = new Map<string, Buffer>();
  /** The request timestamps received (tests: Beijing time whatever the server's TZ). */
  const timestamps: string[] = [];
  let baseUrl = '';

  const rsa2 = (text: string, key = alipay.privateKey) => createSign('RSA-SHA256').update(text, 'utf8').sign(key, 'base64');
  const answer = (method: string, data: Record<string, unknown>): FakeAnswer => {
    const inner = JSON.stringify(data);
    return { headers: { 'content-type': 'application/json; charset=utf-8' }, body: `{"${method.replaceAll('.', '_')}_response":${inner},"sign":"${rsa2(inner)}"}` };
  };
  const ok = (method: string, data: Record<string, unknown>) => answer(method, { code: '10000', msg: 'Success', ...data });
  const bizError = (method: string, subCode: string, subMsg: string) => answer(method, { code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });

  function sendForm(p: FakePayment, fields: Record<string, string>, o: AlipayNotifyOverrides = {}) {
    const form: Record<string, string> = {
      gmt_create: beijingText(p.createTime), charset: 'utf-8', seller_email: 'fake@alipay.local', subject: p.subject, buyer_id: `2088${randomDigits(12)}`,
      invoice_amount: yuan(p.amount), notify_id: randomBytes(16).toString('hex'), fund_bill_list: `[{"amount":"${yuan(p.amount)}","fundChannel":"ALIPAYACCOUNT"}]`,
      notify_type: 'trade_status_sync', receipt_amount: yuan(p.amount), buyer_pay_amount: yuan(p.amount), app_id: o.appid ?? p.appId, seller_id: o.mchid ?? p.mchId,
      notify_time: beijingText(now()), version: '1.0', out_trade_no: p.orderNo, total_amount: yuan(o.amount ?? p.amount), trade_no: p.transId, auth_app_id: p.appId,
      buyer_logon_id: 'cus***@example.com', point_amount: '0.00', ...fields,
    };
    const text = Object.keys(form).sort().map((k) => `${k}=${form[k]}`).join('&');
    form.sign = rsa2(text, o.signature === 'forged' ? app.privateKey : alipay.privateKey);
    form.sign_type = 'RSA2';
    return postNotification(p.notifyUrl, new URLSearchParams(form).toString(), { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' });
  }

  const fake = {
    /** The merchant's answer to a notification is its acknowledgement (else the fake sends it again). */
    acknowledged: taken,
    account, books, timestamps,
    get baseUrl() {
      return baseUrl;
    },
    get gatewayUrl() {
      return `${baseUrl}/gateway.do`;
    },
    /** The customer scans (the trade comes to exist) and pays; then the notification. */
    async pay(orderNo: string, o: { afterClose?: boolean } = {}) {
      const known = books.payments.get(orderNo);
      if (known) known.scanned = true;
      const p = books.pay(orderNo, `2026${randomDigits(24)}`, now(), o.afterClose);
      return p ? notifyUntilTaken(() => fake.notifyPaid(orderNo), taken) : undefined;
    },
    async notifyPaid(orderNo: string, o: AlipayNotifyOverrides = {}) {
      const p = books.payments.get(orderNo)!;
      return sendForm(p, { trade_status: o.tradeStatus ?? 'TRADE_SUCCESS', gmt_payment: beijingText(p.payTime ?? now()) }, o);
    },
    close: async () => {},
  };

  function verifyApp(params: Record<string, string>): string | undefined {
    if (params.app_id !== account.appId) return 'isv.invalid-app-id';
    const ts = params.timestamp ?? '';
    timestamps.push(ts);
    // Alipay reads the timestamp as Beijing time
    if (Math.abs(Date.parse(`${ts.replace(' ', 'T')}+08:00`) - now()) > 10 * 60_000) return 'isv.invalid-timestamp';
    const text = Object.keys(params).filter((k) => k !== 'sign').sort().map((k) => `${k}=${params[k]}`).join('&');
    return createVerify('RSA-SHA256').update(text, 'utf8').verify(app.publicKey, params.sign ?? '', 'base64') ? undefined : 'isv.invalid-signature';
  }

  async function gateway(request: FakeRequest): Promise<FakeAnswer> {
    const params = { ...Object.fromEntries(request.query), ...Object.fromEntries(new URLSearchParams(request.text)) };
    const method = params.method ?? '';
    const refused = verifyApp(params);
    if (refused) return answer(method, { code: '40002', msg: 'Invalid Arguments', sub_code: refused, sub_msg: refused });
    const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
    const p = books.payments.get(biz.out_trade_no ?? '');
    const exists = p?.scanned;
    switch (method) {
      case 'alipay.trade.precreate': {
        // the required fields (notify_url is optional at Alipay: a trade without one is only never notified)
        for (const field of ['out_trade_no', 'total_amount', 'subject']) {
          if (typeof biz[field] !== 'string' || biz[field] === '') return bizError(method, 'ACQ.INVALID_PARAMETER', `参数无效: ${field}`);
        }
        if (p && p.status !== 'open') return bizError(method, 'ACQ.TRADE_HAS_SUCCESS', '交易已被支付');
        const amount = /^\d+\.\d{2}$/.test(biz.total_amount ?? '') ? Number(biz.total_amount!.replace('.', '')) : NaN;
        if (!Number.isSafeInteger(amount) || amount <= 0) return bizError(method, 'ACQ.INVALID_PARAMETER', 'total_amount');
        if (!books.open({ orderNo: biz.out_trade_no!, amount, subject: biz.subject!, notifyUrl: params.notify_url ?? '', appId: account.appId, mchId: account.sellerId, createTime: now() })) {
          return bizError(method, 'ACQ.CONTEXT_INCONSISTENT', '交易信息被篡改');
        }
        return ok(method, { out_trade_no: biz.out_trade_no, qr_code: `${baseUrl}/pay/${encodeURIComponent(biz.out_trade_no!)}` });
      }
      case 'alipay.trade.query': {
        if (!p || !exists) return bizError(method, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        const status = p.status === 'paid' ? (p.refunded === p.amount ? 'TRADE_CLOSED' : 'TRADE_SUCCESS') : p.status === 'closed' ? 'TRADE_CLOSED' : 'WAIT_BUYER_PAY';
        return ok(method, { out_trade_no: p.orderNo, trade_no: p.transId, trade_status: status, total_amount: yuan(p.amount), ...(p.payTime ? { send_pay_date: beijingText(p.payTime) } : {}) });
      }
      case 'alipay.trade.close': {
        if (!p || !exists) return bizError(method, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        if (p.status === 'paid') return bizError(method, 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
        p.status = 'closed';
        return ok(method, { out_trade_no: p.orderNo });
      }
      case 'alipay.trade.refund': {
        if (!p || !exists) return bizError(method, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
        const amount = /^\d+\.\d{2}$/.test(biz.refund_amount ?? '') ? Number(biz.refund_amount!.replace('.', '')) : NaN;
        const known = books.refunds.has(biz.out_request_no ?? '');
        const done = books.refund({ orderNo: p.orderNo, refundNo: biz.out_request_no ?? '', amount }, now());
        if (done.error) return bizError(method, 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', done.error);
        if (!known && p.refunded === p.amount) setTimeout(() => void notifyUntilTaken(() => sendForm(p, { trade_status: 'TRADE_CLOSED', gmt_refund: beijingText(now()), refund_fee: yuan(p.refunded), out_biz_no: biz.out_request_no! }), taken), 10).unref();
        return ok(method, { out_trade_no: p.orderNo, trade_no: p.transId, refund_fee: yuan(p.refunded), fund_change: known ? 'N' : 'Y' });
      }
      case 'alipay.trade.fastpay.refund.query': {
        const r = books.refunds.get(biz.out_request_no ?? '');
        if (!r || r.orderNo !== biz.out_trade_no) return ok(method, {});
        return ok(method, { out_trade_no: r.orderNo, out_request_no: r.refundNo, refund_amount: yuan(r.amount), refund_status: 'REFUND_SUCCESS' });
      }
      case 'alipay.data.dataservice.bill.downloadurl.query': {
        const zip = await alipayBillZip(books, account.sellerId, biz.bill_date ?? '');
        if (!zip) return bizError(method, 'isp.bill_not_exist', '账单不存在');
        const token = randomBytes(12).toString('hex');
        bills.set(token, zip);
        return ok(method, { bill_download_url: `${baseUrl}/bill/${token}?fileType=csv.zip&bizType=trade` });
      }
      default:
        return answer(method, { code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method', sub_msg: method });
    }
  }

  async function handle(request: FakeRequest): Promise<FakeAnswer | undefined> {
    if (request.path === '/gateway.do' && request.method === 'POST') return gateway(request);
    const orderNo = pagePathOrderNo(request.path);
    if (orderNo !== undefined) {
      const p = books.payments.get(orderNo);
      if (p) p.scanned = true; // scanning makes the trade exist at Alipay
      if (request.method === 'POST') await fake.pay(orderNo);
      return payPage('支付宝（本地模拟）', p, orderNo, '交易已关闭');
    }
    const bill = /^\/bill\/([0-9a-f]+)$/.exec(request.path);
    if (bill) {
      const zip = bills.get(bill[1]!);
      return zip ? { headers: { 'content-type': 'application/zip' }, body: zip } : { status: 404, body: '下载超时，请重新下载' };
    }
    return undefined;
  }

  const server = await serveLoopback(options.port ?? 0, handle);
  baseUrl = server.url;
  fake.close = server.close;
  return fake;
}
export type FakeAlipay = Awaited<ReturnType<typeof startFakeAlipay>>;

const HEADER = '支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注';

/** The day's trade bill as Alipay zips it: GBK CSV (names too), '#' comments, tab-padded values. */
async function alipayBillZip(books: FakeBooks, pid: string, day: string): Promise<Buffer | undefined> {
  const rows: string[] = [];
  const cell = (v: string) => `${v}\t`;
  for (const p of books.payments.values()) {
    if (p.payTime === undefined || beijingDay(p.payTime) !== day) continue;
    rows.push([cell(p.transId), cell(p.orderNo), cell('交易'), p.subject, beijingText(p.createTime), beijingText(p.payTime), cell(''), cell(''), cell(''), cell(''), cell('cus***@example.com'),
      yuan(p.amount), yuan(p.amount), '0.00', '0.00', '0.00', '0.00', '0.00', '', '0.00', '0.00', cell(''), '0.00', '0.00', ''].join(','));
  }
  for (const r of books.refunds.values()) {
    const p = books.payments.get(r.orderNo)!;
    if (beijingDay(r.time) !== day) continue;
    rows.push([cell(p.transId), cell(p.orderNo), cell('退款'), p.subject, beijingText(p.createTime), beijingText(r.time), cell(''), cell(''), cell(''), cell(''), cell('cus***@example.com'),
      `-${yuan(r.amount)}`, `-${yuan(r.amount)}`, '0.00', '0.00', '0.00', '0.00', '0.00', '', '0.00', '0.00', cell(r.refundNo), '0.00', '0.00', ''].join(','));
  }
  if (rows.length === 0) return undefined;
  const compact = day.replaceAll('-', '');
  const csv = [
    '#支付宝业务明细查询', `#账号：[${pid}0156]`, `#起始日期：[${day} 00:00:00]   终止日期：[${day} 23:59:59]`,
    '#-----------------------------------------业务明细列表----------------------------------------', HEADER, ...rows,
    '#-----------------------------------------业务明细列表结束------------------------------------', `#交易合计：${rows.length}笔`, `#导出时间：[${beijingText(Date.now())}]`,
  ].join('\r\n');
  const zip = new JSZip();
  zip.file(`${pid}0156_${compact}_业务明细.csv`, encodeGbk(csv), { binary: true });
  zip.file(`${pid}0156_${compact}_业务明细(汇总).csv`, encodeGbk(`#支付宝业务汇总查询\r\n门店编号,门店名称,交易订单总笔数\r\n,,${rows.length}\r\n`), { binary: true });
  // entry names in GBK too, as Alipay's
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', encodeFileName: (name) => encodeGbk(name).toString('latin1') });
}
