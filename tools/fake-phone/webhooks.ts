import { createHmac, randomUUID } from 'node:crypto';
import type { PhoneBooks } from './books.ts';
import type { Pace } from './pace.ts';

// Webhooks as the app posts them (fact sheet §2): one event per registration, body {id, webhookId, event,
// deviceId, payload}, signed with X-Timestamp (Unix seconds) and X-Signature = hex HMAC-SHA256(signing key,
// raw body + timestamp); a non-2xx answer (or none within 30 s) is retried with exponential backoff from 5 s,
// 15 times. The fake also posts some events twice (the same body and id) and holds some back until the next
// event has gone, as a phone's persistent queue can — a bridge must cope with both.

export const EVENTS = ['sms:received', 'sms:sent', 'sms:delivered', 'sms:failed', 'sms:cancelled', 'sms:data-received', 'system:ping', 'mms:received', 'mms:downloaded', 'app:started'] as const;
export type WebhookEvent = (typeof EVENTS)[number];
export type Registration = { id: string; url: string; event: WebhookEvent; deviceId: string | null };

export type WebhookOptions = {
  /** first retry delay in real ms (doubles each time); default 5000 */
  retryBaseMs: number; retryCount: number; duplicateRate: number; reorderRate: number;
};

/** §2: https://, or plain http only to 127.0.0.1 (the app's insecure build aside). */
export const allowedWebhookUrl = (url: string) => {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || (u.protocol === 'http:' && u.hostname === '127.0.0.1');
  } catch {
    return false;
  }
};

export const signBody = (signingKey: string, rawBody: string, timestamp: string) =>
  createHmac('sha256', signingKey).update(rawBody + timestamp).digest('hex');

/** What the sender needs of its phone: the key is read at each post (PATCH /settings may change it). */
type WebhookPhone = { deviceId: string; signingKey: () => string; online: () => Promise<void> };

export class Webhooks {
  readonly registrations = new Map<string, Registration>();
  private held: (() => Promise<void>)[] = [];

  private readonly phone: WebhookPhone;
  private readonly pace: Pace;
  private readonly books: PhoneBooks;
  private readonly options: WebhookOptions;

  constructor(phone: WebhookPhone, pace: Pace, books: PhoneBooks, options: WebhookOptions) {
    this.phone = phone;
    this.pace = pace;
    this.books = books;
    this.options = options;
    pace.onIdle = () => this.releaseHeld();
  }

  register(r: Registration): Registration {
    this.registrations.set(r.id, r);
    return r;
  }

  /** Posts the event to every registration for it (in the background, tracked by the pace). */
  emit(event: WebhookEvent, payload: Record<string, unknown>): void {
    for (const r of this.registrations.values()) {
      if (r.event !== event) continue;
      this.books.webhooks.events++;
      const body = JSON.stringify({ id: randomUUID(), webhookId: r.id, event, deviceId: this.phone.deviceId, payload });
      if (this.pace.chance(this.options.reorderRate)) {
        // held back until a later event has been posted (or the phone has nothing else to do), so it arrives late
        this.books.webhooks.reordered++;
        this.held.push(() => this.deliver(r.url, body));
      } else {
        void this.pace.track(this.deliver(r.url, body).finally(() => this.releaseHeld()));
      }
    }
  }

  /** Posts the held events one after the other, the latest first. */
  private releaseHeld(): void {
    const held = this.held.splice(0).reverse();
    if (held.length > 0) {
      void this.pace.track((async () => {
        for (const deliver of held) await deliver();
      })());
    }
  }

  private async deliver(url: string, body: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      await this.phone.online();
      if (this.pace.stopped) return;
      this.books.webhooks.posts++;
      if (await this.post(url, body)) break;
      if (attempt >= this.options.retryCount) {
        this.books.webhooks.gaveUp++;
        return;
      }
      this.books.webhooks.retries++;
      await this.pace.wait(this.options.retryBaseMs * 2 ** attempt);
    }
    if (this.pace.chance(this.options.duplicateRate)) {
      this.books.webhooks.duplicates++;
      await this.pace.wait(1000);
      await this.phone.online();
      if (this.pace.stopped) return;
      this.books.webhooks.posts++;
      await this.post(url, body);
    }
  }

  private async post(url: string, body: string): Promise<boolean> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    try {
      const answer = await fetch(url, {
        method: 'POST', body, signal: AbortSignal.any([AbortSignal.timeout(30_000), this.pace.stopSignal]),
        headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signBody(this.phone.signingKey(), body, timestamp) },
      });
      await answer.arrayBuffer();
      return answer.ok;
    } catch {
      return false;
    }
  }
}
