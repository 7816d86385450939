import { sql, type Kysely, type Selectable } from 'kysely';
import { dialectOf } from '../../../../db/dialect.ts';
import { GroupWrite } from '../../../../db/group-write.ts';
import { sharedWrite } from '../../../../db/shared-commit.ts';
import type { Database } from '../../../../db/schema.ts';
import { randomHex } from '../../../../infra/random-hex.ts';
import type { SecretBox } from '../../../../infra/secret-box.ts';
import type { GatewayConfig } from '../gateway.ts';
import type { Deliver } from './deliver.ts';

// The simulated platform's paid notifications (platform.ts): asynchronous, signed, retried until the merchant
// acknowledges, now and then sent twice, and sent again after a start when never acknowledged.

export type SimulatorOptions = {
  db: Kysely<Database>;
  box: SecretBox;
  now: () => number;
  /** Sends one notification; true when the merchant acknowledged it (by HTTP until the platform's routes point it at this server itself). */
  deliver: Deliver;
  /** Probability an attempt is lost on the way (tests, demos of retries). */
  failRate?: number;
  /** Probability an acknowledged notification is sent once more. */
  duplicateRate?: number;
  /** Before the first attempt. */
  delayMs?: number;
  /** Pauses between attempts; the number of retries is its length. */
  retryDelaysMs?: number[];
  /** Where its 支付配置 come from (the server's cache of them, gateway/pay-account-cache.ts); read from pay_config without it. */
  configOf?: (id: number) => Promise<GatewayConfig | undefined>;
  /** Refunds answer failed (tests). */
  refundFails?: boolean;
  random?: () => number;
  onError?: (error: unknown) => void;
};

export type PaidPayment = { row: Selectable<Database['pay_sim_payment']>; config: GatewayConfig };
export type SimBody = { orderNo: string; transId: string; amount: number; mchId: string; appId: string; payTime: number; notifyId: string };

/** What the notifier reads of the platform: a payment with its config, and the signature. */
type Books = {
  paymentWithConfig(orderNo: string): Promise<Partial<PaidPayment>>;
  sign(config: Pick<GatewayConfig, 'id' | 'partnerKey'>, timestamp: string, rawBody: string): string;
};

export class SimulatorNotifier {
  private readonly pending = new Set<Promise<void>>();
  private stopped = false;
  /**
   * Acknowledged notifications are marked together (one statement, one commit for all of a turn's).
   * Losing a mark in a crash only sends that notification once more after the start (resume), which
   * the merchant acknowledges as a repeat.
   */
  private readonly acknowledged: GroupWrite<string, void>;

  private readonly options: SimulatorOptions;
  private readonly books: Books;

  /** options: the platform's own object (tests and its routes change it in place). */
  constructor(options: SimulatorOptions, books: Books) {
    this.options = options;
    this.books = books;
    const db = options.db;
    const mark = dialectOf(db) === 'postgres'
      ? (orderNos: string[]) => sql`update "pay_sim_payment" set "acknowledged" = 1 where "orderNo" = any(${orderNos}::varchar[])`
      : (orderNos: string[]) => sql`update "pay_sim_payment" set "acknowledged" = 1 where "orderNo" in (select value from json_each(${JSON.stringify(orderNos)}))`;
    this.acknowledged = new GroupWrite<string, void>(async (orderNos) => {
      await sharedWrite(db, (q) => mark([...new Set(orderNos)]).execute(q));
      return orderNos.map(() => undefined);
    });
  }

  /**
   * Sends the paid notification of an order (again): asynchronous, retried until acknowledged. `paid`: the
   * payment and its config as they are now, for the first attempt (the others read them again).
   */
  notify(orderNo: string, paid?: PaidPayment): void {
    const job = this.deliverWithRetries(orderNo, paid).catch((error) => this.options.onError?.(error));
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
  }

  private async deliverWithRetries(orderNo: string, paid?: PaidPayment): Promise<void> {
    const random = this.options.random ?? Math.random;
    const retries = this.options.retryDelaysMs ?? [1_000, 2_000, 5_000, 15_000, 30_000, 60_000];
    if (this.options.delayMs) await sleep(this.options.delayMs);
    for (let attempt = 0; attempt <= retries.length && !this.stopped; attempt++) {
      if (attempt > 0) await sleep(retries[attempt - 1]!);
      let current: Partial<PaidPayment>;
      try {
        current = attempt === 0 && paid ? paid : await this.books.paymentWithConfig(orderNo);
      } catch (error) {
        this.options.onError?.(error); // the database away: the next attempt reads again
        continue;
      }
      const { row, config } = current;
      if (!row || !config || row.status !== 'paid') return;
      const body: SimBody = { orderNo, transId: row.transId, amount: row.amount, mchId: row.mchId, appId: row.appId, payTime: Number(row.payTime), notifyId: randomHex(8).toLowerCase() };
      const raw = JSON.stringify(body);
      const timestamp = String(this.options.now());
      const signature = this.books.sign(config, timestamp, raw);
      const headers = { 'content-type': 'application/json', 'x-sim-timestamp': timestamp, 'x-sim-signature': signature };
      if (random() < (this.options.failRate ?? 0)) continue; // lost on the way
      let acknowledged = false;
      try {
        acknowledged = await this.options.deliver(row.notifyUrl, raw, headers);
      } catch (error) {
        this.options.onError?.(error);
      }
      if (acknowledged) {
        await this.acknowledged.add(orderNo);
        if (random() < (this.options.duplicateRate ?? 0.05)) await this.options.deliver(row.notifyUrl, raw, headers).catch(() => false);
        return;
      }
    }
  }

  /** After a start: sends again the paid notifications of the last day no merchant acknowledged. Answers how many. */
  async resume(withinMs = 86_400_000): Promise<number> {
    const rows = await this.options.db.selectFrom('pay_sim_payment').select('orderNo')
      .where('status', '=', 'paid').where('acknowledged', '=', 0).where('payTime', '>', this.options.now() - withinMs).execute();
    for (const row of rows) this.notify(row.orderNo);
    return rows.length;
  }

  /** Waits for the notifications under way (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.settled();
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());
