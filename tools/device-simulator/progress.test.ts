import { describe, expect, it } from 'vitest';
import { formatProgress, formatSummary, RateMeter } from './progress.ts';
import { defaultMachinePrefix } from './run-devices.ts';
import { newStats, percentile } from './stats.ts';

describe('progress', () => {
  it('shows devices, what the server applied, batches and throughput; trouble only when there is some', () => {
    const stats = { ...newStats(5), active: 4, sent: 12345, failed: 6, ignored: 7, batches: 89, delivered: 12000 };
    expect(formatProgress(stats, 1234.4)).toBe('devices 4/5 active · sent 12,345 · failed 6 · delivered 12,000 · ignored 7 · batches 89 · 1,234 numbers/s');
    expect(formatProgress({ ...stats, refused: 1, retries: 2, errors: 3 }, 0)).toMatch(/· refused 1 · retries 2 · errors 3$/);
  });

  it('measures numbers per second between two samples', () => {
    const stats = newStats(1);
    const meter = new RateMeter(stats, 1000);
    Object.assign(stats, { sent: 300, failed: 20, retrying: 80 });
    expect(meter.sample(stats, 3000)).toBe(200);
    expect(meter.sample(stats, 4000)).toBe(0);
  });

  it('sums a run up', () => {
    const stats = { ...newStats(2), startedAt: 0, endedAt: 10_000, sent: 900, failed: 50, retrying: 50, pullMs: [1, 2, 3, 4], waits: { noPending: 3 } };
    const summary = formatSummary(stats);
    expect(summary).toContain('Ran 10.0 s with 2 devices');
    expect(summary).toContain('100 numbers/s on average');
    expect(summary).toContain('pull p50 3.0 ms, p95 4.0 ms; report p50 0.0 ms');
    expect(summary).toContain('waits: noPending 3');
  });
});

describe('helpers', () => {
  it('makes a machine-code prefix of any hostname', () => {
    expect(defaultMachinePrefix('build-01.local')).toBe('sim-build-01.local');
    expect(defaultMachinePrefix('开发机 1')).toBe('sim-----1');
    expect(defaultMachinePrefix('x'.repeat(80))).toHaveLength(52);
  });

  it('takes percentiles of latencies', () => {
    expect(percentile([], 0.5)).toBe(0);
    expect(percentile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(percentile([5, 1, 3, 2, 4], 0.95)).toBe(5);
  });
});
