import type { Bill } from '../bill.ts';
import { beijingDateTime, parseBeijingDateTime } from '../beijing-time.ts';
import {
  GatewayVerifyError, type CreatePayment, type PaidNotification, type PayAccount, type PaymentGateway, type PaymentState, type RefundNotification, type RefundState,
} from '../gateway.ts';
import { parseWechatBill } from '../wechat-bill.ts';
import { wechatTradeState } from '../wechat-trade-state.ts';
import { WechatV2Client, WechatV2Error, signTypeOf } from './client.ts';
import { probeWechatV2 } from './probe.ts';
import { decryptReqInfo, parseXml, signatureValid, toXml, type Fields } from './sign.ts';

// WeChat Pay APIv2, NATIVE payments: unifiedorder → code_url, orderquery, closeorder, refund (merchant
// API certificate), refundquery, downloadbill; notifications signed with the APIv2 key (MD5 or
// HMAC-SHA256), refund notifications' req_info decrypted (AES-256-ECB, md5 of the key) — a req_info
// that opens under the key is the proof. For merchants that cannot move to APIv3.

export const WECHAT_V2 = 'wechat_v2';

const compactTime = (ms: number) => beijingDateTime(ms).replace(/\D/g, '');
const refundStates: Record<string, RefundState['state']> = { SUCCESS: 'success', PROCESSING: 'processing', REFUNDCLOSE: 'failed', CHANGE: 'failed' };

export class WechatV2Gateway implements PaymentGateway<PayAccount> {
  readonly name = WECHAT_V2;
  readonly confirmsRefundByQuery = true;
  private readonly client: WechatV2Client;
  private readonly now: () => number;

  /** Where 检测's TLS handshake with the API certificate goes. */
  private readonly target: { baseUrl: string; tlsCa?: string };

  /** tlsCa: a CA to trust besides the system's for the certificate calls (the local fake). */
  constructor(options: { baseUrl: string; tlsCa?: string; now?: () => number }) {
    this.target = { baseUrl: options.baseUrl.replace(/\/+$/, ''), ...(options.tlsCa ? { tlsCa: options.tlsCa } : {}) };
    this.client = new WechatV2Client({ baseUrl: options.baseUrl.replace(/\/+$/, ''), ...(options.tlsCa ? { tlsCa: options.tlsCa } : {}) });
    this.now = options.now ?? Date.now;
  }

  private async call(account: PayAccount, path: string, fields: Fields, withCertificate = false): Promise<Fields> {
    const { fields: answer } = await this.client.post(account, path, fields, withCertificate);
    if (!answer) throw new WechatV2Error('WeChat Pay answered no XML');
    if (answer.return_code !== 'SUCCESS') throw new WechatV2Error(`WeChat Pay refused: ${answer.return_msg ?? answer.return_code}`);
    return answer;
  }

  async createPayment(account: PayAccount, input: CreatePayment): Promise<{ codeUrl: string }> {
    const a = await this.call(account, '/pay/unifiedorder', {
      body: input.subject.slice(0, 40), out_trade_no: input.orderNo, total_fee: String(input.amount), spbill_create_ip: '127.0.0.1',
      time_expire: compactTime(input.expireAt), notify_url: input.notifyUrl, trade_type: 'NATIVE', product_id: input.orderNo,
    });
    if (a.result_code !== 'SUCCESS' || !a.code_url) throw new WechatV2Error(`unifiedorder refused: ${a.err_code ?? ''} ${a.err_code_des ?? ''}`);
    return { codeUrl: a.code_url };
  }

  async query(account: PayAccount, orderNo: string): Promise<PaymentState> {
    const a = await this.call(account, '/pay/orderquery', { out_trade_no: orderNo });
    if (a.result_code !== 'SUCCESS') return { state: 'unknown' }; // ORDERNOTEXIST, SYSTEMERROR
    return wechatTradeState(a.trade_state, () => ({ state: 'paid', transId: String(a.transaction_id), amount: Number(a.total_fee), payTime: parseBeijingDateTime(String(a.time_end)) || this.now() }));
  }

  async close(account: PayAccount, orderNo: string): Promise<PaymentState> {
    const a = await this.call(account, '/pay/closeorder', { out_trade_no: orderNo }); // ORDERPAID: the query below tells
    if (a.result_code !== 'SUCCESS' && a.err_code === 'ORDERNOTEXIST') return { state: 'closed' }; // never created at WeChat: nothing can be paid
    return this.query(account, orderNo);
  }

  async refund(account: PayAccount, input: { orderNo: string; refundNo: string; amount: number; notifyUrl?: string }): Promise<RefundState> {
    const paid = await this.query(account, input.orderNo);
    if (paid.state !== 'paid') return { state: 'failed', reason: `order not paid at WeChat Pay (${paid.state})` };
    const a = await this.call(account, '/secapi/pay/refund', {
      out_trade_no: input.orderNo, out_refund_no: input.refundNo, total_fee: String(paid.amount), refund_fee: String(input.amount), ...(input.notifyUrl ? { notify_url: input.notifyUrl } : {}),
    }, true);
    if (a.result_code !== 'SUCCESS') {
      if (a.err_code === 'SYSTEMERROR' || a.err_code === 'FREQUENTLY_REQUEST') return { state: 'unknown' };
      return { state: 'failed', reason: `${a.err_code ?? 'FAIL'}: ${a.err_code_des ?? ''}`.slice(0, 200) };
    }
    // accepted: the refund's own status says whether the money moved
    const state = await this.queryRefund(account, input.refundNo);
    return state.state === 'unknown' ? { state: 'processing' } : state;
  }

  async queryRefund(account: PayAccount, refundNo: string): Promise<RefundState> {
    const a = await this.call(account, '/pay/refundquery', { out_refund_no: refundNo });
    if (a.result_code !== 'SUCCESS') return { state: 'unknown' }; // REFUNDNOTEXIST
    return { state: refundStates[String(a.refund_status_0)] ?? 'unknown' };
  }

  orderNoOf(rawBody: string): string | undefined {
    try {
      return parseXml(rawBody).out_trade_no;
    } catch {
      return undefined;
    }
  }

  verifyNotification(account: PayAccount, rawBody: string): PaidNotification {
    const f = this.signedFields(account, rawBody);
    if (f.return_code !== 'SUCCESS' || f.result_code !== 'SUCCESS') throw new GatewayVerifyError('not a payment');
    const amount = Number(f.total_fee);
    if (!f.out_trade_no || !f.transaction_id || !/^\d+$/.test(String(f.total_fee)) || !Number.isSafeInteger(amount)) throw new GatewayVerifyError('incomplete notification');
    return { orderNo: f.out_trade_no, transId: f.transaction_id, amount, mchId: f.mch_id ?? '', appId: f.appid ?? '', payTime: parseBeijingDateTime(String(f.time_end)) || this.now() };
  }

  async verifyRefundNotification(account: PayAccount, rawBody: string): Promise<RefundNotification> {
    let outer: Fields;
    let inner: Fields;
    try {
      outer = parseXml(rawBody);
      // the proof: req_info opens under md5(APIv2 key) and is the merchant's
      inner = parseXml(decryptReqInfo(String(outer.req_info), account.secrets.partnerKey).replace(/^<root>/, '<xml>').replace(/<\/root>\s*$/, '</xml>'));
    } catch {
      throw new GatewayVerifyError('req_info does not open with the APIv2 key');
    }
    if (outer.mch_id !== account.partner || outer.appid !== account.appid) throw new GatewayVerifyError('refund notification for another merchant');
    if (!inner.out_refund_no || !inner.out_trade_no) throw new GatewayVerifyError('incomplete refund notification');
    const at = parseBeijingDateTime(String(inner.success_time ?? ''));
    return {
      refundNo: inner.out_refund_no, orderNo: inner.out_trade_no, gatewayRefundNo: String(inner.refund_id ?? ''), amount: Number(inner.refund_fee),
      state: refundStates[String(inner.refund_status)] ?? 'unknown', ...(Number.isNaN(at) ? {} : { at }),
    };
  }

  acknowledgement(ok: boolean, message: string) {
    return { status: 200, contentType: 'text/xml; charset=utf-8', body: toXml({ return_code: ok ? 'SUCCESS' : 'FAIL', return_msg: ok ? 'OK' : message }) };
  }

  async downloadBill(account: PayAccount, day: string): Promise<Bill> {
    const { text, fields } = await this.client.post(account, '/pay/downloadbill', { bill_date: day.replaceAll('-', ''), bill_type: 'ALL' });
    if (fields) {
      // an XML answer is a refusal; a day without trades is "No Bill Exist": an empty bill
      if (/no bill exist/i.test(String(fields.return_msg ?? fields.err_code_des ?? '')) || fields.error_code === '20002') return { day, rows: [] };
      throw new WechatV2Error(`downloadbill refused: ${fields.return_msg ?? fields.return_code}`);
    }
    return { day, rows: parseWechatBill(text) };
  }

  probe(account: PayAccount) {
    return probeWechatV2(this.client, account, this.target);
  }

  private signedFields(account: PayAccount, rawBody: string): Fields {
    let f: Fields;
    try {
      f = parseXml(rawBody);
    } catch {
      throw new GatewayVerifyError('not XML');
    }
    if (!signatureValid(f, account.secrets.partnerKey, f.sign_type ? undefined : signTypeOf(account))) throw new GatewayVerifyError('bad signature');
    return f;
  }
}
