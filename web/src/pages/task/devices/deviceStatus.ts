import { ALL_CAPABILITIES, deviceCapabilityOptions, labelOf, messages, type DeviceRow } from '@huiyun/contract';

const m = messages.device;

export type DeviceStatus = 'online' | 'offline' | 'neverSeen';

/** Online when seen lately (the server decides), never seen when it has made no call since activation. */
export function deviceStatusOf(row: Pick<DeviceRow, 'online' | 'lastSeenStr'>): DeviceStatus {
  if (row.online) return 'online';
  return row.lastSeenStr ? 'offline' : 'neverSeen';
}

/** What the 状态 column shows: an antd Badge status and its text. */
export const deviceStatusBadges: Record<DeviceStatus, { status: 'success' | 'default'; text: string }> = {
  online: { status: 'success', text: m.online },
  offline: { status: 'default', text: m.offline },
  neverSeen: { status: 'default', text: m.neverSeen },
};

/** 发送能力: 全部 when it can send every type, else the types (文字 / 图片). */
export const capabilitiesText = (capabilities: DeviceRow['capabilities']) =>
  ALL_CAPABILITIES.every((c) => capabilities.includes(c)) ? m.capabilitiesAll : capabilities.map((c) => labelOf(deviceCapabilityOptions, c)).join(' / ');

/** '87%' — or '-' for a device that never reported it. */
export const batteryText = (battery: number | null) => (battery == null ? '-' : `${battery}%`);
/** '4/5' — or '-' for a device that never reported it. */
export const signalText = (signal: number | null) => (signal == null ? '-' : `${signal}/5`);
