import { describe, expect, it } from 'vitest';
import { readOncePerScrape } from './read-once-per-scrape.ts';

describe('readOncePerScrape', () => {
  it('gives the gauges of one scrape one read, and the next scrape a fresh one', async () => {
    let reads = 0;
    const read = readOncePerScrape(async () => ++reads);
    expect(await Promise.all([read(), read(), read(), read()])).toEqual([1, 1, 1, 1]);
    expect(await Promise.all([read(), read()])).toEqual([2, 2]);
    expect(reads).toBe(2);
  });

  it('reads afresh after a failed read', async () => {
    let reads = 0;
    const read = readOncePerScrape(async () => {
      reads += 1;
      if (reads === 1) throw new Error('database away');
      return reads;
    });
    await expect(Promise.all([read(), read()])).rejects.toThrow('database away');
    expect(await read()).toBe(2);
  });
});
