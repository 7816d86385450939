// The phone's message queue as the Local Server API shows it (fact sheet §1): a message per POST, a state per
// recipient, and the message's state derived from its recipients' the way the app does
// (MessageWithRecipients.kt): any Pending > Cancelling > Cancelled > Processed; all Failed → Failed; all
// Delivered → Delivered; otherwise Sent.

export type State = 'Pending' | 'Cancelling' | 'Cancelled' | 'Processed' | 'Sent' | 'Delivered' | 'Failed';
export const STATES: readonly State[] = ['Pending', 'Cancelling', 'Cancelled', 'Processed', 'Sent', 'Delivered', 'Failed'];

export type Recipient = { phoneNumber: string; state: State; error: string | null };
export type StoredMessage = {
  id: string; deviceId: string; text: string; isData: boolean; parts: string[];
  simNumber: number | null; withDeliveryReport: boolean; priority: number; skipPhoneValidation: boolean;
  validUntil: number | null; scheduleAt: number | null; createdAt: number;
  recipients: Recipient[]; states: Partial<Record<State, string>>; seq: number;
};

export function messageState(recipients: Recipient[]): State {
  for (const s of ['Pending', 'Cancelling', 'Cancelled', 'Processed'] as const) if (recipients.some((r) => r.state === s)) return s;
  if (recipients.every((r) => r.state === 'Failed')) return 'Failed';
  if (recipients.every((r) => r.state === 'Delivered')) return 'Delivered';
  return 'Sent';
}

export class MessageStore {
  private readonly byId = new Map<string, StoredMessage>();
  /** the messages still Pending, oldest first: the sending loop looks here, not through every message kept */
  private readonly pending = new Set<StoredMessage>();
  private seq = 0;

  has(id: string) {
    return this.byId.has(id);
  }
  get(id: string) {
    return this.byId.get(id);
  }

  add(m: Omit<StoredMessage, 'seq' | 'states'>): StoredMessage {
    const stored: StoredMessage = { ...m, seq: ++this.seq, states: { Pending: new Date(m.createdAt).toISOString() } };
    this.byId.set(m.id, stored);
    this.pending.add(stored);
    return stored;
  }

  /** Sets one recipient's state (all of them without a number); records when the message first reached its new state. */
  setState(m: StoredMessage, phoneNumber: string | null, state: State, error: string | null = null): void {
    for (const r of m.recipients) {
      if (phoneNumber === null || r.phoneNumber === phoneNumber) Object.assign(r, { state, error });
    }
    const now = messageState(m.recipients);
    m.states[now] ??= new Date().toISOString();
    if (now !== 'Pending') this.pending.delete(m);
  }

  /** The next message to send: its processing order decides between the oldest and the newest (§3: LIFO by default). */
  nextPending(order: 'FIFO' | 'LIFO', now: number): StoredMessage | undefined {
    let pick: StoredMessage | undefined;
    for (const m of this.pending) {
      if (m.scheduleAt !== null && m.scheduleAt > now) continue;
      if (order === 'FIFO') return m;
      pick = m;
    }
    return pick;
  }

  /** Newest first, filtered as GET /messages?state&from&to. */
  list(filter: { state?: State; from?: number; to?: number }): StoredMessage[] {
    return [...this.byId.values()]
      .filter((m) => (!filter.state || messageState(m.recipients) === filter.state)
        && (filter.from === undefined || m.createdAt >= filter.from) && (filter.to === undefined || m.createdAt < filter.to))
      .sort((a, b) => b.seq - a.seq);
  }

  all(): StoredMessage[] {
    return [...this.byId.values()];
  }
}

/** The message object of POST /messages (202) and GET /messages/{id}. */
export const messageJson = (m: StoredMessage) => ({
  id: m.id,
  deviceId: m.deviceId,
  state: messageState(m.recipients),
  isHashed: false,
  isEncrypted: false,
  recipients: m.recipients.map((r) => ({ phoneNumber: r.phoneNumber, state: r.state, error: r.error })),
  states: { ...m.states },
});
