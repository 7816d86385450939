// Warnings about what strangers send (unsigned or unknown payment notifications): anyone can send them, as
// often as they like, so each kind is logged once per interval, and that line counts the ones held back since
// the one before. Nothing of it reaches the database (docs/terminal-protocol.md §4).

type WarnLog = { warn: (obj: object, msg: string) => void };

export class ThrottledWarnings {
  private readonly last = new Map<string, { at: number; heldBack: number }>();

  private readonly now: () => number;
  private readonly everyMs: number;

  constructor(now: () => number, everyMs = 60_000) {
    this.now = now;
    this.everyMs = everyMs;
  }

  /** Logs `msg` unless this kind was logged less than an interval ago (then it is only counted). */
  warn(log: WarnLog | undefined, kind: string, fields: object, msg: string): void {
    const now = this.now();
    const last = this.last.get(kind);
    if (last && now - last.at < this.everyMs) {
      last.heldBack++;
      return;
    }
    log?.warn({ alarm: kind, ...fields, heldBack: last?.heldBack ?? 0 }, msg);
    this.last.set(kind, { at: now, heldBack: 0 });
  }
}
