// Long polls of order/status wait here for their order to move (docs/terminal-protocol.md §3). Every
// transition made by this process wakes the polls of its order at once (state-machine.ts); a move made
// by another server instance wakes them when its announcement arrives (Redis, order/move-relay.ts), or
// is seen by the next read, at most `ms` later, should it be lost; one made in this process
// between a poll's read and its wait is seen at once (orderMovedSince). Reading the order every 250 ms instead cost one SELECT per waiting machine four times a
// second: with 1,000 machines waiting for their customers, most of the server's work (docs/performance.md,
// "Terminal flow"). Keyed by orderId for the whole process: a wake for another database's order of the
// same id (tests run several apps in one process) costs that poll one more read.

const waiting = new Map<number, Set<() => void>>();

// The orders that moved in this process in the last MOVES_KEPT_MS, with when (oldest first): a poll
// that read its order just before a move — and so would wait for a wake already given — sees it here.
const MOVES_KEPT_MS = 60_000;
const moves = new Map<number, { tick: number; time: number }>();
let tick = 0;

/** A point in this process's sequence of moves: take it before reading an order. */
export function moveClock(): number {
  return tick;
}

/** True when `orderId` moved in this process after `since` (a moveClock() taken before the read). */
export function orderMovedSince(orderId: number, since: number): boolean {
  return (moves.get(orderId)?.tick ?? 0) > since;
}

/** Resolves when `orderId` moves in this process, or after `ms`. */
export function orderMoveOrTimeout(orderId: number, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let set = waiting.get(orderId);
    if (!set) waiting.set(orderId, (set = new Set()));
    const waiters = set;
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      if (waiters.size === 0 && waiting.get(orderId) === waiters) waiting.delete(orderId);
      resolve();
    };
    const timer = setTimeout(done, ms);
    waiters.add(done);
  });
}

/** Where this process announces its moves to other server instances (order/move-relay.ts, with REDIS_URL). */
const announcers = new Set<(orderId: number) => void>();

/** Announces this process's moves made with `announce: true` through `announce` from now on; answers how to stop. */
export function announceMovesTo(announce: (orderId: number) => void): () => void {
  announcers.add(announce);
  return () => void announcers.delete(announce);
}

/** Wakes the polls waiting on `orderId` (they read the order again) here and, when `announce`, in other instances. */
export function orderMoved(orderId: number, options: { announce?: boolean } = {}): void {
  orderMovedElsewhere(orderId);
  if (options.announce) for (const announce of announcers) announce(orderId);
}

/** A move another instance announced (and the local part of every move): this process's polls of the order read it again. */
export function orderMovedElsewhere(orderId: number): void {
  const time = Date.now();
  moves.delete(orderId);
  moves.set(orderId, { tick: ++tick, time });
  for (const [id, move] of moves) {
    if (move.time >= time - MOVES_KEPT_MS) break;
    moves.delete(id);
  }
  const set = waiting.get(orderId);
  if (set) for (const wake of [...set]) wake();
}
