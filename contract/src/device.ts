import { z } from 'zod';
import { device as m } from './messages.ts';
import { pageNumQuery } from './authcode.ts';
import { optionalText } from './fields.ts';

// The device protocol (docs/device-protocol.md): what a sending device sends to /device/v1/* and
// what it gets back, inside the product's one envelope ({ success, msg, errorInfo, data }).

export const DEVICE_API_PREFIX = '/device/v1';
/** A device seen within this many seconds counts as online in the device list. */
export const DEVICE_ONLINE_SECONDS = 120;
/** The most results one report may carry (a batch is at most this large too). */
export const DEVICE_REPORT_MAX = 1000;

const MACHINE_CODE_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

// Control characters: NUL (which PostgreSQL cannot store in text) and the rest of C0, DEL, C1. Tab and
// line breaks read as a space; a lone surrogate as U+FFFD (what the driver would write anyway).
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LINE_BREAKS = /[\t\n\r]+/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A device's text made storable: control characters dropped, trimmed, cut to `max` characters (code points, as the column counts). */
export function cleanDeviceText(text: string, max: number): string {
  const clean = text.replace(LINE_BREAKS, ' ').replace(CONTROL, '').replace(LONE_SURROGATE, '\uFFFD').trim();
  return clean.length <= max ? clean : Array.from(clean).slice(0, max).join('').trim();
}

/**
 * A device's free text (a failure reason, an app version): never a reason to refuse the call it rides
 * in — a report refused for its reason would leave every other result uncounted and the numbers sent
 * again by another device (issue 12, D2). Cleaned (cleanDeviceText); anything but a string is empty.
 */
const deviceFreeText = (max: number) => z.preprocess((v) => (typeof v === 'string' ? cleanDeviceText(v, max) : ''), z.string());

export const deviceActivateRequest = z.object({
  authCode: z
    .string({ error: m.authCodeRequired })
    .trim()
    .min(1, m.authCodeRequired)
    .max(32, m.authCodeInvalid)
    .transform((v) => v.toUpperCase())
    // What a code can be (authcode.ts); anything else is no code (and no control character reaches the database).
    .pipe(z.string().regex(/^[A-Z0-9-]+$/, m.authCodeInvalid)),
  machineCode: z.string({ error: m.machineCodeRequired }).trim().min(1, m.machineCodeRequired).regex(MACHINE_CODE_PATTERN, m.machineCodeFormat),
  machineName: z
    .string({ error: m.machineNameRequired })
    .transform((v) => cleanDeviceText(v, Infinity))
    .pipe(z.string().min(1, m.machineNameRequired).max(100, m.machineNameTooLong)),
});
export type DeviceActivateRequest = z.infer<typeof deviceActivateRequest>;

export type DeviceActivation = {
  /** Send as `Authorization: Bearer <deviceToken>` on every other call. */
  deviceToken: string;
  machineCode: string;
  machineName: string;
  userName: string;
  dueNum: number;
  dueDateStr: string;
};

/** Why a pull answered no batch; the device shows `message` and asks again after retryAfterSeconds. */
export const DeviceWaitReason = {
  noTask: 'noTask',
  taskPaused: 'taskPaused',
  taskCompleted: 'taskCompleted',
  noPending: 'noPending',
  dailyCap: 'dailyCap',
  quotaUsedUp: 'quotaUsedUp',
  codeExpired: 'codeExpired',
} as const;
export type DeviceWaitReason = (typeof DeviceWaitReason)[keyof typeof DeviceWaitReason];

export type DeviceBatchItem = {
  /** The number's id, to report under; null for the task's test phone (nothing to report). */
  id: number | null;
  phone: string;
  /** The text to send to this number, the random-number rule already applied. */
  content: string;
  test: boolean;
};

export type DeviceBatch = {
  batchId: string;
  taskId: number;
  taskName: string;
  showType: number;
  imgUrl: string;
  fileName: string;
  /** Where the device downloads the task's image or file (with its device token). */
  fileUrl: string;
  qrUrl: string;
  intervalSeconds: number;
  clearNum: number;
  /** Report before this instant (epoch ms); unreported numbers then go back to pending. */
  leaseUntil: number;
  leaseSeconds: number;
  items: DeviceBatchItem[];
};

export type DevicePull =
  | { batch: DeviceBatch; wait: null }
  | { batch: null; wait: { reason: DeviceWaitReason; message: string; retryAfterSeconds: number } };

export const DeviceResultStatus = { sent: 'sent', failed: 'failed' } as const;

export const deviceReportRequest = z.object({
  // Ids the server made (`b_` and hex); anything else names no batch (and no control character reaches the database).
  batchId: z.string({ error: m.batchIdRequired }).trim().min(1, m.batchIdRequired).max(40, m.batchIdRequired).regex(/^[\w-]+$/, m.batchIdRequired),
  results: z
    .array(
      z.object({
        id: z.coerce.number({ error: m.resultsRequired }).int(m.resultsRequired).positive(m.resultsRequired),
        status: z.enum([DeviceResultStatus.sent, DeviceResultStatus.failed], { error: m.resultStatusInvalid }),
        /** sync_task_number.failReason is varchar(200). */
        reason: deviceFreeText(200),
      }),
      { error: m.resultsRequired },
    )
    .min(1, m.resultsRequired)
    .max(DEVICE_REPORT_MAX, m.resultsTooMany.replace('{max}', String(DEVICE_REPORT_MAX))),
});
export type DeviceReportRequest = z.infer<typeof deviceReportRequest>;

/** What a report changed: sent and failed count what was applied now; ignored were repeats or no longer this batch's. */
export type DeviceReportResult = { sent: number; failed: number; retrying: number; ignored: number; taskCompleted: boolean };

export const deviceHeartbeatRequest = z.object({
  battery: z.coerce.number().int().min(0).max(100).optional().catch(undefined),
  signal: z.coerce.number().int().min(0).max(5).optional().catch(undefined),
  appVersion: deviceFreeText(32),
});
export type DeviceHeartbeatRequest = z.infer<typeof deviceHeartbeatRequest>;

export const deviceFileQuery = z.object({ filePath: z.string().min(1).max(500).refine((v) => !/[\u0000-\u001F\u007F-\u009F]/.test(v)) });

// The console's device list (reachable from 授权码列表).
export const deviceListQuery = pageNumQuery.extend({ machineName: optionalText(100) });
export type DeviceListQuery = z.infer<typeof deviceListQuery>;

export type DeviceRow = {
  authCodeId: number;
  authCode: string;
  machineCode: string;
  machineName: string;
  userName: string;
  online: boolean;
  lastSeenStr: string;
  activatedAtStr: string;
  sentToday: number;
  leased: number;
  battery: number | null;
  signal: number | null;
  appVersion: string;
  dueNum: number;
  dueDateStr: string;
};
