// What a fake phone did, kept so a test or the bench can check the bridge against it: every number handed to
// Android (one entry per attempt, so "no number twice" is a count), how each ended, the replies it received and
// the webhooks it posted.

export type SendEntry = {
  messageId: string; recipient: string; text: string; parts: number; simNumber: number; at: number;
  /** Processed until the phone's radio answers; Sent, then Delivered, or Failed with the app's error string */
  state: 'Processed' | 'Sent' | 'Delivered' | 'Failed'; error?: string;
};
export type ReplyEntry = { id: string; sender: string; text: string; at: number; unsubscribe: boolean };
export type WebhookCounts = { events: number; posts: number; retries: number; duplicates: number; reordered: number; gaveUp: number };

export const UNSUBSCRIBE_KEYWORDS = ['T', 'TD', '退订'];

export class PhoneBooks {
  readonly sends: SendEntry[] = [];
  readonly replies: ReplyEntry[] = [];
  readonly webhooks: WebhookCounts = { events: 0, posts: 0, retries: 0, duplicates: 0, reordered: 0, gaveUp: 0 };
  /** POST /messages answered 202 / 409 */
  accepted = 0;
  conflicts = 0;

  /** How many times each number was handed to Android by this phone. */
  attempts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const s of this.sends) counts.set(s.recipient, (counts.get(s.recipient) ?? 0) + 1);
    return counts;
  }

  timesSent(recipient: string): number {
    return this.sends.filter((s) => s.recipient === recipient).length;
  }

  summary(): BooksSummary {
    return summarize([this]);
  }
}

export type BooksSummary = {
  accepted: number; conflicts: number; sends: number; numbers: number;
  /** numbers handed to Android more than once (across phones when summed): a retry after a failed send included */
  repeated: string[];
  /** numbers the radio took more than once (sent, delivered or undelivered twice): what must never happen */
  sentTwice: string[];
  sent: number; delivered: number; failed: number; sendFailed: number; undelivered: number; pending: number;
  replies: number; unsubscribes: number; webhooks: WebhookCounts;
};

/** The books of several phones as one: a number sent by two phones counts as repeated. */
export function sumBooks(books: PhoneBooks[]): BooksSummary {
  return summarize(books);
}

function summarize(books: PhoneBooks[]): BooksSummary {
  const counts = new Map<string, number>();
  const taken = new Map<string, number>();
  const webhooks: WebhookCounts = { events: 0, posts: 0, retries: 0, duplicates: 0, reordered: 0, gaveUp: 0 };
  const s = { accepted: 0, conflicts: 0, sends: 0, sent: 0, delivered: 0, failed: 0, sendFailed: 0, undelivered: 0, pending: 0, replies: 0, unsubscribes: 0 };
  for (const b of books) {
    s.accepted += b.accepted;
    s.conflicts += b.conflicts;
    s.replies += b.replies.length;
    s.unsubscribes += b.replies.filter((r) => r.unsubscribe).length;
    for (const key of Object.keys(webhooks) as (keyof WebhookCounts)[]) webhooks[key] += b.webhooks[key];
    for (const e of b.sends) {
      s.sends++;
      counts.set(e.recipient, (counts.get(e.recipient) ?? 0) + 1);
      const undelivered = e.state === 'Failed' && e.error?.startsWith('Delivery result') === true;
      if (e.state === 'Processed') s.pending++;
      else if (e.state === 'Failed') {
        s.failed++;
        if (undelivered) s.undelivered++;
        else s.sendFailed++;
      } else {
        // Sent and Delivered: the radio took it
        s.sent++;
        if (e.state === 'Delivered') s.delivered++;
      }
      if (e.state === 'Sent' || e.state === 'Delivered' || undelivered) taken.set(e.recipient, (taken.get(e.recipient) ?? 0) + 1);
    }
  }
  // an undelivered number was sent first
  s.sent += s.undelivered;
  const repeated = [...counts].filter(([, n]) => n > 1).map(([number]) => number);
  const sentTwice = [...taken].filter(([, n]) => n > 1).map(([number]) => number);
  return { ...s, numbers: counts.size, repeated, sentTwice, webhooks };
}
