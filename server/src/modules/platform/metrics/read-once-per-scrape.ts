// The gauges of a scrape that show parts of one read share it: prom-client starts every metric's collect in
// one go (registry getMetricsAsJSON), so all of them ask before the read ends, and the next scrape reads afresh.
export function readOncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | undefined;
  return () => (reading ??= read().finally(() => { reading = undefined; }));
}
