// Times are stored as epoch milliseconds and shown as 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai
// (UTC+8 all year, no daylight saving), whatever the server's own time zone.
const SHANGHAI_OFFSET_MS = 8 * 60 * 60 * 1000;

export function formatDateTime(epochMs: number | null | undefined): string {
  if (epochMs == null) return '';
  return new Date(epochMs + SHANGHAI_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** 'YYYY-MM-DD' of the Asia/Shanghai day holding the instant. */
export function shanghaiDay(epochMs: number): string {
  return new Date(epochMs + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}

/** Whole seconds (at least 1) until the next Asia/Shanghai midnight. */
export function secondsToNextShanghaiDay(epochMs: number): number {
  const dayMs = 24 * 60 * 60 * 1000;
  return Math.max(1, Math.ceil((dayMs - ((epochMs + SHANGHAI_OFFSET_MS) % dayMs)) / 1000));
}
