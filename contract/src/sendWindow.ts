// A task's sending window (发送时段): "HH:mm" start and end in Beijing time (Asia/Shanghai, UTC+8 all
// year). Both empty: any time. start > end: a window across midnight (22:00–06:00). Equal: refused at save.
// One truth for the save's check, the pull (no batch outside the window) and the task list's hint.

const SHANGHAI_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_SECONDS = 24 * 60 * 60;
/** The shortest wait a pull answers for a closed window: a device asks again at least this much later. */
export const SEND_WINDOW_MIN_RETRY_SECONDS = 30;
/** What the console's 新增任务 pre-fills: the strictest of the vendors' marketing-SMS windows. */
export const SEND_WINDOW_DEFAULT = { start: '08:00', end: '21:00' } as const;

export const SEND_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export type SendWindow = { sendStartTime: string; sendEndTime: string };

/** Seconds after Beijing midnight of "HH:mm". */
function secondsOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 3600 + m * 60;
}

/** Whether the task has a window at all (both times set). */
export const hasSendWindow = (w: SendWindow) => w.sendStartTime !== '' && w.sendEndTime !== '';

/** Seconds (fractional) since Beijing midnight of the instant. */
function beijingSecondOfDay(epochMs: number): number {
  const ms = (epochMs + SHANGHAI_OFFSET_MS) % (DAY_SECONDS * 1000);
  return (ms < 0 ? ms + DAY_SECONDS * 1000 : ms) / 1000;
}

/** Whether the window is open at the instant; always with no window. Start inclusive, end exclusive. */
export function isInSendWindow(w: SendWindow, epochMs: number): boolean {
  if (!hasSendWindow(w)) return true;
  const now = beijingSecondOfDay(epochMs);
  const start = secondsOfDay(w.sendStartTime);
  const end = secondsOfDay(w.sendEndTime);
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/** Whole seconds until the window next opens (at least SEND_WINDOW_MIN_RETRY_SECONDS); 0 when it is open now. */
export function secondsToSendWindow(w: SendWindow, epochMs: number): number {
  if (isInSendWindow(w, epochMs)) return 0;
  const wait = (secondsOfDay(w.sendStartTime) - beijingSecondOfDay(epochMs) + DAY_SECONDS) % DAY_SECONDS;
  return Math.max(SEND_WINDOW_MIN_RETRY_SECONDS, Math.ceil(wait));
}
