import { describe, expect, it } from 'vitest';
import { rankCache } from './rank-cache.ts';

// The top-10s kept per instance: the same key within the time kept is computed once (also when asked
// together), again once the time passed; another key, 0 seconds or a failure is computed anew.

describe('rankCache', () => {
  it('keeps a computation for its time, per key', async () => {
    let now = 1_000;
    let computed = 0;
    const ranks = rankCache(30_000, () => now);
    const compute = async () => ++computed;
    expect(await Promise.all([ranks('a', compute), ranks('a', compute)])).toEqual([1, 1]);
    now += 29_999;
    expect(await ranks('a', compute)).toBe(1);
    expect(await ranks('b', compute)).toBe(2);
    now += 1;
    expect(await ranks('a', compute)).toBe(3);
  });

  it('computes every time at 0 seconds, and keeps no failure', async () => {
    let computed = 0;
    const off = rankCache(0, () => 0);
    await off('a', async () => ++computed);
    await off('a', async () => ++computed);
    expect(computed).toBe(2);
    const ranks = rankCache(30_000, () => 0);
    await expect(ranks('a', () => Promise.reject(new Error('读失败')))).rejects.toThrow('读失败');
    expect(await ranks('a', async () => 'again')).toBe('again');
  });
});
