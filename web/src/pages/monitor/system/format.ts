import { fill, messages } from '@huiyun/contract';

// How 监控查询 writes its figures: bytes in B…TB, an uptime as [N 天 ]HH:mm:ss, a dash for a figure not known.

export const bytes = (n: number | null | undefined) => {
  if (n == null) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
};

export const duration = (seconds: number) => {
  const days = Math.floor(seconds / 86_400);
  const hms = new Date((seconds % 86_400) * 1000).toISOString().slice(11, 19);
  return `${days > 0 ? fill(messages.systemMonitor.days, { days }) : ''}${hms}`;
};

export const orDash = (n: number | null | undefined) => (n == null ? '—' : String(n));
