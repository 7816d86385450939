import { AlipaySdk, type AlipaySdkCommonResult } from 'alipay-sdk';
import { fenToYuan } from '@huiyun/contract';
import type { Bill } from '../bill.ts';
import { beijingDateTime, parseBeijingDateTime, yuanTextToFen } from '../beijing-time.ts';
import {
  GatewayVerifyError, loadBeforeSending, type ClosedNotification, type CreatePayment, type PaidNotification, type PayAccount, type PaymentGateway, type PaymentState, type RefundState,
} from '../gateway.ts';
import { pemOf, privateKeyOf, publicKeyOf } from '../keys.ts';
import { readAlipayBillZip } from './bill.ts';
import { probeAlipay } from './probe.ts';

// Alipay 当面付 (a precreate qr_code for the machine's QR) through the official alipay-sdk: every answer's
// signature checked (validateSign), notifications verified with checkNotifySignV2 on the parsed form
// (checkNotifySign decodes values again and throws on a '%'). Requests are stamped in Beijing time
// whatever the server's TZ (the SDK would use the process's). An unscanned precreate does not exist at
// Alipay: ACQ.TRADE_NOT_EXIST on query or close means closed. Amounts are yuan text, read as fen.

export const ALIPAY = 'alipay';

type Result = AlipaySdkCommonResult & Record<string, unknown>;

/** The 支付配置's 签名方式: RSA (RSA-SHA1) only when it says so, else RSA2 (RSA-SHA256). */
const signTypeOf = (account: PayAccount): 'RSA' | 'RSA2' => (account.signType === 'RSA' ? 'RSA' : 'RSA2');
const SUCCESS = '10000';

export class AlipayGateway implements PaymentGateway<PayAccount> {
  readonly name = ALIPAY;
  private readonly gatewayUrl: string;
  private readonly now: () => number;
  private readonly sdks = new Map<string, AlipaySdk>();

  constructor(options: { gatewayUrl: string; now?: () => number }) {
    this.gatewayUrl = options.gatewayUrl;
    this.now = options.now ?? Date.now;
  }

  /** One SDK per account's keys (it parses them once). */
  sdkOf(account: PayAccount): AlipaySdk {
    const id = [account.id, account.appid, account.signType, account.alipayPublicKey, account.secrets.appPrivateKey].join('\n');
    let sdk = this.sdks.get(id);
    if (!sdk) {
      // both keys loaded before any call leaves: one that does not load is GatewayNotSentError
      const privateKey = loadBeforeSending('appPrivateKey', () => pemOf(privateKeyOf(account.secrets.appPrivateKey)));
      const alipayPublicKey = loadBeforeSending('alipayPublicKey', () => pemOf(publicKeyOf(account.alipayPublicKey)));
      sdk = new AlipaySdk({
        appId: account.appid, privateKey, keyType: 'PKCS8', alipayPublicKey, signType: signTypeOf(account),
        gateway: this.gatewayUrl, camelcase: false, timeout: 10_000,
      });
      if (this.sdks.size >= 200) this.sdks.clear();
      this.sdks.set(id, sdk);
    }
    return sdk;
  }

  private async exec(account: PayAccount, method: string, bizContent: Record<string, unknown>, extra: Record<string, string> = {}): Promise<Result> {
    return (await this.sdkOf(account).exec(method, { timestamp: beijingDateTime(this.now()), ...extra, bizContent }, { validateSign: true })) as Result;
  }

  async createPayment(account: PayAccount, input: CreatePayment): Promise<{ codeUrl: string }> {
    const r = await this.exec(account, 'alipay.trade.precreate', {
      out_trade_no: input.orderNo, total_amount: fenToYuan(input.amount), subject: input.subject.slice(0, 256), time_expire: beijingDateTime(input.expireAt),
      ...(account.sellerUserId ? { seller_id: account.sellerUserId } : {}),
    }, { notify_url: input.notifyUrl });
    if (r.code !== SUCCESS || typeof r.qr_code !== 'string') throw new Error(`Alipay precreate refused: ${r.sub_code ?? r.code} ${r.sub_msg ?? r.msg}`);
    return { codeUrl: r.qr_code };
  }

  async query(account: PayAccount, orderNo: string): Promise<PaymentState> {
    const r = await this.exec(account, 'alipay.trade.query', { out_trade_no: orderNo });
    if (r.code !== SUCCESS) {
      if (r.sub_code === 'ACQ.TRADE_NOT_EXIST') return { state: 'closed' };
      return { state: 'unknown' };
    }
    switch (r.trade_status) {
      case 'TRADE_SUCCESS':
      case 'TRADE_FINISHED':
        return { state: 'paid', transId: String(r.trade_no), amount: yuanTextToFen(String(r.total_amount)), payTime: parseBeijingDateTime(String(r.send_pay_date ?? '')) || this.now() };
      case 'WAIT_BUYER_PAY':
        return { state: 'unpaid' };
      case 'TRADE_CLOSED':
        return { state: 'closed' };
      default:
        return { state: 'unknown' };
    }
  }

  async close(account: PayAccount, orderNo: string): Promise<PaymentState> {
    const r = await this.exec(account, 'alipay.trade.close', { out_trade_no: orderNo });
    if (r.code !== SUCCESS && r.sub_code === 'ACQ.TRADE_NOT_EXIST') return { state: 'closed' };
    return this.query(account, orderNo); // closed, or the payment that won the race (ACQ.TRADE_STATUS_ERROR)
  }

  async refund(account: PayAccount, input: { orderNo: string; refundNo: string; amount: number }): Promise<RefundState> {
    // out_request_no = our refund number: a retry of the same refund is the same request at Alipay
    const r = await this.exec(account, 'alipay.trade.refund', { out_trade_no: input.orderNo, refund_amount: fenToYuan(input.amount), out_request_no: input.refundNo });
    if (r.code === SUCCESS) return { state: 'success' };
    if (r.code === '20000') return { state: 'unknown' }; // Alipay's system error: ask again later
    return { state: 'failed', reason: `${r.sub_code ?? r.code}: ${r.sub_msg ?? r.msg}`.slice(0, 200) };
  }

  async queryRefund(account: PayAccount, refundNo: string, orderNo?: string): Promise<RefundState> {
    if (!orderNo) return { state: 'unknown' };
    const r = await this.exec(account, 'alipay.trade.fastpay.refund.query', { out_trade_no: orderNo, out_request_no: refundNo });
    // no refund_status: Alipay holds no such refund (not refunded)
    return { state: r.code === SUCCESS && r.refund_status === 'REFUND_SUCCESS' ? 'success' : 'unknown' };
  }

  orderNoOf(rawBody: string): string | undefined {
    return new URLSearchParams(rawBody).get('out_trade_no') ?? undefined;
  }

  verifyNotification(account: PayAccount, rawBody: string): PaidNotification | ClosedNotification {
    const form = Object.fromEntries(new URLSearchParams(rawBody));
    // the SDK verifies with the algorithm the notification names (sign_type): only the 支付配置's own is taken, so
    // an RSA2 config does not fall back to RSA-SHA1 because a sender asked for it
    if (form.sign_type !== undefined && form.sign_type !== signTypeOf(account)) throw new GatewayVerifyError('sign_type is not the 支付配置\'s 签名方式');
    let valid = false;
    try {
      valid = this.sdkOf(account).checkNotifySignV2(form);
    } catch {
      valid = false;
    }
    if (!valid) throw new GatewayVerifyError('bad signature');
    const orderNo = form.out_trade_no ?? '';
    const transId = form.trade_no ?? '';
    // seller_id is compared when the 支付配置 names its PID (合作伙伴身份); else there is nothing to compare it with
    const mchId = account.partner ? (form.seller_id ?? '') : '';
    const appId = form.app_id ?? '';
    // a full refund closes the trade and Alipay notifies again (TRADE_CLOSED); a partial one carries refund_fee
    if (form.trade_status === 'TRADE_CLOSED' || form.trade_status === 'WAIT_BUYER_PAY' || form.refund_fee !== undefined || form.gmt_refund !== undefined) {
      return { closed: true, orderNo, transId, mchId, appId };
    }
    if (form.trade_status !== 'TRADE_SUCCESS' && form.trade_status !== 'TRADE_FINISHED') throw new GatewayVerifyError(`unknown trade_status ${String(form.trade_status).slice(0, 32)}`);
    let amount: number;
    try {
      amount = yuanTextToFen(form.total_amount ?? '');
    } catch {
      throw new GatewayVerifyError('bad total_amount');
    }
    return { orderNo, transId, amount, mchId, appId, payTime: parseBeijingDateTime(form.gmt_payment ?? '') || this.now() };
  }

  acknowledgement(ok: boolean) {
    // exactly 'success' stops Alipay's retries; anything else is retried (8 times in about 25 h)
    return { status: ok ? 200 : 400, contentType: 'text/plain; charset=utf-8', body: ok ? 'success' : 'fail' };
  }

  probe(account: PayAccount) {
    return probeAlipay(account, (method, bizContent) => this.exec(account, method, bizContent));
  }

  async downloadBill(account: PayAccount, day: string): Promise<Bill> {
    const r = await this.exec(account, 'alipay.data.dataservice.bill.downloadurl.query', { bill_type: 'trade', bill_date: day });
    if (r.code !== SUCCESS) {
      if (r.sub_code === 'isp.bill_not_exist' || r.sub_code === 'ACQ.BILL_NOT_EXIST') return { day, rows: [] };
      throw new Error(`Alipay bill refused: ${r.sub_code ?? r.code} ${r.sub_msg ?? r.msg}`);
    }
    const answer = await fetch(String(r.bill_download_url), { signal: AbortSignal.timeout(30_000) });
    if (!answer.ok) throw new Error(`Alipay bill download answered ${answer.status}`);
    return { day, rows: await readAlipayBillZip(Buffer.from(await answer.arrayBuffer())) };
  }
}
