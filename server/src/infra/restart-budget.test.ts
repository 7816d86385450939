import { describe, expect, it } from 'vitest';
import { restartBudget } from './restart-budget.ts';

describe('restartBudget', () => {
  it('allows `limit` restarts in a window, refuses the next, and allows again once the oldest leaves the window', () => {
    const budget = restartBudget(3, 60_000);
    expect([0, 1_000, 2_000].map((t) => budget.allow(t))).toEqual([true, true, true]);
    expect(budget.allow(59_999)).toBe(false);
    expect(budget.allow(60_000)).toBe(true); // the restart at 0 is a minute old
    expect(budget.allow(60_001)).toBe(false);
  });

  it('does not count a refused restart', () => {
    const budget = restartBudget(1, 10);
    expect(budget.allow(0)).toBe(true);
    for (let t = 1; t < 10; t++) expect(budget.allow(t)).toBe(false);
    expect(budget.allow(10)).toBe(true);
  });
});
