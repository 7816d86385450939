import { PhoneError, type InboxEntry, type SmsGateClient } from './smsgate-client.ts';
import type { PhoneStats } from './status.ts';
import type { WebhookBody } from './webhook-receiver.ts';

// SMS the phone received, passed on to the server (POST /device/v1/replies): from sms:received webhooks,
// and by reading the phone's inbox (GET /inbox) now and then (less often with webhooks: it catches what
// they missed). Both name a reply by the phone's id of the inbound SMS (the webhook's messageId is the
// inbox entry's id), so one reply is passed on once; the server keeps each (device, messageId) once,
// so reading an entry again after a restart counts nothing twice.

export type Reply = { messageId: string; phone: string; content: string; receivedAt: number };
export type ReplySink = (replies: Reply[]) => Promise<void>;

const MAX_REPLIES = 100;
/** On its first read of the inbox the bridge passes on what came in the last day, not the phone's whole history. */
const FIRST_READ_MS = 24 * 60 * 60 * 1000;

export class ReplyRelay {
  private readonly queue = new Map<string, Reply>();
  private readonly seen = new Set<string>();
  private inboxFrom: number | undefined;
  /** False once the phone said it has no inbox route. */
  private inboxWorks = true;
  private readonly phone: SmsGateClient;
  private readonly sink: ReplySink;
  private readonly stats: PhoneStats;
  private readonly sim: number;

  constructor(deps: { phone: SmsGateClient; sink: ReplySink; stats: PhoneStats; sim: number }) {
    this.phone = deps.phone;
    this.sink = deps.sink;
    this.stats = deps.stats;
    this.sim = deps.sim;
  }

  /** An sms:received event. Both SIMs of one phone get the phone's events: a SIM takes those of its own number (or, unnamed, SIM 1). */
  fromWebhook(event: WebhookBody): void {
    if (event.event !== 'sms:received') return;
    const { payload } = event;
    if ((payload.simNumber ?? 1) !== this.sim) return;
    const messageId = String(payload.messageId ?? event.id).slice(0, 64);
    this.add({ messageId, phone: String(payload.sender ?? ''), content: String(payload.message ?? ''), receivedAt: timeOf(payload.receivedAt) });
  }

  async readInbox(now = Date.now()): Promise<void> {
    if (!this.inboxWorks) return;
    let entries: InboxEntry[];
    try {
      entries = await this.phone.inbox();
    } catch (error) {
      if (error instanceof PhoneError && (error.status === 404 || error.status === 405)) {
        this.inboxWorks = false;
        this.stats.lastError = 'the phone has no GET /inbox: replies come only with --webhook-url';
        return;
      }
      throw error;
    }
    const from = this.inboxFrom ?? now - FIRST_READ_MS;
    this.inboxFrom = from;
    for (const entry of entries) {
      if (entry.type && !/sms/i.test(entry.type)) continue;
      const receivedAt = timeOf(entry.createdAt);
      if (receivedAt < from) continue;
      this.add({ messageId: String(entry.id).slice(0, 64), phone: String(entry.sender ?? ''), content: String(entry.contentPreview ?? ''), receivedAt });
    }
  }

  async flush(): Promise<void> {
    while (this.queue.size > 0) {
      const chunk = [...this.queue.values()].slice(0, MAX_REPLIES);
      await this.sink(chunk);
      for (const reply of chunk) this.queue.delete(reply.messageId);
    }
  }

  private add(reply: Reply): void {
    if (!reply.messageId || !reply.phone || this.seen.has(reply.messageId)) return;
    this.seen.add(reply.messageId);
    this.queue.set(reply.messageId, reply);
    this.stats.replies += 1;
  }
}

function timeOf(text: string | undefined): number {
  const at = text ? Date.parse(text) : NaN;
  return Number.isFinite(at) ? at : Date.now();
}
