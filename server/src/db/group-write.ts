/**
 * Group commit for small hot writes: the calls made while one batch is written (or in the same turn
 * of the event loop) go together in the next, one statement and one commit for all of them. Each
 * caller still waits until its own row is committed, so nothing is acknowledged before it is stored.
 * One batch is written at a time; at most `max` items a batch.
 *
 * A commit is the dearest part of a small write (SQLite appends its pages to the WAL, PostgreSQL
 * flushes and answers a round trip): the terminal's nonces were three commits of a purchase
 * (docs/performance.md "Terminal flow").
 */
export class GroupWrite<T, R> {
  private queue: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private writing = false;
  private scheduled = false;
  private readonly write: (items: T[]) => Promise<R[]>;
  private readonly max: number;

  /** `write` stores the items and answers one result per item, in their order. */
  constructor(write: (items: T[]) => Promise<R[]>, max = 500) {
    this.write = write;
    this.max = max;
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.writing || this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    // after the I/O of this turn: the requests read together are written together
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.writing || this.queue.length === 0) return;
    this.writing = true;
    const batch = this.queue.splice(0, this.max);
    try {
      const results = await this.write(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results[i]!));
    } catch (error) {
      for (const b of batch) b.reject(error);
    } finally {
      this.writing = false;
      this.schedule();
    }
  }
}
