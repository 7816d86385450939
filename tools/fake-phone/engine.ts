import type { PhoneBooks, SendEntry } from './books.ts';
import type { MessageStore, StoredMessage } from './messages.ts';
import type { Pace } from './pace.ts';
import { LIMIT_PERIODS, type PhoneSettings } from './settings.ts';
import { plausibleNumber } from './validate.ts';
import type { WebhookEvent } from './webhooks.ts';

// The phone's sending loop (MessagesService.sendPendingMessages): one message at a time, picked by the
// processing order; the limit applied before it; each recipient handed to Android (Processed), then Sent or
// Failed by the radio, then Delivered or Failed by the carrier's report. The app never resends by itself (§1).

export type Outcomes = {
  /** share of recipients the radio refuses (Send result: RESULT_ERROR_GENERIC_FAILURE) */
  failRate: number;
  /** share of sent recipients the carrier reports undelivered */
  undeliveredRate: number;
  /** share of sent recipients who reply; unsubscribeShare of those replies are 退订 keywords */
  replyRate: number;
  unsubscribeShare: number;
  /** §9: by default the app's payloads carry no sender or simNumber */
  withSender: boolean;
};

export type EngineParts = {
  store: MessageStore; books: PhoneBooks; pace: Pace; settings: PhoneSettings; outcomes: Outcomes;
  sims: { simNumber: number; phoneNumber: string }[];
  emit: (event: WebhookEvent, payload: Record<string, unknown>) => void;
  reply: (sender: string) => void;
};

// A real phone's times (ms), scaled by the pace's speed
const PICK_UP = [200, 600];
const RADIO = [800, 3000];
const REPORT = [2000, 10_000];
const INTERVAL = [300, 1200];
const REPLY_AFTER = [5000, 60_000];

// the app's error strings (MessagesService.processStateIntent)
export const SEND_FAILED = 'Send result: RESULT_ERROR_GENERIC_FAILURE';
export const LIMIT_EXCEEDED = 'Send result: RESULT_ERROR_LIMIT_EXCEEDED';
export const UNDELIVERED = 'Delivery result from SC +8613800100500: 64';

export class SendingLoop {
  /** tests: messages stay Pending until release() (to queue several and see the processing order) */
  held = false;
  /** Android's outgoing-SMS check refuses every send (§3: RESULT_ERROR_LIMIT_EXCEEDED) */
  limitExceeded = false;
  private running = false;
  private readonly processedAt: number[] = [];

  private readonly p: EngineParts;

  constructor(parts: EngineParts) {
    this.p = parts;
  }

  kick(): void {
    if (this.running || this.held || this.p.pace.stopped) return;
    const next = this.p.store.nextPending(this.p.settings.messages.processing_order, Date.now());
    if (!next) return;
    this.running = true;
    void this.p.pace.track(this.process(next)).finally(() => {
      this.running = false;
      this.kick();
    });
  }

  private async process(m: StoredMessage): Promise<void> {
    const { pace, store } = this.p;
    await pace.wait(pace.between(PICK_UP[0], PICK_UP[1]));
    await this.applyLimit();
    // picked again: it may have been cancelled, or held, meanwhile
    if (this.held || m.recipients.some((r) => r.state !== 'Pending')) return;
    if (m.validUntil !== null && m.validUntil < Date.now()) {
      store.setState(m, null, 'Failed', 'TTL expired');
      for (const r of m.recipients) this.failed(m, r.phoneNumber, 'TTL expired', 1);
      return;
    }
    const sim = this.simFor(m);
    this.processedAt.push(Date.now());
    const entries = m.recipients.map((r) => {
      const entry: SendEntry = { messageId: m.id, recipient: r.phoneNumber, text: m.text, parts: m.parts.length, simNumber: sim, at: Date.now(), state: 'Processed' };
      this.p.books.sends.push(entry);
      return entry;
    });
    store.setState(m, null, 'Processed');
    await Promise.all(entries.map((e) => this.radio(m, e)));
    const { send_interval_min: min, send_interval_max: max } = this.p.settings.messages;
    await pace.wait(min !== null && max !== null ? pace.between(min * 1000, max * 1000) : pace.between(INTERVAL[0], INTERVAL[1]));
  }

  /** The radio's answer for one recipient; the carrier's report follows in the background. */
  private async radio(m: StoredMessage, e: SendEntry): Promise<void> {
    const { pace, outcomes } = this.p;
    await pace.wait(pace.between(RADIO[0], RADIO[1]));
    const error = !m.skipPhoneValidation && !plausibleNumber(e.recipient) ? 'sendSMS: Invalid phone number'
      : this.limitExceeded ? LIMIT_EXCEEDED
        : this.p.sims.every((s) => s.simNumber !== e.simNumber) ? `Can't send message: SIM ${e.simNumber} not found`
          : pace.chance(outcomes.failRate) ? SEND_FAILED : undefined;
    if (error) {
      this.settle(m, e, 'Failed', error);
      this.failed(m, e.recipient, error, m.parts.length);
      return;
    }
    this.settle(m, e, 'Sent');
    this.p.emit('sms:sent', { ...this.payload(m, e.recipient), partsCount: m.parts.length, sentAt: new Date().toISOString() });
    if (m.withDeliveryReport) void pace.track(this.report(m, e));
    else this.maybeReply(e.recipient);
  }

  private async report(m: StoredMessage, e: SendEntry): Promise<void> {
    const { pace, outcomes } = this.p;
    await pace.wait(pace.between(REPORT[0], REPORT[1]));
    if (pace.chance(outcomes.undeliveredRate)) {
      this.settle(m, e, 'Failed', UNDELIVERED);
      this.failed(m, e.recipient, UNDELIVERED, m.parts.length);
      return;
    }
    this.settle(m, e, 'Delivered');
    // the docs: sms:delivered fires once per part of a multipart message
    for (let part = 0; part < m.parts.length; part++) {
      this.p.emit('sms:delivered', { ...this.payload(m, e.recipient), deliveredAt: new Date().toISOString() });
    }
    this.maybeReply(e.recipient);
  }

  private maybeReply(recipient: string): void {
    const { pace, outcomes } = this.p;
    if (!pace.chance(outcomes.replyRate)) return;
    void pace.track(pace.wait(pace.between(REPLY_AFTER[0], REPLY_AFTER[1])).then(() => this.p.reply(recipient)));
  }

  private settle(m: StoredMessage, e: SendEntry, state: 'Sent' | 'Delivered' | 'Failed', error?: string): void {
    e.state = state;
    if (error) e.error = error;
    this.p.store.setState(m, e.recipient, state, error ?? null);
  }

  /** §9: sms:failed fires once per failed part, as sms:delivered does. */
  private failed(m: StoredMessage, recipient: string, reason: string, parts: number): void {
    for (let part = 0; part < parts; part++) {
      this.p.emit('sms:failed', { ...this.payload(m, recipient), failedAt: new Date().toISOString(), reason });
    }
  }

  private payload(m: StoredMessage, recipient: string): Record<string, unknown> {
    const base = { messageId: m.id, recipient };
    if (!this.p.outcomes.withSender) return base;
    const sim = this.simFor(m);
    return { ...base, sender: this.p.sims.find((s) => s.simNumber === sim)?.phoneNumber, simNumber: sim };
  }

  private simFor(m: StoredMessage): number {
    return m.simNumber ?? this.p.sims[m.seq % this.p.sims.length]!.simNumber;
  }

  /** MessagesService.applyLimit: past limit_value messages in limit_period, wait (wall-clock) until one leaves the period. */
  private async applyLimit(): Promise<void> {
    for (;;) {
      const { limit_period: period, limit_value: value } = this.p.settings.messages;
      const span = LIMIT_PERIODS[period];
      if (!span || !value) return;
      const since = Date.now() - span;
      const inPeriod = this.processedAt.filter((t) => t > since);
      if (inPeriod.length < value) return;
      await this.p.pace.waitReal(inPeriod[0]! - since + 1);
    }
  }
}
