import { describe, expect, it } from 'vitest';
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

  it('ends a wait on its own when nothing moves', async () => {
    await orderMoveOrTimeout(903, 1);
    orderMoved(903); // nobody waits any more: nothing to wake
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
