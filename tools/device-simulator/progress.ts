import { applied, percentile, type FleetStats } from './stats.ts';

// The simulator's live line and final summary: plain functions of the stats, so they are tested alone.

const n = (value: number) => value.toLocaleString('en-US');

/** One line: devices, what the server applied, batches, throughput, and trouble when there is any. */
export function formatProgress(stats: FleetStats, numbersPerSecond: number): string {
  const parts = [
    `devices ${stats.active}/${stats.devices} active`,
    `sent ${n(stats.sent)}`,
    `failed ${n(stats.failed)}`,
    `delivered ${n(stats.delivered)}`,
    `ignored ${n(stats.ignored)}`,
    `batches ${n(stats.batches)}`,
    `${n(Math.round(numbersPerSecond))} numbers/s`,
  ];
  if (stats.refused > 0) parts.push(`refused ${stats.refused}`);
  if (stats.retries > 0) parts.push(`retries ${n(stats.retries)}`);
  if (stats.errors > 0) parts.push(`errors ${n(stats.errors)}`);
  return parts.join(' · ');
}

/** Numbers per second between two looks at the stats. */
export class RateMeter {
  private last: { at: number; count: number };
  constructor(stats: FleetStats, at = Date.now()) {
    this.last = { at, count: applied(stats) };
  }
  sample(stats: FleetStats, at = Date.now()): number {
    const count = applied(stats);
    const seconds = (at - this.last.at) / 1000;
    const rate = seconds > 0 ? (count - this.last.count) / seconds : 0;
    this.last = { at, count };
    return rate;
  }
}

export function formatSummary(stats: FleetStats): string {
  const seconds = ((stats.endedAt ?? Date.now()) - stats.startedAt) / 1000;
  const waits = Object.entries(stats.waits).map(([reason, count]) => `${reason} ${n(count)}`).join(', ') || 'none';
  const ms = (values: number[]) => `p50 ${percentile(values, 0.5).toFixed(1)} ms, p95 ${percentile(values, 0.95).toFixed(1)} ms`;
  const lines = [
    `Ran ${seconds.toFixed(1)} s with ${stats.devices} devices (${stats.refused} refused at activation).`,
    `  batches ${n(stats.batches)}, numbers handed out ${n(stats.handedOut)}, reports ${n(stats.reports)}`,
    `  sent ${n(stats.sent)}, failed for good ${n(stats.failed)}, to retry ${n(stats.retrying)}, ignored ${n(stats.ignored)}`,
    `  delivery reports ${n(stats.deliveryReports)}: delivered ${n(stats.delivered)}, undelivered ${n(stats.undelivered)}, ignored ${n(stats.deliveryIgnored)}`,
    `  ${n(Math.round(applied(stats) / Math.max(seconds, 0.001)))} numbers/s on average`,
    `  duplicate reports ${n(stats.duplicateReports)} (entries applied twice: ${n(stats.duplicatesApplied)}), late reports ${n(stats.lateReports)}`,
    `  pull ${ms(stats.pullMs)}; report ${ms(stats.reportMs)}`,
    `  waits: ${waits}; heartbeats ${n(stats.heartbeats)}; retried calls ${n(stats.retries)}; refusals ${n(stats.errors)}`,
  ];
  if (stats.lastError) lines.push(`  last error: ${stats.lastError}`);
  return lines.join('\n');
}
