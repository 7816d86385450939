import type { DeviceReportResult, DeviceWaitReason } from '@huiyun/contract';

/** What a fleet of simulated devices did, as the server answered it. One object, updated live. */
export type FleetStats = {
  startedAt: number;
  endedAt: number | undefined;
  devices: number;
  /** Devices activated and still running. */
  active: number;
  /** Devices whose activation was refused (unknown, expired or taken code): they stopped. */
  refused: number;
  batches: number;
  /** Numbers handed out in batches (test-phone items not included). */
  handedOut: number;
  reports: number;
  /** From the report answers: applied now as sent / finally failed / back to pending, or ignored. */
  sent: number;
  failed: number;
  retrying: number;
  ignored: number;
  /** Reports sent a second time on purpose, and reports held until their lease had ended. */
  duplicateReports: number;
  lateReports: number;
  /** Entries of a deliberate repeat the server applied again: must stay 0 (reports are idempotent). */
  duplicatesApplied: number;
  /** Delivery reports sent (duplicates included) and what their answers counted. */
  deliveryReports: number;
  delivered: number;
  undelivered: number;
  deliveryIgnored: number;
  /** The last wait answer of each reason, counted. */
  waits: Partial<Record<DeviceWaitReason, number>>;
  heartbeats: number;
  /** Network errors and 5xx answers that were retried after a backoff. */
  retries: number;
  /** Refusals other than activation (4xx), with the last message. */
  errors: number;
  lastError: string;
  /** Round trips of answered calls, ms. */
  pullMs: number[];
  reportMs: number[];
};

export function newStats(devices: number): FleetStats {
  return {
    startedAt: Date.now(), endedAt: undefined, devices, active: 0, refused: 0, batches: 0, handedOut: 0, reports: 0,
    sent: 0, failed: 0, retrying: 0, ignored: 0, duplicateReports: 0, lateReports: 0, duplicatesApplied: 0,
    deliveryReports: 0, delivered: 0, undelivered: 0, deliveryIgnored: 0,
    waits: {}, heartbeats: 0, retries: 0, errors: 0, lastError: '', pullMs: [], reportMs: [],
  };
}

export function countReport(stats: FleetStats, answer: DeviceReportResult): void {
  stats.reports += 1;
  stats.sent += answer.sent;
  stats.failed += answer.failed;
  stats.retrying += answer.retrying;
  stats.ignored += answer.ignored;
}

/** Results the server applied (each sent, finally failed, or back to pending for another try). */
export const applied = (stats: FleetStats) => stats.sent + stats.failed + stats.retrying;

/** The q-quantile (0–1) of a list of ms, 0 when empty. */
export function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
