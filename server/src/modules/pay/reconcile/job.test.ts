import { describe, expect, it } from 'vitest';
import { shanghaiDayStart } from '@huiyun/contract';
import { loadConfig } from '../../../config.ts';
import { msUntilNext, pastTodaysTime, yesterdayOf } from './job.ts';

// When the daily 对账 runs: HH:mm on a Beijing clock and yesterday's Beijing day, whatever the server's TZ.

const MIN = 60_000;
const day = shanghaiDayStart('2026-03-10')!;

describe('the daily 对账 job', () => {
  it('waits for the next HH:mm Beijing time and runs for the Beijing day before', () => {
    const tz = process.env.TZ;
    try {
      for (const zone of ['UTC', 'America/Los_Angeles', 'Asia/Shanghai']) {
        process.env.TZ = zone;
        expect(msUntilNext('10:30', day)).toBe(630 * MIN);
        expect(msUntilNext('10:30', day + 630 * MIN)).toBe(24 * 60 * MIN); // at 10:30 the next one is tomorrow's
        expect(msUntilNext('10:30', day + 631 * MIN)).toBe((24 * 60 - 1) * MIN);
        expect(msUntilNext('00:00', day + 23 * 60 * MIN)).toBe(60 * MIN);
        expect(pastTodaysTime('10:30', day + 630 * MIN - 1)).toBe(false);
        expect(pastTodaysTime('10:30', day + 630 * MIN)).toBe(true);
        expect(yesterdayOf(day)).toBe('2026-03-09'); // 00:00 Beijing
        expect(yesterdayOf(day + 24 * 60 * MIN - 1)).toBe('2026-03-09'); // 23:59:59.999 Beijing
      }
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('reads PAY_RECONCILE_AT as HH:mm, 10:30 by default, and refuses anything else', () => {
    expect(loadConfig({}).pay.reconcileAt).toBe('10:30');
    expect(loadConfig({ PAY_RECONCILE_AT: '02:05' }).pay.reconcileAt).toBe('02:05');
    for (const bad of ['24:00', '9:30', '10:60', 'half past ten']) expect(() => loadConfig({ PAY_RECONCILE_AT: bad }), bad).toThrow(/PAY_RECONCILE_AT: must be HH:mm/);
  });
});
