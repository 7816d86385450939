import { randomBytes } from 'node:crypto';
import { PhoneBooks, UNSUBSCRIBE_KEYWORDS } from './books.ts';
import { fakeControls } from './controls.ts';
import { SendingLoop, type Outcomes } from './engine.ts';
import { MessageStore } from './messages.ts';
import { Pace, type Random } from './pace.ts';
import { newId, phoneRoutes, type InboxEntry } from './routes.ts';
import { PhoneServer, type OfflineMode } from './server.ts';
import { defaultSettings } from './settings.ts';
import { Webhooks, type WebhookOptions } from './webhooks.ts';

// One fake phone: its HTTP listener, queue, sending loop, webhooks and books, and the controls a test needs.

export type PhoneOptions = Partial<Outcomes & WebhookOptions> & {
  port?: number; name?: string; user?: string; password?: string; signingKey?: string;
  /** SIM cards in the phone (1 or 2; default 1) */
  sims?: number;
  /** 0 (default): every step on the next tick; 1: a real phone's pacing; n: n times faster than a phone */
  speed?: number;
  random?: Random;
};

const ORDINARY_REPLIES = ['好的', '收到', '谢谢', '多少钱？', '已收到，谢谢', '请问在哪里？'];
const alnum = (n: number) => Array.from(randomBytes(n), (b) => 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'[b % 56]).join('');
const mobile = (i: number) => `+86139${String(Math.floor(Math.random() * 1e8) + i).padStart(8, '0').slice(-8)}`;

export class FakePhone {
  readonly books = new PhoneBooks();
  readonly store = new MessageStore();
  readonly inbox: InboxEntry[] = [];
  readonly user: string;
  readonly password: string;
  readonly deviceId = newId();
  readonly name: string;
  readonly sims: { simNumber: number; phoneNumber: string; carrierName: string }[];
  readonly settings;
  readonly pace: Pace;
  readonly webhooks: Webhooks;
  readonly loop: SendingLoop;
  readonly server: PhoneServer;
  private readonly outcomes: Outcomes;

  constructor(options: PhoneOptions = {}) {
    this.user = options.user ?? 'sms';
    this.password = options.password ?? alnum(8);
    this.name = options.name ?? 'Fake Phone';
    this.sims = Array.from({ length: options.sims ?? 1 }, (_, i) => ({ simNumber: i + 1, phoneNumber: mobile(i), carrierName: '中国移动' }));
    this.pace = new Pace(options.speed ?? 0, options.random ?? Math.random);
    const retryCount = options.retryCount ?? 15;
    // §2: the app makes a random 8-character key when none is set
    const settings = defaultSettings(options.signingKey ?? alnum(8), retryCount);
    this.settings = settings;
    this.outcomes = {
      failRate: options.failRate ?? 0, undeliveredRate: options.undeliveredRate ?? 0, replyRate: options.replyRate ?? 0,
      unsubscribeShare: options.unsubscribeShare ?? 0.3, withSender: options.withSender ?? false,
    };
    this.webhooks = new Webhooks(
      { deviceId: this.deviceId, signingKey: () => this.signingKey, online: () => this.server.whenOnline() },
      this.pace, this.books,
      {
        retryBaseMs: options.retryBaseMs ?? 5000, duplicateRate: options.duplicateRate ?? 0, reorderRate: options.reorderRate ?? 0,
        // PATCH /settings {"webhooks":{"retry_count":n}} applies to the next retries, as in the app
        get retryCount() {
          return settings.webhooks.retry_count;
        },
      },
    );
    this.loop = new SendingLoop({
      store: this.store, books: this.books, pace: this.pace, settings: this.settings, outcomes: this.outcomes, sims: this.sims,
      emit: (event, payload) => this.webhooks.emit(event, payload), reply: (sender) => this.receive(sender, this.replyText()),
    });
    this.server = new PhoneServer(phoneRoutes({
      user: this.user, password: this.password, deviceId: this.deviceId, name: this.name, version: '1.68.0-fake', sims: this.sims,
      store: this.store, books: this.books, settings: this.settings, loop: this.loop, webhooks: this.webhooks, inbox: this.inbox,
      controls: fakeControls(this),
    }));
  }

  get url() {
    return this.server.url;
  }
  get port() {
    return this.server.port;
  }
  /** The key webhooks are signed with (PATCH /settings {"webhooks":{"signing_key":…}} changes it). */
  get signingKey(): string {
    return this.settings.webhooks.signing_key;
  }

  /** The phone stops answering: 'refuse' closes its port and cuts connections, 'hang' takes requests and never answers. Webhooks wait. */
  goOffline(mode: OfflineMode = 'refuse'): Promise<void> {
    return this.server.goOffline(mode);
  }
  goOnline(): Promise<void> {
    return this.server.goOnline();
  }

  /** Android's outgoing-SMS check: every later send fails with RESULT_ERROR_LIMIT_EXCEEDED until turned off. */
  setLimitExceeded(on: boolean): void {
    this.loop.limitExceeded = on;
  }

  /** Keeps accepted messages Pending (to queue several, then see the processing order) until release(). */
  hold(): void {
    this.loop.held = true;
  }
  release(): void {
    this.loop.held = false;
    this.loop.kick();
  }

  /** An SMS arrives from `sender`: kept in the inbox, posted as sms:received. */
  receive(sender: string, text: string): InboxEntry {
    const now = new Date();
    const entry: InboxEntry = { id: newId(), type: 'SMS', sender, contentPreview: text, createdAt: now.toISOString() };
    this.inbox.push(entry);
    this.books.replies.push({ id: entry.id, sender, text, at: now.getTime(), unsubscribe: UNSUBSCRIBE_KEYWORDS.includes(text.trim()) });
    const own = this.sims[0]!;
    this.webhooks.emit('sms:received', {
      messageId: entry.id, sender, ...(this.outcomes.withSender ? { recipient: own.phoneNumber, simNumber: own.simNumber } : {}),
      message: text, receivedAt: now.toISOString(),
    });
    return entry;
  }

  /** Resolves when nothing is queued or in flight: every message settled, every webhook posted (or given up).
   *  Messages kept Pending by hold() do not count; webhooks waiting for the phone to come back online do. */
  async whenIdle(): Promise<void> {
    for (;;) {
      await this.pace.whenIdle();
      if (this.pace.stopped || this.loop.held || !this.store.nextPending(this.settings.messages.processing_order, Number.MAX_SAFE_INTEGER)) return;
      this.loop.kick();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async start(port = 0): Promise<this> {
    await this.server.listen(port);
    return this;
  }

  async stop(): Promise<void> {
    this.pace.stop();
    await this.server.close();
  }

  private replyText(): string {
    const pool = this.pace.chance(this.outcomes.unsubscribeShare) ? UNSUBSCRIBE_KEYWORDS : ORDINARY_REPLIES;
    return pool[Math.floor(this.pace.random() * pool.length)]!;
  }
}
