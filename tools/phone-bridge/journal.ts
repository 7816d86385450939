import fs from 'node:fs';
import path from 'node:path';

// The crash journal of one device (one phone SIM): an append-only file of JSON lines under the state
// directory. A batch is written when it is pulled and each message id before it is POSTed to the phone
// (synced to disk first), so a bridge that dies at any point knows, when it starts again, every message
// the phone may have taken: it asks the phone about each (404: never taken) and reports what it finds
// under the batch's id, instead of sending anything again. A line torn by a kill mid-write is skipped.
// Opening the journal rewrites it with only what is still open, so it stays small.

export type JournalBatch = { batchId: string; leaseUntil: number; leaseSeconds: number };
export type JournalMessage = {
  /** SMSGate's message id: `hy<itemId>a<attempt>`, or `hyt…` for a test-phone item. */
  msgId: string;
  batchId: string;
  /** The number's id to report under; null for the task's test phone (never reported). */
  itemId: number | null;
  phone: string;
  /** What the server was told (sent/failed), once it answered the report. */
  reported?: 'sent' | 'failed';
  /** When it was reported sent (epoch ms): delivery outcomes are followed for a while after. */
  reportedAt?: number;
  /** The delivery outcome was reported, or given up. */
  deliveryDone?: boolean;
  /** Nothing to report: the phone never took it, or it was cancelled while still waiting in the phone. */
  dropped?: boolean;
};

/** Lines written between two rewrites of the file. */
const COMPACT_EVERY = 20_000;

type Line =
  | { k: 'b'; batchId: string; leaseUntil: number; leaseSeconds: number }
  | { k: 'm'; msgId: string; batchId: string; itemId: number | null; phone: string }
  | { k: 'r'; msgId: string; status: 'sent' | 'failed'; at: number }
  | { k: 'd'; msgId: string }
  | { k: 'x'; msgId: string };

export class Journal {
  readonly file: string;
  readonly batches = new Map<string, JournalBatch>();
  readonly messages = new Map<string, JournalMessage>();
  private fd: number;

  private constructor(file: string) {
    this.file = file;
    this.fd = -1;
  }

  /** Reads the device's journal (if any), keeps what is still open and rewrites the file with only that. */
  static open(stateDir: string, machineCode: string): Journal {
    fs.mkdirSync(stateDir, { recursive: true });
    const journal = new Journal(path.join(stateDir, `${machineCode}.jsonl`));
    let text = '';
    try {
      text = fs.readFileSync(journal.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const raw of text.split('\n')) {
      let line: Line;
      try {
        line = JSON.parse(raw) as Line;
      } catch {
        continue;
      }
      journal.apply(line);
    }
    journal.compact();
    return journal;
  }

  addBatch(batch: JournalBatch): void {
    this.write({ k: 'b', ...batch });
  }

  /** Written and synced before the message is POSTed to the phone. */
  addMessage(message: Pick<JournalMessage, 'msgId' | 'batchId' | 'itemId' | 'phone'>): void {
    this.write({ k: 'm', ...message }, true);
  }

  markReported(msgId: string, status: 'sent' | 'failed', at = Date.now()): void {
    this.write({ k: 'r', msgId, status, at });
  }

  markDeliveryDone(msgId: string): void {
    this.write({ k: 'd', msgId });
  }

  markDropped(msgId: string): void {
    this.write({ k: 'x', msgId });
  }

  /** Messages that still need something: a state to report, or a delivery outcome to follow. */
  open(): JournalMessage[] {
    return [...this.messages.values()].filter((m) => !finished(m));
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
  }

  private write(line: Line, sync = false): void {
    this.apply(line);
    if (this.fd < 0) this.fd = fs.openSync(this.file, 'a');
    fs.writeSync(this.fd, `${JSON.stringify(line)}\n`);
    if (sync) fs.fdatasyncSync(this.fd);
    // A bridge that runs for weeks rewrites its journal now and then, as a start would.
    if (++this.written >= COMPACT_EVERY) {
      this.close();
      this.compact();
    }
  }

  private written = 0;

  private apply(line: Line): void {
    if (line.k === 'b') this.batches.set(line.batchId, { batchId: line.batchId, leaseUntil: line.leaseUntil, leaseSeconds: line.leaseSeconds ?? 0 });
    else if (line.k === 'm') this.messages.set(line.msgId, { msgId: line.msgId, batchId: line.batchId, itemId: line.itemId, phone: line.phone });
    else {
      const message = this.messages.get(line.msgId);
      if (!message) return;
      if (line.k === 'r') Object.assign(message, { reported: line.status, reportedAt: line.at, deliveryDone: line.status === 'failed' || message.itemId === null });
      else if (line.k === 'd') message.deliveryDone = true;
      else message.dropped = true;
    }
  }

  /** Rewrites the file with the open messages and their batches (atomically: a new file renamed over the old). */
  private compact(): void {
    this.written = 0;
    for (const [msgId, message] of this.messages) if (finished(message)) this.messages.delete(msgId);
    const wanted = new Set([...this.messages.values()].map((m) => m.batchId));
    for (const batchId of this.batches.keys()) if (!wanted.has(batchId)) this.batches.delete(batchId);
    const lines: Line[] = [...this.batches.values()].map((b) => ({ k: 'b' as const, ...b }));
    for (const m of this.messages.values()) {
      lines.push({ k: 'm', msgId: m.msgId, batchId: m.batchId, itemId: m.itemId, phone: m.phone });
      if (m.reported) lines.push({ k: 'r', msgId: m.msgId, status: m.reported, at: m.reportedAt ?? Date.now() });
    }
    const temporary = `${this.file}.tmp`;
    fs.writeFileSync(temporary, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    fs.renameSync(temporary, this.file);
  }
}

function finished(m: JournalMessage): boolean {
  return m.dropped === true || (m.reported !== undefined && m.deliveryDone === true);
}
