import { randomBytes } from 'node:crypto';
import { DEVICE_HEARTBEAT_SECONDS, type DeviceBatch, type DeviceBatchItem } from '@huiyun/contract';
import { DeviceApiError, DeviceClient, pause, StoppedError, type RetryPolicy } from '../device-simulator/device-client.ts';
import { Journal, type JournalMessage } from './journal.ts';
import { MessageFollower, type DeliveryEntry, type FollowTiming, type ReportEntry } from './message-follower.ts';
import { LIMIT_EXCEEDED, outcomeOfEvent, outcomeOfMessage } from './message-state.ts';
import type { PhoneSeat } from './phones-file.ts';
import { ReplyRelay, type Reply } from './reply-relay.ts';
import { PhoneError, PhoneUnreachable, SmsGateClient, type WebhookEvent } from './smsgate-client.ts';
import { newPhoneStats, type PhoneStats } from './status.ts';
import type { WebhookBody, WebhookReceiver } from './webhook-receiver.ts';

// One phone SIM as one device of the protocol (docs/device-protocol.md, docs/phones.md). It activates
// with its own code under a machineCode derived from the phone's id and the SIM, settles what its
// journal says the phone may still hold from a previous run, then pulls batches and hands each number
// to the phone as one POST /messages under our id (`hy<id>a<attempt>`), keeping the task's interval
// between two POSTs itself (a new request cuts the phone's own delay short). The follower reports how
// each ended. While the phone does not answer GET /health the device neither heartbeats, pulls nor
// reports, so it shows 离线 and its lease gives its numbers to other devices.

export type Timing = FollowTiming & {
  /** How often the phone's GET /health is asked. */
  healthMs: number;
  heartbeatMs: number;
  /** How long pulling stops after RESULT_ERROR_LIMIT_EXCEEDED. */
  limitPauseMs: number;
  /** How often the inbox is read when there are no webhooks. */
  inboxMs: number;
  /** The follower's and relay's beat: how often they look for work. */
  tickMs: number;
  /** intervalSeconds is multiplied by this (1 real pace; 0 no waiting, for tests and the bench). */
  intervalScale: number;
  /** The shortest and the longest pause after a wait answer (the server's retryAfterSeconds in between). */
  waitFloorMs: number;
  maxWaitMs: number;
  retry?: RetryPolicy;
};

export const DEFAULT_TIMING: Timing = {
  pollMs: 2000, deliveryPollMs: 15_000, deliveryFollowMs: 30 * 60_000, healthMs: 15_000, heartbeatMs: DEVICE_HEARTBEAT_SECONDS * 1000,
  limitPauseMs: 10 * 60_000, inboxMs: 30_000, tickMs: 500, intervalScale: 1, waitFloorMs: 1000, maxWaitMs: Infinity,
};
/** With webhooks, polling only settles what they missed. */
const WEBHOOK_POLL_FACTOR = 10;
const WEBHOOK_EVENTS: WebhookEvent[] = ['sms:sent', 'sms:delivered', 'sms:failed', 'sms:received'];
/** How many fresh ids are tried for a number whose earlier message this phone cancelled before sending it. */
const MAX_RESENDS = 5;

export type DeviceOptions = {
  seat: PhoneSeat;
  server: string;
  stateDir: string;
  webhook?: { url: string; receiver: WebhookReceiver };
  timing?: Partial<Timing>;
  log: (line: string) => void;
  /** Ends the loop cleanly: no new batch or POST, what is known reported. */
  stop: AbortSignal;
  /** Ends in-flight calls too. */
  kill?: AbortSignal;
};

/** A stable machineCode from the phone's id and the SIM: `smsgate-<id>-sim<N>`, only A-Z a-z 0-9 . _ : -, ≤ 64. */
export function machineCodeOf(phoneId: string, sim: number): string {
  const id = phoneId.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 64 - 'smsgate--sim0'.length) || 'phone';
  return `smsgate-${id}-sim${sim}`;
}

/** SMSGate's id of one batch item: our number's id and how often it failed before; test-phone items by batch and place. */
export function messageIdOf(batch: Pick<DeviceBatch, 'batchId'>, item: Pick<DeviceBatchItem, 'id' | 'test' | 'attempt'>, index: number): string {
  if (item.test || item.id === null) return `hyt${batch.batchId.replace(/^b_/, '').slice(-24)}${index}`;
  return `hy${item.id}a${item.attempt ?? 0}`;
}

export class PhoneDevice {
  readonly stats: PhoneStats;
  private readonly options: DeviceOptions;
  private readonly timing: Timing;
  private readonly phone: SmsGateClient;
  private readonly client: DeviceClient;
  private journal: Journal | undefined;
  private follower: MessageFollower | undefined;
  private relay: ReplyRelay | undefined;
  private activation: { authCode: string; machineCode: string; machineName: string; capabilities: ['text'] } | undefined;
  private phoneUp = true;
  private limitedUntil = 0;
  private lastPostAt = 0;
  private webhooksOn = false;
  private readonly warned = new Set<string>();

  constructor(options: DeviceOptions) {
    this.options = options;
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    this.stats = newPhoneStats(options.seat.name ?? options.seat.url);
    this.phone = new SmsGateClient(options.seat);
    this.client = new DeviceClient(options.server, {
      retry: this.timing.retry,
      signal: options.kill,
      onRetry: (call, reason) => (this.stats.lastError = `${call}: ${reason} (retrying)`),
    });
  }

  async run(): Promise<void> {
    const { stop } = this.options;
    const background: Promise<void>[] = [];
    try {
      const phoneId = await this.connectPhone();
      if (phoneId === undefined) return;
      await this.preparePhone(phoneId);
      if (!(await this.activate())) return;
      background.push(this.every(this.timing.healthMs, () => this.checkHealth()));
      background.push(this.every(this.timing.heartbeatMs, () => this.heartbeat()));
      background.push(this.every(this.timing.tickMs, () => this.tick()));
      await this.settleJournal();
      while (!stop.aborted) {
        if (!this.phoneUp) {
          this.stats.phase = 'phoneDown';
          await pause(Math.min(1000, this.timing.healthMs), stop);
          continue;
        }
        if (Date.now() < this.limitedUntil) {
          this.stats.phase = 'limited';
          await pause(Math.min(1000, this.limitedUntil - Date.now()), stop);
          continue;
        }
        const pulled = await this.withSession(() => this.client.pull(stop));
        if (pulled.batch) {
          await this.sendBatch(pulled.batch);
          continue;
        }
        this.stats.phase = 'waiting';
        this.stats.note = pulled.wait.message;
        await pause(Math.min(this.timing.maxWaitMs, Math.max(this.timing.waitFloorMs, pulled.wait.retryAfterSeconds * 1000)), stop);
      }
    } catch (error) {
      if (!(error instanceof StoppedError)) {
        this.stats.lastError = (error as Error).message;
        this.options.log(`${this.stats.name}: stopped: ${(error as Error).message}`);
      }
    } finally {
      await Promise.allSettled(background);
      // What is known is reported (the kill signal cuts this short); what the phone still holds is settled on the next start.
      if (this.phoneUp && this.follower && !this.options.kill?.aborted) await this.tick().catch(() => undefined);
      this.journal?.close();
      if (this.stats.phase !== 'refused') this.stats.phase = 'stopped';
    }
  }

  /** Waits until the phone answers and names its device id; undefined when stopped first. */
  private async connectPhone(): Promise<string | undefined> {
    const { stop } = this.options;
    while (!stop.aborted) {
      try {
        const device = await this.phone.device();
        this.stats.name = this.options.seat.name ?? `${device.name || 'phone'} SIM${this.options.seat.sim}`.slice(0, 100);
        return device.id;
      } catch (error) {
        this.stats.phase = 'phoneDown';
        this.stats.lastError = (error as Error).message;
        if (error instanceof PhoneError && error.status === 401) this.warnOnce('auth', `${this.options.seat.url}: ${error.message}`);
        await pause(this.timing.healthMs, stop).catch(() => undefined);
      }
    }
    return undefined;
  }

  private async preparePhone(phoneId: string): Promise<void> {
    const { seat, stateDir, webhook, log } = this.options;
    const machineCode = machineCodeOf(phoneId, seat.sim);
    this.stats.machineCode = machineCode;
    this.journal = Journal.open(stateDir, machineCode);
    this.relay = new ReplyRelay({ phone: this.phone, sink: (replies) => this.replies(replies), stats: this.stats, sim: seat.sim });
    // SMSGate takes the newest message first by default (LIFO): a batch would go out backwards.
    try {
      await this.phone.patchSettings({ messages: { processing_order: 'FIFO' } });
    } catch (error) {
      log(`${this.stats.name}: could not set SMSGate's processing order to FIFO (${(error as Error).message}); set it in the app's settings`);
    }
    if (webhook) this.webhooksOn = await this.registerWebhooks(machineCode, webhook.url, webhook.receiver);
    // With webhooks on, polling only settles what they missed.
    const polling = this.webhooksOn ? WEBHOOK_POLL_FACTOR : 1;
    this.follower = new MessageFollower({
      phone: this.phone, journal: this.journal, stats: this.stats,
      timing: { pollMs: this.timing.pollMs * polling, deliveryPollMs: this.timing.deliveryPollMs * polling, deliveryFollowMs: this.timing.deliveryFollowMs },
      sink: { report: (batchId, results) => this.report(batchId, results), delivery: (results) => this.delivery(results) },
      onLimitExceeded: () => this.limitExceeded(),
    });
  }

  private async registerWebhooks(machineCode: string, url: string, receiver: WebhookReceiver): Promise<boolean> {
    const { seat, log } = this.options;
    try {
      let signingKey = seat.signingKey;
      if (!signingKey) {
        const settings = await this.phone.settings().catch(() => ({} as Record<string, unknown>));
        const known = (settings.webhooks as { signing_key?: unknown } | undefined)?.signing_key;
        if (typeof known === 'string' && known) signingKey = known;
        else {
          signingKey = randomBytes(16).toString('hex');
          await this.phone.patchSettings({ webhooks: { signing_key: signingKey } });
        }
      }
      receiver.addRoute(machineCode, { signingKey, onEvent: (event) => this.onWebhook(event) });
      for (const event of WEBHOOK_EVENTS) {
        await this.phone.registerWebhook(`huiyun-sim${seat.sim}-${event.replace(':', '-')}`, `${url}/${encodeURIComponent(machineCode)}`, event);
      }
      return true;
    } catch (error) {
      log(`${this.stats.name}: webhooks not set up (${(error as Error).message}); following messages by polling`);
      return false;
    }
  }

  private onWebhook(event: WebhookBody): void {
    if (event.event === 'sms:received') {
      this.relay?.fromWebhook(event);
      return;
    }
    const outcome = outcomeOfEvent(event);
    const msgId = event.payload.messageId;
    if (outcome && typeof msgId === 'string') this.follower?.apply(msgId, outcome);
  }

  private async activate(): Promise<boolean> {
    const { seat, stop, log } = this.options;
    this.activation = { authCode: seat.code, machineCode: this.stats.machineCode, machineName: this.stats.name, capabilities: ['text'] };
    try {
      await this.client.activate(this.activation, stop);
      return true;
    } catch (error) {
      if (error instanceof StoppedError) return false;
      this.stats.phase = 'refused';
      this.stats.lastError = (error as Error).message;
      log(`${this.stats.name}: activation with code ${seat.code} refused: ${(error as Error).message}`);
      return false;
    }
  }

  /** A call with the device token; after a 401 (token replaced, code deleted) the device activates again once. */
  private async withSession<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof DeviceApiError) || error.status !== 401) throw error;
      if (!(await this.activate())) throw error;
      return call();
    }
  }

  /** Before the first pull: every message a previous run handed to the phone and did not report is reported now. */
  private async settleJournal(): Promise<void> {
    const follower = this.follower!;
    const open = this.journal!.open();
    if (open.length === 0) return;
    this.stats.phase = 'settling';
    this.options.log(`${this.stats.name}: settling ${open.length} message(s) a previous run left open`);
    for (const message of open) follower.track(message, undefined, 0);
    while (follower.unsettled() > 0) await pause(this.timing.tickMs, this.options.stop);
  }

  private async sendBatch(batch: DeviceBatch): Promise<void> {
    const { stop } = this.options;
    const journal = this.journal!;
    this.stats.batches += 1;
    this.stats.phase = 'sending';
    this.stats.note = batch.taskName;
    journal.addBatch({ batchId: batch.batchId, leaseUntil: batch.leaseUntil, leaseSeconds: batch.leaseSeconds });
    const interval = batch.intervalSeconds * 1000 * this.timing.intervalScale;
    for (const [index, item] of batch.items.entries()) {
      if (stop.aborted || !this.phoneUp || Date.now() < this.limitedUntil) break;
      const due = this.lastPostAt + interval - Date.now();
      if (due > 0) await pause(due, stop).catch(() => undefined);
      if (stop.aborted) break;
      const delivered = await this.post(batch, item, messageIdOf(batch, item, index));
      this.lastPostAt = Date.now();
      if (!delivered) break;
    }
    // The next pull comes when the phone has said how each message ended (or the lease's end cancelled it).
    while (!stop.aborted && this.follower!.unsettled(batch.batchId) > 0) await pause(this.timing.tickMs, stop).catch(() => undefined);
  }

  /** Hands one number to the phone; false when the phone did not answer (the rest of the batch waits for the lease). */
  private async post(batch: DeviceBatch, item: DeviceBatchItem, baseId: string): Promise<boolean> {
    const follower = this.follower!;
    for (let resend = 0; resend <= MAX_RESENDS; resend++) {
      const msgId = resend === 0 ? baseId : `${baseId}c${resend}`;
      const message: JournalMessage = { msgId, batchId: batch.batchId, itemId: item.test ? null : item.id, phone: item.phone };
      this.journal!.addMessage(message);
      try {
        const answer = await this.phone.send({ id: msgId, text: item.content, phone: item.phone, simNumber: this.options.seat.sim });
        if ('message' in answer) {
          this.stats.posted += 1;
          follower.track(message, outcomeOfMessage(answer.message));
          return true;
        }
        if ('refused' in answer) {
          this.stats.refused += 1;
          this.stats.lastError = `the phone refused ${item.phone}: ${answer.refused}`;
          follower.track(message, { kind: 'failed', reason: answer.refused });
          return true;
        }
        // 409: the phone knows this id (a restart, or the lease brought the number back to this phone): go on from its state.
        this.stats.duplicates += 1;
        const known = await this.phone.message(msgId);
        const outcome = known ? outcomeOfMessage(known) : undefined;
        if (outcome?.kind === 'cancelled') {
          // Cancelled before it left the phone (its lease was ending): never sent, so it is sent under a fresh id.
          this.journal!.markDropped(msgId);
          continue;
        }
        follower.track(message, outcome);
        return true;
      } catch (error) {
        // No answer: the phone may or may not have taken it. The follower asks (404: never taken).
        follower.track(message);
        this.stats.lastError = (error as Error).message;
        if (!(error instanceof PhoneUnreachable) && !(error instanceof PhoneError)) throw error;
        return false;
      }
    }
    return true;
  }

  /** The follower's and the relay's beat: only while the phone answers (else the device stays silent and goes 离线). */
  private async tick(): Promise<void> {
    if (!this.phoneUp || !this.follower) return;
    await this.follower.poll();
    this.stats.inPhone = this.follower.waiting();
    await this.follower.flush();
    const now = Date.now();
    // With webhooks the inbox is still read, less often, for replies whose sms:received never came.
    if (now >= this.nextInboxAt) {
      this.nextInboxAt = now + this.timing.inboxMs * (this.webhooksOn ? WEBHOOK_POLL_FACTOR : 1);
      await this.relay!.readInbox(now).catch((error: unknown) => {
        if (!(error instanceof PhoneUnreachable)) this.stats.lastError = (error as Error).message;
      });
    }
    await this.relay!.flush();
  }

  private nextInboxAt = 0;
  /** The phone's battery level from its last health answer, when it names one. */
  private battery: number | undefined;

  private async checkHealth(): Promise<void> {
    const { up, battery } = await this.phone.health();
    if (battery !== undefined) this.battery = battery;
    if (up === this.phoneUp) return;
    this.phoneUp = up;
    if (up) {
      this.options.log(`${this.stats.name}: the phone answers again`);
      this.stats.phase = 'waiting';
      await this.heartbeat();
      return;
    }
    this.stats.phase = 'phoneDown';
    this.options.log(`${this.stats.name}: the phone does not answer ${this.options.seat.url}/health: the device stops (it shows 离线; its leased numbers go to other devices)`);
    // One last word for 设备列表, then silence.
    await this.withSession(() => this.client.heartbeat({ state: '手机无响应', appVersion: 'phone-bridge' }, this.options.stop)).catch(() => undefined);
  }

  private async heartbeat(): Promise<void> {
    if (!this.phoneUp) return;
    const state = Date.now() < this.limitedUntil ? '限额已满' : '';
    await this.withSession(() => this.client.heartbeat({ state, battery: this.battery, appVersion: 'phone-bridge' }, this.options.stop));
  }

  private limitExceeded(): void {
    const first = Date.now() >= this.limitedUntil;
    this.limitedUntil = Date.now() + this.timing.limitPauseMs;
    if (!first) return;
    this.stats.phase = 'limited';
    this.options.log(`${this.stats.name}: Android refused to send more SMS (${LIMIT_EXCEEDED}). Pulling stops for `
      + `${Math.round(this.timing.limitPauseMs / 60_000)} min. Raise the limit: adb shell settings put global sms_outgoing_check_max_count 1000, `
      + 'then reboot the phone (docs/phones.md)');
    void this.heartbeat().catch(() => undefined);
  }

  private async report(batchId: string, results: ReportEntry[]): Promise<void> {
    try {
      const answer = await this.withSession(() => this.client.report({ batchId, results }));
      this.stats.ignored += answer.ignored;
    } catch (error) {
      if (!(error instanceof DeviceApiError) || error.status === 401) throw error;
      this.warnOnce(`report ${error.status}`, `${this.stats.name}: a report was refused (${error.message}); dropped`);
    }
  }

  private async delivery(results: DeliveryEntry[]): Promise<void> {
    try {
      await this.withSession(() => this.client.delivery({ results }));
    } catch (error) {
      if (!(error instanceof DeviceApiError) || error.status === 401) throw error;
      this.warnOnce(`delivery ${error.status}`, `${this.stats.name}: delivery reports refused (${error.message}); dropped`);
    }
  }

  private async replies(replies: Reply[]): Promise<void> {
    try {
      await this.withSession(() => this.client.replies({ replies }));
    } catch (error) {
      if (!(error instanceof DeviceApiError) || error.status === 401) throw error;
      this.warnOnce(`replies ${error.status}`, `${this.stats.name}: replies refused (${error.message}); dropped`);
    }
  }

  private warnOnce(key: string, line: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.options.log(line);
  }

  /** Runs `work` every `ms` until stopped; a failing round is noted and the next one comes. */
  private async every(ms: number, work: () => Promise<void>): Promise<void> {
    const { stop } = this.options;
    while (!stop.aborted) {
      try {
        await work();
      } catch (error) {
        if (error instanceof StoppedError) return;
        this.stats.lastError = (error as Error).message;
      }
      await pause(ms, stop).catch(() => undefined);
    }
  }
}
