import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { beijingText, FakeBooks, randomDigits, type FakePayment } from './books.ts';
import { makeCertificates } from './certificates.ts';
import { notifyUntilTaken, pagePathOrderNo, payPage, postNotification, serveLoopback, type FakeAnswer, type FakeRequest } from './http.ts';
import { wechatBillCsv } from './wechat-bill.ts';

// A local WeChat Pay APIv2 on loopback: XML in and out, every request's sign checked and every answer
// signed with the APIv2 key (MD5 or HMAC-SHA256, as the request says), refunds only over HTTPS with the
// merchant API certificate it issued (its CA, its server certificate for 127.0.0.1: the port speaks HTTPS,
// and plain HTTP for the customers' pages), refund notifications with req_info encrypted (AES-256-ECB, md5
// of the key), downloadbill. startFakeWechatV2 serves it alone; wechat.ts with the APIv3 fake on one port.

export type FakeWechatV2Options = { now?: () => number };
export type V2NotifyOverrides = { amount?: number; appid?: string; mchid?: string; signature?: 'forged' };
type Fields = Record<string, string>;

const parser = new XMLParser({ parseTagValue: false, trimValues: false });
const cdata = (s: string) => `<![CDATA[${s.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
const xmlOf = (f: Fields, root = 'xml') => `<${root}>${Object.entries(f).map(([k, v]) => `<${k}>${cdata(v)}</${k}>`).join('')}</${root}>`;
const compact = (ms: number) => beijingText(ms).replace(/\D/g, '');

function signOf(f: Fields, key: string, type: string): string {
  const text = `${Object.keys(f).filter((k) => k !== 'sign' && f[k] !== '').sort().map((k) => `${k}=${f[k]}`).join('&')}&key=${key}`;
  return (type === 'HMAC-SHA256' ? createHmac('sha256', key).update(text).digest('hex') : createHash('md5').update(text).digest('hex')).toUpperCase();
}

/** The fake, not yet listening: `mount` tells it where it is served (the API over HTTPS, the customers' pages). */
/** The merchant's acknowledgement of a notification, as the real service reads it. */
const taken = (a: { status: number; text: string }) => a.status === 200 && a.text.includes('<return_code><![CDATA[SUCCESS]]></return_code>');

export function createFakeWechatV2(options: FakeWechatV2Options = {}) {
  const now = options.now ?? Date.now;
  const account = { mchid: `16${randomDigits(8)}`, appid: `wx${randomBytes(8).toString('hex')}`, apiKey: randomBytes(16).toString('hex') };
  const certs = makeCertificates(account.mchid);
  const books = new FakeBooks();
  let baseUrl = '';
  let pageUrl = '';

  const reply = (fields: Fields, type: string): FakeAnswer => {
    const f: Fields = { return_code: 'SUCCESS', return_msg: 'OK', appid: account.appid, mch_id: account.mchid, nonce_str: randomBytes(8).toString('hex'), ...fields };
    f.sign = signOf(f, account.apiKey, type);
    return { headers: { 'content-type': 'text/xml; charset=utf-8' }, body: xmlOf(f) };
  };
  const refuse = (message: string): FakeAnswer => ({ headers: { 'content-type': 'text/xml; charset=utf-8' }, body: xmlOf({ return_code: 'FAIL', return_msg: message }) });
  const bizFail = (code: string, des: string, type: string) => reply({ result_code: 'FAIL', err_code: code, err_code_des: des }, type);

  const paidFields = (p: FakePayment, o: V2NotifyOverrides = {}): Fields => ({
    appid: o.appid ?? p.appId, mch_id: o.mchid ?? p.mchId, result_code: 'SUCCESS', openid: 'oFAKE', is_subscribe: 'N', trade_type: 'NATIVE', bank_type: 'OTHERS',
    total_fee: String(o.amount ?? p.amount), cash_fee: String(o.amount ?? p.amount), fee_type: 'CNY', transaction_id: p.transId, out_trade_no: p.orderNo, time_end: compact(p.payTime ?? now()),
  });

  const fake = {
    /** The merchant's answer to a notification is its acknowledgement (else the fake sends it again). */
    acknowledged: taken,
    account, certs, books,
    get baseUrl() {
      return baseUrl;
    },
    /** The customer's pages (plain HTTP: a phone opens them without the fake's CA). */
    get pageUrl() {
      return pageUrl;
    },
    /** The HTTPS side of its port: key, certificate, the CA that issued the merchant's client certificate. */
    tls: { key: certs.serverKey, cert: certs.serverCert, ca: certs.caPem },
    mount(urls: { api: string; pages: string }) {
      baseUrl = urls.api;
      pageUrl = urls.pages;
    },
    handle,
    /** The signature type the merchant's last unifiedorder used (its notifications are signed the same way). */
    signType: 'MD5',
    async pay(orderNo: string, o: { afterClose?: boolean } = {}) {
      const p = books.pay(orderNo, `4200${randomDigits(24)}`, now(), o.afterClose);
      return p ? notifyUntilTaken(() => fake.notifyPaid(orderNo), taken) : undefined;
    },
    async notifyPaid(orderNo: string, o: V2NotifyOverrides = {}) {
      const p = books.payments.get(orderNo)!;
      const f: Fields = { return_code: 'SUCCESS', nonce_str: randomBytes(8).toString('hex'), ...paidFields(p, o) };
      f.sign = signOf(f, o.signature === 'forged' ? 'not-the-merchant-key' : account.apiKey, fake.signType);
      return postNotification(p.notifyUrl, xmlOf(f), { 'content-type': 'text/xml' });
    },
    async notifyRefund(refundNo: string) {
      const r = books.refunds.get(refundNo)!;
      const p = books.payments.get(r.orderNo)!;
      const inner = xmlOf({
        transaction_id: p.transId, out_trade_no: p.orderNo, refund_id: r.refundId, out_refund_no: r.refundNo, total_fee: String(p.amount), refund_fee: String(r.amount),
        settlement_refund_fee: String(r.amount), refund_status: r.status, success_time: beijingText(r.time), refund_recv_accout: '支付用户的零钱', refund_account: 'REFUND_SOURCE_RECHARGE_FUNDS', refund_request_source: 'API',
      }, 'root');
      const key = createHash('md5').update(account.apiKey).digest('hex').toLowerCase();
      const cipher = createCipheriv('aes-256-ecb', Buffer.from(key), null);
      const reqInfo = Buffer.concat([cipher.update(inner), cipher.final()]).toString('base64');
      return postNotification(r.notifyUrl!, xmlOf({ return_code: 'SUCCESS', appid: p.appId, mch_id: p.mchId, nonce_str: randomBytes(8).toString('hex'), req_info: reqInfo }), { 'content-type': 'text/xml' });
    },
    close: async () => {},
  };

  function api(request: FakeRequest): FakeAnswer | undefined {
    let f: Fields;
    try {
      f = (parser.parse(request.text) as { xml: Fields }).xml;
    } catch {
      return refuse('XML格式错误');
    }
    if (!f || typeof f !== 'object') return refuse('XML格式错误');
    const type = f.sign_type === 'HMAC-SHA256' ? 'HMAC-SHA256' : 'MD5';
    if (f.mch_id !== account.mchid || f.appid !== account.appid) return refuse('appid和mch_id不匹配');
    if (f.sign !== signOf(f, account.apiKey, type)) return refuse('签名错误');
    const p = books.payments.get(f.out_trade_no ?? '');
    switch (request.path) {
      case '/pay/unifiedorder': {
        // the required fields, as WeChat checks them: result_code FAIL, err_code LACK_PARAMS naming the field
        for (const field of ['body', 'out_trade_no', 'total_fee', 'notify_url', 'trade_type']) {
          if (!f[field]) return bizFail('LACK_PARAMS', `缺少参数${field}`, type);
        }
        if (p && p.status !== 'open') return bizFail('ORDERPAID', '该订单已支付', type);
        if (!/^[1-9]\d*$/.test(f.total_fee ?? '')) return refuse('total_fee');
        if (!books.open({ orderNo: f.out_trade_no!, amount: Number(f.total_fee), subject: f.body!, notifyUrl: f.notify_url!, appId: f.appid!, mchId: f.mch_id!, createTime: now() })) {
          return bizFail('OUT_TRADE_NO_USED', '商户订单号重复', type);
        }
        fake.signType = type;
        return reply({ result_code: 'SUCCESS', trade_type: 'NATIVE', prepay_id: `wx${randomDigits(20)}`, code_url: `${pageUrl}/pay/${encodeURIComponent(f.out_trade_no!)}` }, type);
      }
      case '/pay/orderquery': {
        if (!p) return bizFail('ORDERNOTEXIST', '此交易订单号不存在', type);
        const state = p.status === 'paid' ? (p.refunded > 0 ? 'REFUND' : 'SUCCESS') : p.status === 'closed' ? 'CLOSED' : 'NOTPAY';
        return reply({ result_code: 'SUCCESS', trade_state: state, out_trade_no: p.orderNo, total_fee: String(p.amount), ...(p.status === 'paid' ? { transaction_id: p.transId, time_end: compact(p.payTime!) } : {}) }, type);
      }
      case '/pay/closeorder': {
        if (!p) return bizFail('ORDERNOTEXIST', '订单不存在', type);
        if (p.status === 'paid') return bizFail('ORDERPAID', '订单已支付', type);
        p.status = 'closed';
        return reply({ result_code: 'SUCCESS' }, type);
      }
      case '/secapi/pay/refund': {
        if (request.clientCertCN !== account.mchid) return refuse('证书错误');
        if (p && f.total_fee !== String(p.amount)) return bizFail('INVALID_REQUEST', '订单金额不符', type);
        const done = books.refund({ orderNo: f.out_trade_no ?? '', refundNo: f.out_refund_no ?? '', amount: Number(f.refund_fee), notifyUrl: f.notify_url }, now());
        if (done.error) return bizFail('NOTENOUGH', done.error, type);
        if (done.refund!.notifyUrl) setTimeout(() => void notifyUntilTaken(() => fake.notifyRefund(done.refund!.refundNo), taken), 10).unref();
        return reply({ result_code: 'SUCCESS', out_trade_no: done.refund!.orderNo, out_refund_no: done.refund!.refundNo, refund_id: done.refund!.refundId, refund_fee: String(done.refund!.amount) }, type);
      }
      case '/pay/refundquery': {
        const r = books.refunds.get(f.out_refund_no ?? '');
        if (!r) return bizFail('REFUNDNOTEXIST', '退款订单查询失败', type);
        return reply({ result_code: 'SUCCESS', out_trade_no: r.orderNo, refund_count: '1', out_refund_no_0: r.refundNo, refund_id_0: r.refundId, refund_fee_0: String(r.amount), refund_status_0: r.status }, type);
      }
      case '/pay/downloadbill': {
        const day = (f.bill_date ?? '').replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3');
        const csv = wechatBillCsv(books, day);
        return csv ? { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: csv } : { headers: { 'content-type': 'text/xml' }, body: xmlOf({ return_code: 'FAIL', return_msg: 'No Bill Exist', error_code: '20002' }) };
      }
      default:
        return undefined;
    }
  }

  async function handle(request: FakeRequest): Promise<FakeAnswer | undefined> {
    const orderNo = API_PATHS.has(request.path) ? undefined : pagePathOrderNo(request.path);
    if (orderNo !== undefined) {
      if (request.method === 'POST') await fake.pay(orderNo);
      return payPage('微信支付 V2（本地模拟）', books.payments.get(orderNo), orderNo, '订单已关闭');
    }
    return request.method === 'POST' ? api(request) : undefined;
  }

  return fake;
}
export type FakeWechatV2 = ReturnType<typeof createFakeWechatV2>;

const API_PATHS = new Set(['/pay/unifiedorder', '/pay/orderquery', '/pay/closeorder', '/pay/refundquery', '/pay/downloadbill', '/secapi/pay/refund']);

/** The APIv2 fake alone on its port: the API over HTTPS (baseUrl), the pages over plain HTTP (pageUrl). */
export async function startFakeWechatV2(options: FakeWechatV2Options & { port?: number } = {}): Promise<FakeWechatV2> {
  const fake = createFakeWechatV2(options);
  const server = await serveLoopback(options.port ?? 0, fake.handle, fake.tls);
  fake.mount({ api: server.secureUrl!, pages: server.url });
  fake.close = server.close;
  return fake;
}
