// The upload's distinct-number check: repeats within a file, and numbers a task already holds.
import { MIN_SENDABLE_NUMBER } from '@huiyun/contract/carriers';

/**
 * A set of sendable numbers (13000000000 ≤ n < 20000000000) with no per-entry allocation, unlike
 * Set<number>, whose keys above 2^31 are each a heap number (measured 3–4× slower at a million).
 * n − 13e9 takes 33 bits, so the numbers are split by parity into two linear-probing tables of
 * 32-bit keys ⌊(n − 13e9) / 2⌋ + 1 (0 marks an empty slot): 4 bytes a slot, half a Float64Array's
 * cache misses; about 8 MB at a million numbers.
 */
export class NumberSet {
  private readonly even = new KeyTable();
  private readonly odd = new KeyTable();

  get size(): number {
    return this.even.size + this.odd.size;
  }

  /** false when `n` was already there. */
  add(n: number): boolean {
    const offset = n - MIN_SENDABLE_NUMBER;
    const key = Math.floor(offset / 2) + 1;
    return offset % 2 === 0 ? this.even.add(key) : this.odd.add(key);
  }

  has(n: number): boolean {
    const offset = n - MIN_SENDABLE_NUMBER;
    const key = Math.floor(offset / 2) + 1;
    return offset % 2 === 0 ? this.even.has(key) : this.odd.has(key);
  }
}

class KeyTable {
  private slots = new Uint32Array(1 << 14);
  private mask = (1 << 14) - 1;
  size = 0;

  add(key: number): boolean {
    const slots = this.slots;
    const mask = this.mask;
    let i = hashKey(key) & mask;
    for (;;) {
      const held = slots[i];
      if (held === 0) break;
      if (held === key) return false;
      i = (i + 1) & mask;
    }
    slots[i] = key;
    this.size += 1;
    if (this.size * 10 > slots.length * 7) this.grow();
    return true;
  }

  has(key: number): boolean {
    let i = hashKey(key) & this.mask;
    for (;;) {
      const held = this.slots[i];
      if (held === 0) return false;
      if (held === key) return true;
      i = (i + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Uint32Array(old.length * 2);
    const mask = slots.length - 1;
    for (let j = 0; j < old.length; j += 1) {
      const key = old[j];
      if (key === 0) continue;
      let i = hashKey(key) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = key;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

function hashKey(key: number): number {
  let h = Math.imul(key, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  return h ^ (h >>> 15);
}
