import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { Bill } from '../bill.ts';
import { beijingRfc3339 } from '../beijing-time.ts';
import {
  GatewayVerifyError, type ClosedNotification, type CreatePayment, type PaidNotification, type PayAccount, type PaymentGateway, type PaymentState,
  type RefundNotification, type RefundState,
} from '../gateway.ts';
import { parseWechatBill } from '../wechat-bill.ts';
import { wechatTradeState } from '../wechat-trade-state.ts';
import { decryptResource, verifySigned, type EncryptedResource } from './crypto.ts';
import { WechatApiError, WechatV3Client } from './client.ts';
import { probeWechatV3 } from './probe.ts';

// WeChat Pay APIv3, Native payments (a code_url for the machine's QR): create, query, close (204),
// refunds and their query and notifications, the trade bill (gzip, SHA1 checked). Written on fetch and
// node:crypto rather than wechatpay-axios-plugin: its v3 part insists on v3 settings (and axios) for
// every call, its types do not cover v3, and the ~200 lines here are the whole protocol.

export const WECHAT_V3 = 'wechat_v3';

type Headers = Record<string, string | string[] | undefined>;
type Transaction = {
  appid?: string; mchid?: string; out_trade_no?: string; transaction_id?: string; trade_state?: string; success_time?: string; amount?: { total?: number };
};
type Refund = { out_refund_no?: string; out_trade_no?: string; refund_id?: string; status?: string; refund_status?: string; success_time?: string; amount?: { refund?: number } };

const refundStates: Record<string, RefundState['state']> = { SUCCESS: 'success', PROCESSING: 'processing', CLOSED: 'failed', ABNORMAL: 'failed' };
const enc = encodeURIComponent;

export class WechatV3Gateway implements PaymentGateway<PayAccount> {
  readonly name = WECHAT_V3;
  private readonly client: WechatV3Client;
  private readonly now: () => number;

  constructor(options: { baseUrl: string; now?: () => number }) {
    this.now = options.now ?? Date.now;
    this.client = new WechatV3Client({ baseUrl: options.baseUrl.replace(/\/+$/, ''), now: this.now });
  }

  async createPayment(account: PayAccount, input: CreatePayment): Promise<{ codeUrl: string }> {
    const { data } = await this.client.call(account, 'POST', '/v3/pay/transactions/native', {
      appid: account.appid, mchid: account.partner, description: input.subject.slice(0, 127), out_trade_no: input.orderNo,
      time_expire: beijingRfc3339(input.expireAt), notify_url: input.notifyUrl, amount: { total: input.amount, currency: 'CNY' },
    });
    const codeUrl = data?.code_url;
    if (typeof codeUrl !== 'string' || !codeUrl) throw new Error('WeChat Pay answered no code_url');
    return { codeUrl };
  }

  async query(account: PayAccount, orderNo: string): Promise<PaymentState> {
    let tx: Transaction;
    try {
      tx = (await this.client.call(account, 'GET', `/v3/pay/transactions/out-trade-no/${enc(orderNo)}?mchid=${enc(account.partner)}`)).data as Transaction;
    } catch (error) {
      if (error instanceof WechatApiError && error.code === 'ORDER_NOT_EXIST') return { state: 'unknown' };
      throw error;
    }
    return wechatTradeState(tx.trade_state, () => ({ state: 'paid', transId: String(tx.transaction_id), amount: Number(tx.amount?.total), payTime: Date.parse(String(tx.success_time)) }));
  }

  async close(account: PayAccount, orderNo: string): Promise<PaymentState> {
    try {
      await this.client.call(account, 'POST', `/v3/pay/transactions/out-trade-no/${enc(orderNo)}/close`, { mchid: account.partner });
    } catch (error) {
      // never created at WeChat (our create never reached it): nothing can be paid
      if (error instanceof WechatApiError && error.code === 'ORDER_NOT_EXIST') return { state: 'closed' };
      // ORDERPAID: the payment won the race; the query below says so
      if (!(error instanceof WechatApiError && ['ORDERPAID', 'ORDER_CLOSED', 'ORDERCLOSED'].includes(error.code))) throw error;
    }
    return this.query(account, orderNo);
  }

  async refund(account: PayAccount, input: { orderNo: string; refundNo: string; amount: number; notifyUrl?: string }): Promise<RefundState> {
    const paid = await this.query(account, input.orderNo);
    if (paid.state !== 'paid') return { state: 'failed', reason: `order not paid at WeChat Pay (${paid.state})` };
    try {
      const { data } = await this.client.call(account, 'POST', '/v3/refund/domestic/refunds', {
        out_trade_no: input.orderNo, out_refund_no: input.refundNo, ...(input.notifyUrl ? { notify_url: input.notifyUrl } : {}),
        amount: { refund: input.amount, total: paid.amount, currency: 'CNY' },
      });
      return { state: refundStates[String((data as Refund).status)] ?? 'unknown' };
    } catch (error) {
      if (error instanceof WechatApiError && error.status >= 400 && error.status < 500) return { state: 'failed', reason: `${error.code}: ${error.message}`.slice(0, 200) };
      throw error;
    }
  }

  async queryRefund(account: PayAccount, refundNo: string): Promise<RefundState> {
    try {
      const { data } = await this.client.call(account, 'GET', `/v3/refund/domestic/refunds/${enc(refundNo)}`);
      return { state: refundStates[String((data as Refund).status)] ?? 'unknown' };
    } catch (error) {
      if (error instanceof WechatApiError && error.code === 'RESOURCE_NOT_EXISTS') return { state: 'unknown' };
      throw error;
    }
  }

  /** The body is encrypted: the order comes from the notify URL (/gateway/wechat_v3/notify/<orderNo>), never from here. */
  orderNoOf(): string | undefined {
    return undefined;
  }

  async verifyNotification(account: PayAccount, rawBody: string, headers: Headers): Promise<PaidNotification | ClosedNotification> {
    const { event, resource } = await this.openNotification(account, rawBody, headers);
    const tx = resource as Transaction;
    if (event !== 'TRANSACTION.SUCCESS' || tx.trade_state !== 'SUCCESS') throw new GatewayVerifyError(`not a payment: ${event}/${tx.trade_state}`);
    const amount = tx.amount?.total;
    if (typeof tx.out_trade_no !== 'string' || typeof tx.transaction_id !== 'string' || !Number.isSafeInteger(amount)) throw new GatewayVerifyError('incomplete transaction');
    return { orderNo: tx.out_trade_no, transId: tx.transaction_id, amount: amount!, mchId: String(tx.mchid ?? ''), appId: String(tx.appid ?? ''), payTime: Date.parse(String(tx.success_time)) || this.now() };
  }

  async verifyRefundNotification(account: PayAccount, rawBody: string, headers: Headers): Promise<RefundNotification> {
    const { event, resource } = await this.openNotification(account, rawBody, headers);
    const r = resource as Refund;
    if (!event.startsWith('REFUND.') || typeof r.out_refund_no !== 'string' || typeof r.out_trade_no !== 'string') throw new GatewayVerifyError(`not a refund: ${event}`);
    const at = Date.parse(String(r.success_time));
    return {
      refundNo: r.out_refund_no, orderNo: r.out_trade_no, gatewayRefundNo: String(r.refund_id ?? ''), amount: Number(r.amount?.refund),
      state: refundStates[String(r.refund_status)] ?? 'unknown', ...(Number.isNaN(at) ? {} : { at }),
    };
  }

  acknowledgement(ok: boolean, message: string) {
    // WeChat retries on a 4xx/5xx only; a 200 with FAIL would be taken as received
    return ok ? { status: 204, contentType: 'application/json; charset=utf-8', body: '' } : { status: 400, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ code: 'FAIL', message }) };
  }

  async downloadBill(account: PayAccount, day: string): Promise<Bill> {
    let info: { hash_type?: string; hash_value?: string; download_url?: string };
    try {
      info = (await this.client.call(account, 'GET', `/v3/bill/tradebill?bill_date=${enc(day)}&bill_type=ALL&tar_type=GZIP`)).data ?? {};
    } catch (error) {
      if (error instanceof WechatApiError && error.code === 'NO_STATEMENT_EXIST') return { day, rows: [] };
      throw error;
    }
    if (!info.download_url) throw new Error('WeChat Pay answered no download_url');
    const gz = await this.client.download(account, info.download_url);
    const plain = gunzipSync(gz);
    // which bytes WeChat hashes with tar_type=GZIP is not documented clearly: either must match
    const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');
    const expected = String(info.hash_value ?? '').toLowerCase();
    if (String(info.hash_type ?? 'SHA1').toUpperCase() !== 'SHA1' || (sha1(gz) !== expected && sha1(plain) !== expected)) throw new Error('WeChat Pay bill: SHA1 does not match');
    return { day, rows: parseWechatBill(plain.toString('utf8')) };
  }

  probe(account: PayAccount) {
    return probeWechatV3(this.client, account, this.now);
  }

  private async openNotification(account: PayAccount, rawBody: string, headers: Headers): Promise<{ event: string; resource: Record<string, unknown> }> {
    let keys = await this.client.keysFor(account);
    const serial = String(headers['wechatpay-serial'] ?? '');
    if (serial && !keys.has(serial)) keys = await this.client.keysFor(account, true).catch(() => keys);
    verifySigned(headers, rawBody, (s) => keys.get(s), this.now());
    let body: { event_type?: string; resource?: EncryptedResource };
    try {
      body = JSON.parse(rawBody) as typeof body;
    } catch {
      throw new GatewayVerifyError('body is not JSON');
    }
    if (!body.resource) throw new GatewayVerifyError('no resource');
    const plain = decryptResource(body.resource, account.secrets.apiV3Key);
    return { event: String(body.event_type ?? ''), resource: JSON.parse(plain) as Record<string, unknown> };
  }
}
