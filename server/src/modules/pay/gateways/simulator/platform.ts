import type { FastifyInstance } from 'fastify';
import type { Insertable, QueryCreator } from 'kysely';
import { randomHex } from '../../../../infra/random-hex.ts';
import { compiledOnce, compiledWrite } from '../../../../db/compiled-once.ts';
import { GroupWrite } from '../../../../db/group-write.ts';
import type { Database } from '../../../../db/schema.ts';
import { sharedWrite } from '../../../../db/shared-commit.ts';
import { simulatorBill } from './bill.ts';
import { injectDeliver, fetchDeliver, type Deliver } from './deliver.ts';
import { SimulatorKeys } from './keys.ts';
import { SimulatorNotifier, type PaidPayment, type SimulatorOptions } from './notifier.ts';
import { SIM_PAGE_PATH, simulatorPageRoutes, type PageView, type PayOutcome } from './page.ts';
import { gatewayConfigOf, type CreatePayment, type GatewayConfig, type PaymentState, type RefundState } from '../gateway.ts';

// The simulated payment platform: the simulator gateway's remote side (gateway.ts is its client), run in
// this process. It behaves like WeChat Pay / Alipay without a merchant account: it keeps its own books
// (pay_sim_payment, pay_sim_refund — what a real platform holds on its side), its code url opens the
// 支付模拟 page it serves (/gateway/simulator/pay/<orderNo>), and a payment made there is told to the merchant
// by an asynchronous signed notification, retried until acknowledged and now and then sent twice
// (notifier.ts). Its routes are registered by its own plugin and its start / stop by its own background
// service (platform-service.ts), never by the gateway interface.

type NewPayment = Insertable<Database['pay_sim_payment']>;
const newPayments = (db: QueryCreator<Database>, payments: NewPayment[]) => db.insertInto('pay_sim_payment').values(payments).onConflict((oc) => oc.column('orderNo').doNothing());

// The statements of a purchase, built once (db/compiled-once.ts).
const openPayment = compiledWrite((db, v: NewPayment) => newPayments(db, [{
  orderNo: v.orderNo, configId: v.configId, amount: v.amount, mchId: v.mchId, appId: v.appId, subject: v.subject,
  notifyUrl: v.notifyUrl, status: v.status, expireAt: v.expireAt, createTime: v.createTime, payTime: v.payTime,
}]));
const paymentOf = compiledOnce((db, v: { orderNo: string }) => db.selectFrom('pay_sim_payment').selectAll().where('orderNo', '=', v.orderNo));
const payPayment = compiledWrite((db, v: { orderNo: string; transId: string; payTime: number }) => db
  .updateTable('pay_sim_payment').set({ status: 'paid', transId: v.transId, payTime: v.payTime }).where('orderNo', '=', v.orderNo).where('status', '=', 'open'));
/** 支付成功 on a page whose token named its 支付配置: the open, unexpired payment of that config paid, read back in the same statement. */
const payOpenPayment = compiledOnce((db, v: { orderNo: string; configId: number; transId: string; payTime: number }) => db
  .updateTable('pay_sim_payment').set({ status: 'paid', transId: v.transId, payTime: v.payTime })
  .where('orderNo', '=', v.orderNo).where('configId', '=', v.configId).where('status', '=', 'open').where('expireAt', '>', v.payTime)
  .returningAll());

/** Where its start tells what it did. */
export type PlatformLog = { info: (msg: string) => void };

export class SimulatedPlatform {
  readonly options: SimulatorOptions;
  private readonly notifier: SimulatorNotifier;
  private readonly keys: SimulatorKeys;
  /**
   * New payments are written together (one statement and one commit for the purchases of a turn), as a
   * platform takes many merchants' calls at once; each call is answered once its row is committed.
   */
  private readonly opened: GroupWrite<NewPayment, void>;

  constructor(options: Omit<SimulatorOptions, 'deliver'> & { deliver?: Deliver }) {
    this.options = { ...options, deliver: options.deliver ?? fetchDeliver };
    this.keys = new SimulatorKeys(options.box);
    const db = options.db;
    this.opened = new GroupWrite<NewPayment, void>(async (payments) => {
      await sharedWrite(db, async (q) => void (payments.length === 1 ? await openPayment(q, payments[0]!) : await q.executeQuery(newPayments(q, payments).compile())));
      return payments.map(() => undefined);
    });
    this.notifier = new SimulatorNotifier(this.options, { paymentWithConfig: (orderNo) => this.paymentWithConfig(orderNo), sign: (...args) => this.sign(...args) });
  }

  /**
   * The page token: the code url cannot be guessed from the order number. It starts with the 支付配置's id
   * (`<configId>.<mac>`), so a press of 支付成功 is checked and paid with no read first (payOnPage); a token of
   * the mac alone (codes shown before 2026-11-27) is checked against the payment's stored config.
   */
  private pageToken(config: Pick<GatewayConfig, 'id' | 'partnerKey'>, orderNo: string): string {
    return `${config.id}.${this.keys.pageMac(config, orderNo)}`;
  }

  /** Whether `token` is the page token of `orderNo` under `config` (either form). */
  private fitsToken(config: Pick<GatewayConfig, 'id' | 'partnerKey'>, orderNo: string, token: string): boolean {
    return this.keys.same(token.includes('.') ? this.pageToken(config, orderNo) : this.keys.pageMac(config, orderNo), token);
  }

  // ---- what its client (gateway.ts) calls, as a merchant calls a real platform ----

  /** A new payment in its books (its own write, as a remote platform's); answers the code url of its page. */
  async createPayment(config: GatewayConfig, input: CreatePayment): Promise<{ codeUrl: string }> {
    await this.opened.add({
      orderNo: input.orderNo, configId: config.id, amount: input.amount, mchId: config.partner, appId: config.appid, subject: input.subject.slice(0, 128),
      notifyUrl: input.notifyUrl, status: 'open', expireAt: input.expireAt, createTime: this.options.now(), payTime: null,
    });
    const origin = new URL(input.notifyUrl).origin;
    return { codeUrl: `${origin}${SIM_PAGE_PATH}${encodeURIComponent(input.orderNo)}?t=${this.pageToken(config, input.orderNo)}` };
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

  bill(config: GatewayConfig, day: string) {
    return simulatorBill(this.options.db, config.id, day);
  }

  /** The notification signature (keys.ts). */
  sign(config: Pick<GatewayConfig, 'id' | 'partnerKey'>, timestamp: string, rawBody: string): string {
    return this.keys.sign(config, timestamp, rawBody);
  }

  // ---- the 支付模拟 page's side ----

  /** The 支付模拟 page (its plugin, platform-service.ts); and its notifications go to this server itself, through the same routes and hooks. */
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

  /** After a start (one process of several: its background service): the notifications a stop or crash left unacknowledged go out again. */
  async start(log: PlatformLog): Promise<void> {
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
