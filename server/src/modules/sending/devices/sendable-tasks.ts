import {
  canSendShowType, capabilitiesOf, DeviceWaitReason, fill, isInSendWindow, messages, secondsToSendWindow, type SendWindow,
} from '@huiyun/contract';

const m = messages.device;

/** Seconds a device waits when none of its running tasks is of a type it can send (a task may be edited meanwhile). */
export const UNSUPPORTED_RETRY_SECONDS = 300;

export type Wait = { reason: DeviceWaitReason; message: string; retryAfterSeconds: number };

/**
 * The running tasks a device may get a batch of now: of a type it can send (its declared capabilities)
 * and inside their sending window. When none is left, the reason to wait: unsupportedType when it can
 * send none of them; outsideWindow (the window that opens first, and when) when those it can send are
 * all closed now.
 */
export function sendableTasks<T extends SendWindow & { showType: number }>(
  running: T[], storedCapabilities: string | null, now: number,
): { tasks: T[]; wait: Wait | null } {
  const capabilities = capabilitiesOf(storedCapabilities);
  const supported = running.filter((t) => canSendShowType(capabilities, t.showType));
  if (supported.length === 0) {
    return { tasks: [], wait: { reason: DeviceWaitReason.unsupportedType, message: m.waitUnsupportedType, retryAfterSeconds: UNSUPPORTED_RETRY_SECONDS } };
  }
  const open = supported.filter((t) => isInSendWindow(t, now));
  if (open.length > 0) return { tasks: open, wait: null };
  let first = supported[0];
  let seconds = secondsToSendWindow(first, now);
  for (const task of supported.slice(1)) {
    const s = secondsToSendWindow(task, now);
    if (s < seconds) [first, seconds] = [task, s];
  }
  return {
    tasks: [],
    wait: {
      reason: DeviceWaitReason.outsideWindow,
      message: fill(m.waitOutsideWindow, { start: first.sendStartTime, end: first.sendEndTime }),
      retryAfterSeconds: seconds,
    },
  };
}
