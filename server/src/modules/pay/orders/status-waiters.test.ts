import { describe, expect, it, vi } from 'vitest';
import { moveClock, orderMoved, orderMovedSince, orderMoveOrTimeout } from './status-waiters.ts';

describe('order status waiters', () => {
  it('wakes every poll waiting on the order that moved, and only those', async () => {
    let other = false;
    void orderMoveOrTimeout(902, 60_000).then(() => void (other = true));
    const waits = [orderMoveOrTimeout(901, 60_000), orderMoveOrTimeout(901, 60_000)];
    orderMoved(901);
    await Promise.all(waits); // a missed wake would leave this to the test's own timeout
    expect(other).toBe(false);
    orderMoved(902);
    await Promise.resolve();
    expect(other).toBe(true);
  });

  it('ends a wait on its own when nothing moves, at its time and not before; a wake clears its timer', async () => {
    vi.useFakeTimers();
    try {
      let ended = false;
      const wait = orderMoveOrTimeout(903, 60_000).then(() => void (ended = true));
      await vi.advanceTimersByTimeAsync(59_999);
      expect(ended).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(ended).toBe(true);
      await wait;
      expect(vi.getTimerCount()).toBe(0);
      orderMoved(903); // nobody waits any more: nothing to wake, nothing thrown
      // woken before its time: its timer goes with it
      const woken = orderMoveOrTimeout(903, 60_000);
      expect(vi.getTimerCount()).toBe(1);
      orderMoved(903);
      await woken;
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells a poll that its order moved between its read and its wait (the wake it would have missed)', () => {
    const since = moveClock();
    expect(orderMovedSince(904, since)).toBe(false);
    orderMoved(905);
    expect(orderMovedSince(904, since)).toBe(false);
    orderMoved(904);
    expect(orderMovedSince(904, since)).toBe(true);
    expect(orderMovedSince(904, moveClock())).toBe(false); // read again after the move: nothing new
  });
});
