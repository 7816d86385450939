import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { randomHex } from '../../../../infra/random-hex.ts';
import { compiledOnce, compiledWrite } from '../../../../db/compiled-once.ts';
import { sharedWrite } from '../../../../db/shared-commit.ts';
import { payConfigPurpose } from '../config-secrets.ts';
import { openBookedPayment } from '../booked-payment.ts';
import { simulatorBill } from './bill.ts';
import { probeSimulator } from './probe.ts';
import { fetchDeliver, injectDeliver, type Deliver } from './deliver.ts';
import { SimulatorNotifier, type PaidPayment, type SimBody, type SimulatorOptions } from './notifier.ts';
import { SIM_PAGE_PATH, simulatorPageRoutes, type PageView, type PayOutcome } from './page.ts';
import {
  gatewayConfigOf, GatewayVerifyError, type BookedPayment, type CreatePayment, type GatewayConfig, type GatewayLog, type GatewayRegistry, type PaidNotification, type PaymentGateway,
  type PaymentState, type RefundState,
} from '../gateway.ts';

// The simulator gateway: behaves like WeChat Pay / Alipay without a merchant account.
// It keeps its own books (pay_sim_payment, pay_sim_refund — what a real gateway holds on its side), its
// code url opens the 支付模拟 page this product serves (/gateway/simulator/pay/<orderNo>), and a payment
// made there is told to the merchant by an asynchronous signed notification, retried until acknowledged
// and now and then sent twice (notifier.ts). Signature: HMAC-SHA256 over "<timestamp>\n<raw body>" with the 支付配置's
// partnerKey when set, else a key derived from the server's PAY_SECRET_KEY and the config id.

export const SIMULATOR = 'simulator';

// The statements of a purchase, built once (db/compiled-once.ts).
const paymentOf = compiledOnce((db, v: { orderNo: string }) => db.selectFrom('pay_sim_payment').selectAll().where('orderNo', '=', v.orderNo));
const payPayment = compiledWrite((db, v: { orderNo: string; transId: string; payTime: number }) => db
  .updateTable('pay_sim_payment').set({ status: 'paid', transId: v.transId, payTime: v.payTime }).where('orderNo', '=', v.orderNo).where('status', '=', 'open'));
/** 支付成功 on a page whose token named its 支付配置: the open, unexpired payment of that config paid, read back in the same statement. */
const payOpenPayment = compiledOnce((db, v: { orderNo: string; configId: number; transId: string; payTime: number }) => db
  .updateTable('pay_sim_payment').set({ status: 'paid', transId: v.transId, payTime: v.payTime })
  .where('orderNo', '=', v.orderNo).where('configId', '=', v.configId).where('status', '=', 'open').where('expireAt', '>', v.payTime)
  .returningAll());
/** Its first notify URL, the order number in the body (order/notify-routes.ts: the body-numbered route). */
export const SIM_NOTIFY_PATH = '/gateway/simulator/notify';
const WINDOW_MS = 300_000;

export class SimulatorGateway implements PaymentGateway {
  readonly name = SIMULATOR;

  readonly options: SimulatorOptions;
  private readonly notifier: SimulatorNotifier;

  constructor(options: Omit<SimulatorOptions, 'deliver'> & { deliver?: Deliver }) {
    this.options = { ...options, deliver: options.deliver ?? fetchDeliver };
    this.notifier = new SimulatorNotifier(this.options, { paymentWithConfig: (orderNo) => this.paymentWithConfig(orderNo), sign: (...args) => this.sign(...args) });
  }

  private readonly keys = new Map<string, KeyObject>();

  /**
   * A config's signing key, made once per (config, sealed partnerKey): opening or deriving it took an
   * AES or HMAC operation on each of a purchase's five signatures, and an HMAC with a key given as a
   * Buffer costs about five times one with a KeyObject (node 24).
   */
  private key(config: Pick<GatewayConfig, 'id' | 'partnerKey'>): KeyObject {
    const id = `${config.id}\n${config.partnerKey}`;
    let key = this.keys.get(id);
    if (!key) {
      key = createSecretKey(config.partnerKey
        ? Buffer.from(this.options.box.open(payConfigPurpose('partnerKey'), config.partnerKey), 'utf8')
        : createHmac('sha256', this.options.box.current.key).update(`simulator-notify:${config.id}`).digest());
      if (this.keys.size >= 1_000) this.keys.clear();
      this.keys.set(id, key);
    }
    return key;
  }

  /**
   * The page token: the code url cannot be guessed from the order number. It starts with the 支付配置's id
   * (`<configId>.<mac>`), so a press of 支付成功 is checked and paid with no read first (payOnPage); a token of
   * the mac alone (codes shown before 2026-11-27) is checked against the payment's stored config.
   */
  private pageToken(config: Pick<GatewayConfig, 'id' | 'partnerKey'>, orderNo: string): string {
    return `${config.id}.${this.pageMac(config, orderNo)}`;
  }

  private pageMac(config: Pick<GatewayConfig, 'id' | 'partnerKey'>, orderNo: string): string {
    return createHmac('sha256', this.key(config)).update(`page:${orderNo}`).digest('base64url').slice(0, 22);
  }

  /** Whether `token` is the page token of `orderNo` under `config` (either form). */
  private fitsToken(config: Pick<GatewayConfig, 'id' | 'partnerKey'>, orderNo: string, token: string): boolean {
    const expected = Buffer.from(token.includes('.') ? this.pageToken(config, orderNo) : this.pageMac(config, orderNo));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  async createPayment(config: GatewayConfig, input: CreatePayment): Promise<{ codeUrl: string }> {
    const { codeUrl, payment } = this.paymentInDatabase(config, input);
    await openBookedPayment(this.options.db, payment);
    return { codeUrl };
  }

  /** Its books are in the product's database: the order module writes the payment with the order (order/insert-sale.ts). */
  paymentInDatabase(config: GatewayConfig, input: CreatePayment): { codeUrl: string; payment: BookedPayment } {
    const payment = {
      orderNo: input.orderNo, configId: config.id, amount: input.amount, mchId: config.partner, appId: config.appid, subject: input.subject.slice(0, 128),
      notifyUrl: input.notifyUrl, expireAt: input.expireAt, createTime: this.options.now(),
    };
    const origin = new URL(input.notifyUrl).origin;
    return { codeUrl: `${origin}${SIM_PAGE_PATH}${encodeURIComponent(input.orderNo)}?t=${this.pageToken(config, input.orderNo)}`, payment };
  }

  async query(_config: GatewayConfig, orderNo: string): Promise<PaymentState> {
    const row = (await paymentOf(this.options.db, { orderNo }))[0];
    if (!row) return { state: 'unknown' };
    if (row.status === 'paid') return { state: 'paid', transId: row.transId, amount: row.amount, payTime: Number(row.payTime) };
    return { state: row.status === 'closed' ? 'closed' : 'unpaid' };
  }

  async close(config: GatewayConfig, orderNo: string): Promise<PaymentState> {
    await this.options.db.updateTable('pay_sim_payment').set({ status: 'closed' }).where('orderNo', '=', orderNo).where('status', '=', 'open').execute();
    const state = await this.query(config, orderNo);
    return state.state === 'unknown' ? { state: 'closed' } : state; // never created here: nothing can be paid
  }

  async refund(_config: GatewayConfig, input: { orderNo: string; refundNo: string; amount: number }): Promise<RefundState> {
    const db = this.options.db;
    return db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('pay_sim_refund').selectAll().where('refundNo', '=', input.refundNo).executeTakeFirst();
      if (existing) return { state: existing.status as RefundState['state'] };
      const payment = await trx.selectFrom('pay_sim_payment').selectAll().where('orderNo', '=', input.orderNo).executeTakeFirst();
      const refunded = await trx.selectFrom('pay_sim_refund').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
        .where('orderNo', '=', input.orderNo).where('status', '=', 'success').executeTakeFirstOrThrow();
      let status: 'success' | 'failed' = 'success';
      let reason: string | undefined;
      if (this.options.refundFails) [status, reason] = ['failed', 'simulated failure'];
      else if (!payment || payment.status !== 'paid') [status, reason] = ['failed', 'not paid'];
      else if (input.amount <= 0 || Number(refunded.total) + input.amount > payment.amount) [status, reason] = ['failed', 'amount exceeds refundable'];
      await trx.insertInto('pay_sim_refund').values({ refundNo: input.refundNo, orderNo: input.orderNo, amount: input.amount, status, createTime: this.options.now() }).execute();
      return reason ? { state: status, reason } : { state: status };
    });
  }

  async queryRefund(_config: GatewayConfig, refundNo: string): Promise<RefundState> {
    const row = await this.options.db.selectFrom('pay_sim_refund').select('status').where('refundNo', '=', refundNo).executeTakeFirst();
    return { state: (row?.status as RefundState['state']) ?? 'unknown' };
  }

  downloadBill(config: GatewayConfig, day: string) {
    return simulatorBill(this.options.db, config.id, day);
  }

  probe() {
    return probeSimulator();
  }

  orderNoOf(rawBody: string): string | undefined {
    try {
      const body = JSON.parse(rawBody) as Partial<SimBody>;
      return typeof body.orderNo === 'string' ? body.orderNo : undefined;
    } catch {
      return undefined;
    }
  }

  verifyNotification(config: GatewayConfig, rawBody: string, headers: Record<string, string | string[] | undefined>): PaidNotification {
    const timestamp = String(headers['x-sim-timestamp'] ?? '');
    const signature = String(headers['x-sim-signature'] ?? '');
    if (!/^\d{10,16}$/.test(timestamp) || Math.abs(this.options.now() - Number(timestamp)) > WINDOW_MS) throw new GatewayVerifyError('stale or missing timestamp');
    const expected = createHmac('sha256', this.key(config)).update(`${timestamp}\n${rawBody}`).digest();
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new GatewayVerifyError('bad signature');
    const body = JSON.parse(rawBody) as SimBody;
    if (typeof body.orderNo !== 'string' || typeof body.transId !== 'string' || !Number.isSafeInteger(body.amount)) throw new GatewayVerifyError('bad body');
    return { orderNo: body.orderNo, transId: body.transId, amount: body.amount, mchId: String(body.mchId ?? ''), appId: String(body.appId ?? ''), payTime: Number(body.payTime) };
  }

  /** The notification signature: hex HMAC-SHA256 over "<timestamp>\n<raw body>". */
  sign(config: Pick<GatewayConfig, 'id' | 'partnerKey'>, timestamp: string, rawBody: string): string {
    return createHmac('sha256', this.key(config)).update(`${timestamp}\n${rawBody}`).digest('hex');
  }

  acknowledgement(ok: boolean, message: string) {
    return { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ code: ok ? 'SUCCESS' : 'FAIL', message }) };
  }

  // ---- the 支付模拟 page's side ----

  /** The 支付模拟 page; and its notifications go to this server itself, through the same routes and hooks. */
  routes(app: FastifyInstance): void {
    simulatorPageRoutes(app, this);
    this.options.deliver = injectDeliver(app);
  }

  /** The payment the page shows, when the token fits. */
  async pageView(orderNo: string, token: string): Promise<PageView | undefined> {
    return (await this.paymentOnPage(orderNo, token))?.view;
  }

  /** pageView, with the payment's 支付配置. */
  private async paymentOnPage(orderNo: string, token: string) {
    const { row, config } = await this.paymentWithConfig(orderNo);
    if (!row || !config || !this.fitsToken(config, orderNo, token)) return undefined;
    return { view: { ...row, expired: row.status === 'open' && row.expireAt <= this.options.now() }, config };
  }

  /** The customer pressed 支付成功: open → paid (once), then the notification goes out in the background. */
  async pay(orderNo: string, token: string): Promise<PayOutcome> {
    return (await this.payOnPage(orderNo, token)).outcome;
  }

  /** pay(), answering also the payment the page showed before (its amount and goods, for the page after). */
  async payOnPage(orderNo: string, token: string): Promise<{ outcome: PayOutcome; view?: PageView }> {
    const paidAtOnce = await this.payByToken(orderNo, token);
    if (paidAtOnce) return paidAtOnce;
    const found = await this.paymentOnPage(orderNo, token);
    if (!found) return { outcome: 'missing' };
    const { view, config } = found;
    if (view.status === 'paid') {
      // a payment whose answer was lost (the database cut after its commit: the page failed before notify)
      // is told again, as a gateway does until the merchant acknowledges
      if (view.acknowledged === 0) this.notify(orderNo);
      return { outcome: 'alreadyPaid', view };
    }
    if (view.status === 'closed') return { outcome: 'closed', view };
    if (view.expired) return { outcome: 'expired', view };
    const now = this.options.now();
    const transId = `SIM${now}${randomHex(5)}`;
    const moved = await sharedWrite(this.options.db, (db) => payPayment(db, { orderNo, transId, payTime: now }));
    if (moved !== 1) return { outcome: (await this.query({} as GatewayConfig, orderNo)).state === 'paid' ? 'alreadyPaid' : 'closed', view };
    // what the first attempt would read back: the row just paid (a paid payment changes no more) and its config
    this.notify(orderNo, { row: { ...view, status: 'paid', transId, payTime: now }, config });
    return { outcome: 'paid', view };
  }

  /**
   * 支付成功 with a token that names its 支付配置: checked under that config, then the payment paid by one
   * statement that holds it to that config, open and unexpired. Undefined when that did not pay it (an old
   * token, a payment paid, closed or expired already, a token that does not fit): payOnPage reads the payment
   * to answer which.
   */
  private async payByToken(orderNo: string, token: string): Promise<{ outcome: 'paid'; view: PageView } | undefined> {
    const configId = /^([1-9]\d{0,9})\./.exec(token)?.[1];
    const config = configId === undefined ? undefined : await this.configOf(Number(configId));
    if (!config || !this.fitsToken(config, orderNo, token)) return undefined;
    const now = this.options.now();
    const [row] = await sharedWrite(this.options.db, (db) => payOpenPayment(db, { orderNo, configId: config.id, transId: `SIM${now}${randomHex(5)}`, payTime: now }));
    if (!row) return undefined;
    this.notify(orderNo, { row, config });
    return { outcome: 'paid', view: { ...row, expired: false } };
  }

  private async configOf(id: number): Promise<GatewayConfig | undefined> {
    return this.options.configOf ? this.options.configOf(id) : gatewayConfigOf(this.options.db, id);
  }

  /** A payment and its 支付配置 as stored (either may be missing). */
  private async paymentWithConfig(orderNo: string): Promise<Partial<PaidPayment>> {
    const row = (await paymentOf(this.options.db, { orderNo }))[0];
    return { row, config: row && (await this.configOf(row.configId)) };
  }

  /** Sends the paid notification of an order (again): asynchronous, retried until acknowledged (notifier.ts). */
  notify(orderNo: string, paid?: PaidPayment): void {
    this.notifier.notify(orderNo, paid);
  }

  /** After a start (one process of several): the notifications a stop or crash left unacknowledged go out again. */
  async start(log: GatewayLog): Promise<void> {
    const n = await this.resume();
    if (n > 0) log.info(`simulator gateway: ${n} unacknowledged paid notifications sent again`);
  }

  /** Sends again the paid notifications of the last day no merchant acknowledged. Answers how many. */
  resume(withinMs?: number): Promise<number> {
    return this.notifier.resume(withinMs);
  }

  /** Waits for the notifications under way (tests, shutdown). */
  settled(): Promise<void> {
    return this.notifier.settled();
  }

  stop(): Promise<void> {
    return this.notifier.stop();
  }
}

/** The registry's simulator (tests and fixtures that drive it directly). */
export function simulatorOf(gateways: GatewayRegistry): SimulatorGateway {
  const simulator = gateways.get(SIMULATOR);
  if (!(simulator instanceof SimulatorGateway)) throw new Error('no simulator gateway in the registry');
  return simulator;
}

