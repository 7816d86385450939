import { describe, expect, it } from 'vitest';
import { batteryText, capabilitiesText, deviceStatusBadges, deviceStatusOf, signalText } from './deviceStatus.ts';

describe('deviceStatusOf', () => {
  it('is online when the server says so', () => {
    expect(deviceStatusOf({ online: true, lastSeenStr: '2026-01-01 10:00:00' })).toBe('online');
  });
  it('is offline when seen once but not lately', () => {
    expect(deviceStatusOf({ online: false, lastSeenStr: '2026-01-01 10:00:00' })).toBe('offline');
  });
  it('is never seen when activated but it made no call since', () => {
    expect(deviceStatusOf({ online: false, lastSeenStr: '' })).toBe('neverSeen');
  });
  it('shows online green, the others grey, with the contract texts', () => {
    expect(deviceStatusBadges.online).toEqual({ status: 'success', text: '在线' });
    expect(deviceStatusBadges.offline).toEqual({ status: 'default', text: '离线' });
    expect(deviceStatusBadges.neverSeen).toEqual({ status: 'default', text: '未上线' });
  });
});

describe('battery and signal', () => {
  it('shows a dash for what the device never reported', () => {
    expect(batteryText(null)).toBe('-');
    expect(signalText(null)).toBe('-');
  });
  it('shows a percentage and a level out of 5, zero included', () => {
    expect(batteryText(0)).toBe('0%');
    expect(batteryText(87)).toBe('87%');
    expect(signalText(4)).toBe('4/5');
  });
});

describe('发送能力', () => {
  it('is 全部 for a device that sends every type, else the types it sends', () => {
    expect(capabilitiesText(['text', 'image', 'file', 'contact', 'schedule'])).toBe('全部');
    expect(capabilitiesText(['text'])).toBe('文字');
    expect(capabilitiesText(['text', 'image'])).toBe('文字 / 图片');
  });
});
