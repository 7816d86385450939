import { describe, expect, it } from 'vitest';
import { isInSendWindow, secondsToSendWindow } from './sendWindow.ts';

// 2026-11-28 00:00 Beijing = 2026-11-27 16:00 UTC; `at` builds an instant of that Beijing day.
const MIDNIGHT = Date.UTC(2026, 10, 27, 16);
const at = (h: number, m = 0, s = 0) => MIDNIGHT + ((h * 60 + m) * 60 + s) * 1000;
const day = { sendStartTime: '08:00', sendEndTime: '21:00' };
const night = { sendStartTime: '22:00', sendEndTime: '06:00' };

describe('sending window', () => {
  it('no window is always open', () => {
    expect(isInSendWindow({ sendStartTime: '', sendEndTime: '' }, at(3))).toBe(true);
    expect(secondsToSendWindow({ sendStartTime: '', sendEndTime: '' }, at(3))).toBe(0);
  });

  it('a day window: start inclusive, end exclusive; the wait runs to the next start', () => {
    expect([at(7, 59, 59), at(8), at(20, 59), at(21)].map((x) => isInSendWindow(day, x))).toEqual([false, true, true, false]);
    expect(secondsToSendWindow(day, at(7))).toBe(3600);
    expect(secondsToSendWindow(day, at(21))).toBe(11 * 3600);
    expect(secondsToSendWindow(day, at(12))).toBe(0);
  });

  it('a window across midnight is open late and early', () => {
    expect([at(21, 59), at(22), at(23, 30), at(0), at(5, 59), at(6), at(12)].map((x) => isInSendWindow(night, x)))
      .toEqual([false, true, true, true, true, false, false]);
    expect(secondsToSendWindow(night, at(12))).toBe(10 * 3600);
  });

  it('never answers a wait shorter than 30 seconds', () => {
    expect(secondsToSendWindow(day, at(7, 59, 50))).toBe(30);
    expect(secondsToSendWindow(day, at(7, 59, 0))).toBe(60);
  });
});
