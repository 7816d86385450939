// The top-10s of 数据可视化 kept a short while per server instance (CHARTS_RANK_CACHE_SECONDS; 0: never kept).
// They are the one part of a chart that ranks every terminal or goods of the span — tens of thousands of
// rollup rows for a year of a large fleet — and the one part that need not be up to the second: the
// series, the cards and the shares are always read afresh. Keyed by all that selects them (scope, filters,
// span); requests that miss together share one computation; at most MAX_KEYS kept, the oldest dropped.

const MAX_KEYS = 500;

export type RankCache = <T>(key: string, compute: () => Promise<T>) => Promise<T>;

export function rankCache(ttlMs: number, now: () => number): RankCache {
  const kept = new Map<string, { until: number; value: Promise<unknown> }>();
  return <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    if (ttlMs <= 0) return compute();
    const hit = kept.get(key);
    if (hit && hit.until > now()) return hit.value as Promise<T>;
    kept.delete(key);
    if (kept.size >= MAX_KEYS) kept.delete(kept.keys().next().value!);
    const entry = { until: now() + ttlMs, value: compute() };
    kept.set(key, entry);
    entry.value.catch(() => kept.get(key) === entry && kept.delete(key)); // a failure is not kept
    return entry.value;
  };
}
