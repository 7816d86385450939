import type { Journal, JournalMessage } from './journal.ts';
import { LIMIT_EXCEEDED, outcomeOfMessage, type Outcome } from './message-state.ts';
import { PhoneUnreachable, type SmsGateClient } from './smsgate-client.ts';
import type { PhoneStats } from './status.ts';

// Follows every message one device handed to its phone until the server knows how it ended: sent or
// failed (reported under its batch id), then, for a sent one, delivered or not (a delivery report, once
// per number however many per-part events the phone sends). States come from webhooks when there are
// any and from polling GET /messages/{id} always, less often with webhooks: polling settles whatever a
// webhook missed. A message still waiting in the phone when its lease is about to end is cancelled, so
// the number the lease gives back to another device is not also sent later by this phone.

export type ReportEntry = { id: number; status: 'sent' | 'failed'; reason?: string };
export type DeliveryEntry = { id: number; status: 'delivered' | 'undelivered'; reason?: string };

/** Where results go: the device protocol's report and delivery calls (retried until answered). */
export type ResultSink = {
  report: (batchId: string, results: ReportEntry[]) => Promise<void>;
  delivery: (results: DeliveryEntry[]) => Promise<void>;
};

export type FollowTiming = {
  /** How often a message still in the phone is asked about. */
  pollMs: number;
  /** How often a sent message is asked about its delivery. */
  deliveryPollMs: number;
  /** Delivery outcomes are followed this long after the send, then given up. */
  deliveryFollowMs: number;
};

type Tracked = {
  message: JournalMessage;
  nextPollAt: number;
  /** A sent/failed result waits in the report queue. */
  reportQueued: boolean;
  deliveryQueued: boolean;
};

const MAX_REPORT = 1000;
const GETS_PER_TICK = 100;

export class MessageFollower {
  private readonly tracked = new Map<string, Tracked>();
  private readonly reports = new Map<string, Map<string, ReportEntry>>();
  private readonly deliveries = new Map<string, DeliveryEntry>();
  private readonly phone: SmsGateClient;
  private readonly journal: Journal;
  private readonly sink: ResultSink;
  private readonly stats: PhoneStats;
  private readonly timing: FollowTiming;
  private readonly onLimitExceeded: () => void;

  constructor(deps: { phone: SmsGateClient; journal: Journal; sink: ResultSink; stats: PhoneStats; timing: FollowTiming; onLimitExceeded: () => void }) {
    this.phone = deps.phone;
    this.journal = deps.journal;
    this.sink = deps.sink;
    this.stats = deps.stats;
    this.timing = deps.timing;
    this.onLimitExceeded = deps.onLimitExceeded;
  }

  /** Starts following a journaled message; `known` is what the phone already said (its POST or 409 answer). */
  track(journaled: JournalMessage, known?: Outcome, now = Date.now()): void {
    // The journal's own record, so what the journal learns (reported, dropped) is what the follower sees.
    const message = this.journal.messages.get(journaled.msgId) ?? journaled;
    const tracked: Tracked = { message, nextPollAt: now + this.timing.pollMs, reportQueued: false, deliveryQueued: false };
    if (message.reported === 'sent') tracked.nextPollAt = now;
    this.tracked.set(message.msgId, tracked);
    if (known) this.apply(message.msgId, known, now);
  }

  has(msgId: string): boolean {
    return this.tracked.has(msgId);
  }

  /** Messages of the batch (all batches when none named) whose sent/failed the server has not had yet. */
  unsettled(batchId?: string): number {
    let n = 0;
    for (const t of this.tracked.values()) {
      if ((batchId === undefined || t.message.batchId === batchId) && t.message.reported === undefined && !t.message.dropped) n += 1;
    }
    return n;
  }

  /** Messages still in the phone (neither sent nor failed yet). */
  waiting(): number {
    let n = 0;
    for (const t of this.tracked.values()) if (t.message.reported === undefined && !t.message.dropped && !t.reportQueued) n += 1;
    return n;
  }

  /** What the phone said about one message (a poll or a webhook). Repeats and out-of-order news change nothing. */
  apply(msgId: string, outcome: Outcome, now = Date.now()): void {
    const t = this.tracked.get(msgId);
    if (!t || t.message.dropped) return;
    const { message } = t;
    const reported = message.reported ?? (t.reportQueued ? this.queuedStatus(t) : undefined);
    if (outcome.kind === 'waiting') return;
    if (outcome.kind === 'cancelled') {
      if (reported === undefined) this.drop(t);
      return;
    }
    if (message.itemId === null) {
      // The task's test phone: nothing to report; the journal only needs to know it left the phone.
      if (message.reported === undefined) {
        this.journal.markReported(msgId, outcome.kind === 'failed' ? 'failed' : 'sent', now);
        this.tracked.delete(msgId);
      }
      return;
    }
    if (reported === undefined) {
      if (outcome.kind === 'failed') {
        this.queueReport(t, { id: message.itemId, status: 'failed', reason: outcome.reason });
        this.stats.failed += 1;
        if (outcome.reason.includes(LIMIT_EXCEEDED)) this.onLimitExceeded();
        return;
      }
      this.queueReport(t, { id: message.itemId, status: 'sent' });
      this.stats.sent += 1;
    } else if (reported === 'failed') {
      return;
    }
    if (outcome.kind === 'sent') {
      t.nextPollAt = now + this.timing.deliveryPollMs;
      return;
    }
    if (t.deliveryQueued || message.deliveryDone) return;
    t.deliveryQueued = true;
    // A send failure heard after the number was reported sent (a part of a long text) is as good as not delivered.
    const entry: DeliveryEntry = outcome.kind === 'delivered'
      ? { id: message.itemId, status: 'delivered' }
      : { id: message.itemId, status: 'undelivered', reason: outcome.reason };
    if (entry.status === 'delivered') this.stats.delivered += 1;
    else this.stats.undelivered += 1;
    this.deliveries.set(msgId, entry);
  }

  /** Asks the phone about messages whose turn has come, and cancels those still waiting when their lease is about to end. */
  async poll(now = Date.now()): Promise<void> {
    let asked = 0;
    for (const t of [...this.tracked.values()]) {
      if (asked >= GETS_PER_TICK) break;
      const { message } = t;
      if (message.dropped || t.reportQueued || t.deliveryQueued) continue;
      if (message.reported === 'sent' && now - (message.reportedAt ?? now) > this.timing.deliveryFollowMs) {
        this.journal.markDeliveryDone(message.msgId);
        this.tracked.delete(message.msgId);
        continue;
      }
      if (now < t.nextPollAt) continue;
      asked += 1;
      try {
        const state = await this.phone.message(message.msgId);
        if (state === null) {
          // The phone never took it (the bridge died before or during the POST): the lease brings the number back.
          if (message.reported === undefined) this.drop(t);
          else this.finishDelivery(t);
          continue;
        }
        const outcome = outcomeOfMessage(state);
        if (outcome.kind === 'waiting' && message.reported === undefined && this.leaseEnding(message, now) && state.state === 'Pending') {
          if (await this.phone.cancel(message.msgId)) {
            const after = await this.phone.message(message.msgId);
            this.apply(message.msgId, after ? outcomeOfMessage(after) : { kind: 'cancelled' }, now);
            if (t.message.dropped) this.stats.cancelled += 1;
          }
        } else {
          this.apply(message.msgId, outcome, now);
        }
        if (message.reported === undefined && !t.reportQueued) t.nextPollAt = now + this.timing.pollMs;
        else if (!t.deliveryQueued) t.nextPollAt = now + this.timing.deliveryPollMs;
      } catch (error) {
        if (error instanceof PhoneUnreachable) return;
        t.nextPollAt = now + this.timing.pollMs;
        this.stats.lastError = (error as Error).message;
      }
    }
  }

  /** Sends what was queued: reports first (a delivery applies only to a number already sent), then deliveries. */
  flush(): Promise<void> {
    // One flush at a time: a second caller waits for the one running, then flushes what came meanwhile.
    const run = this.flushing.then(() => this.flushOnce());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private flushing: Promise<void> = Promise.resolve();

  private async flushOnce(): Promise<void> {
    for (const [batchId, queue] of [...this.reports]) {
      while (queue.size > 0) {
        const chunk = [...queue].slice(0, MAX_REPORT);
        await this.sink.report(batchId, chunk.map(([, entry]) => entry));
        const at = Date.now();
        for (const [msgId, entry] of chunk) {
          queue.delete(msgId);
          this.journal.markReported(msgId, entry.status, at);
          const t = this.tracked.get(msgId);
          if (!t) continue;
          t.reportQueued = false;
          if (entry.status === 'failed') this.tracked.delete(msgId);
        }
      }
      this.reports.delete(batchId);
    }
    // A delivery goes only after the server has the number's sent report (else it would be ignored).
    for (;;) {
      const chunk = [...this.deliveries].filter(([msgId]) => this.tracked.get(msgId)?.message.reported === 'sent').slice(0, MAX_REPORT);
      if (chunk.length === 0) break;
      await this.sink.delivery(chunk.map(([, entry]) => entry));
      for (const [msgId] of chunk) {
        this.deliveries.delete(msgId);
        const t = this.tracked.get(msgId);
        if (t) this.finishDelivery(t);
      }
    }
  }

  private queuedStatus(t: Tracked): 'sent' | 'failed' | undefined {
    return this.reports.get(t.message.batchId)?.get(t.message.msgId)?.status;
  }

  private queueReport(t: Tracked, entry: ReportEntry): void {
    t.reportQueued = true;
    let queue = this.reports.get(t.message.batchId);
    if (!queue) this.reports.set(t.message.batchId, (queue = new Map()));
    queue.set(t.message.msgId, entry);
  }

  private drop(t: Tracked): void {
    this.journal.markDropped(t.message.msgId);
    this.tracked.delete(t.message.msgId);
  }

  private finishDelivery(t: Tracked): void {
    this.journal.markDeliveryDone(t.message.msgId);
    this.tracked.delete(t.message.msgId);
  }

  private leaseEnding(message: JournalMessage, now: number): boolean {
    const batch = this.journal.batches.get(message.batchId);
    if (!batch) return true;
    const margin = Math.min(10_000, (batch.leaseSeconds * 1000) / 5);
    return now >= batch.leaseUntil - margin;
  }
}
