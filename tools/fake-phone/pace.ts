// The fake phone's clock: every delay of the real app (a send, a delivery report, a webhook retry) goes through
// here, so speed 0 runs each step on the next tick (tests, the bench) and speed 1 keeps a real phone's pacing
// (the CLI demo); speed 10 is ten times faster than a phone. It also counts the work in flight, so a test can
// await the phone being idle instead of sleeping, and stop() drops every timer at once.

export type Random = () => number;

export class Pace {
  private readonly timers = new Set<NodeJS.Timeout | NodeJS.Immediate>();
  private busy = 0;
  private waiters: (() => void)[] = [];
  stopped = false;
  private readonly stopping = new AbortController();
  /** aborted by stop(): requests still in flight (a webhook post) end with it */
  readonly stopSignal = this.stopping.signal;
  /** called when the last work in flight ends (it may start more) */
  onIdle: (() => void) | undefined;

  readonly speed: number;
  readonly random: Random;

  constructor(speed: number, random: Random) {
    this.speed = speed;
    this.random = random;
  }

  /** Resolves after `ms` of a real phone's time (scaled by speed), or on the next tick at speed 0; never when stopped. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return;
      const done = () => {
        this.timers.delete(timer);
        resolve();
      };
      const timer = this.speed <= 0 ? setImmediate(done) : setTimeout(done, ms / this.speed);
      this.timers.add(timer);
    });
  }

  /** Resolves after `ms` of wall-clock time whatever the speed (a phone's hourly limit is not a delay to skip). */
  waitReal(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  /** A random real time between two bounds (ms). */
  between(min: number, max: number): number {
    return min + (max - min) * this.random();
  }

  chance(rate: number): boolean {
    return rate > 0 && this.random() < rate;
  }

  /** Runs work counted as in flight: whenIdle() waits for it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.busy++;
    return work.finally(() => {
      this.busy--;
      if (this.busy === 0) this.onIdle?.();
      if (this.busy === 0) for (const wake of this.waiters.splice(0)) setImmediate(wake);
    });
  }

  /** Resolves once nothing is in flight (re-checked a tick later: finished work may start more). */
  async whenIdle(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      if (this.busy === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.busy === 0) return;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  stop(): void {
    this.stopped = true;
    this.stopping.abort();
    for (const timer of this.timers) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    }
    this.timers.clear();
    for (const wake of this.waiters.splice(0)) wake();
  }
}

/** A seeded generator (mulberry32), so a test or a bench run can be repeated. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
