import { z } from 'zod';
import { common, device as m } from './messages.ts';
import { pageNumQuery } from './authcode.ts';
import { cleanDeviceText, deviceText, idOf, optionalText, typedText } from './fields.ts';
import { DeliveryState, DeviceCapability, ShowType } from './enums.ts';
import type * as syncAnswers from './responses/sync.ts';
import { DeviceWaitReason } from './enums.ts';
export { DeviceWaitReason };

// The device protocol (docs/device-protocol.md): what a sending device sends to /device/v1/* and
// what it gets back, inside the product's one envelope ({ success, msg, errorInfo, data }).

export const DEVICE_API_PREFIX = '/device/v1';
/**
 * A device seen within this many seconds counts as online in the device list: devices heartbeat every
 * DEVICE_HEARTBEAT_SECONDS while idle, so a phone gone quiet shows 离线 within a minute.
 */
export const DEVICE_ONLINE_SECONDS = 60;
/** How often an idle device heartbeats (the simulator, the phone bridge). */
export const DEVICE_HEARTBEAT_SECONDS = 20;
/** The most results one report may carry (a batch is at most this large too). */
export const DEVICE_REPORT_MAX = 1000;

const MACHINE_CODE_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

export const deviceActivateRequest = z.object({
  authCode: typedText(m.authCodeRequired, { invalid: m.authCodeInvalid })
    .trim()
    .min(1, m.authCodeRequired)
    .max(32, m.authCodeInvalid)
    .transform((v) => v.toUpperCase())
    // What a code can be (authcode.ts); anything else is no code (and no control character reaches the database).
    .pipe(z.string().regex(/^[A-Z0-9-]+$/, m.authCodeInvalid)),
  machineCode: typedText(m.machineCodeRequired, { invalid: m.machineCodeFormat }).trim().min(1, m.machineCodeRequired).regex(MACHINE_CODE_PATTERN, m.machineCodeFormat),
  machineName: z
    .string({ error: m.machineNameRequired })
    .transform((v) => cleanDeviceText(v, Infinity))
    .pipe(z.string().min(1, m.machineNameRequired).max(100, m.machineNameTooLong)),
  /** What the device can send; absent or empty: everything (older clients). Duplicates merged. */
  capabilities: z
    .array(z.enum(Object.values(DeviceCapability) as [DeviceCapability, ...DeviceCapability[]], { error: m.capabilitiesInvalid }), { error: m.capabilitiesInvalid })
    .max(20, m.capabilitiesInvalid)
    .optional()
    .transform((list) => ALL_CAPABILITIES.filter((c) => list?.includes(c))),
});
export type DeviceActivateRequest = z.infer<typeof deviceActivateRequest>;
/** What a device sends to activate (capabilities optional). */
export type DeviceActivateBody = z.input<typeof deviceActivateRequest>;

// ---- Capabilities (docs/device-protocol.md §1): what a device can send, what a task needs.

/** Every capability, in the order they are stored and shown. */
export const ALL_CAPABILITIES: DeviceCapability[] = Object.values(DeviceCapability);

/** What a device must be able to send for a task of this showType. */
export function capabilitiesNeeded(showType: number): DeviceCapability[] {
  switch (showType) {
    case ShowType.text: return [DeviceCapability.text];
    case ShowType.image: return [DeviceCapability.image];
    case ShowType.textImage: return [DeviceCapability.text, DeviceCapability.image];
    case ShowType.file: return [DeviceCapability.file];
    case ShowType.contact: return [DeviceCapability.contact];
    case ShowType.schedule: return [DeviceCapability.schedule];
    default: return [];
  }
}

/** A device's capabilities as stored (comma list; null or '' = everything) → the list. */
export function capabilitiesOf(stored: string | null | undefined): DeviceCapability[] {
  if (!stored) return [...ALL_CAPABILITIES];
  const listed = stored.split(',');
  return ALL_CAPABILITIES.filter((c) => listed.includes(c));
}

/** Whether a device with these capabilities can send a task of this showType. */
export const canSendShowType = (capabilities: readonly string[], showType: number) =>
  capabilitiesNeeded(showType).every((c) => capabilities.includes(c));

export type DeviceActivation = z.output<typeof syncAnswers.deviceActivation>;


export type DeviceBatchItem = z.output<typeof syncAnswers.deviceBatchItem>;

export type DeviceBatch = z.output<typeof syncAnswers.deviceBatch>;

export type DevicePull = z.output<typeof syncAnswers.devicePull>;

export const DeviceResultStatus = { sent: 'sent', failed: 'failed' } as const;

export const deviceReportRequest = z.object({
  // Ids the server made (`b_` and hex); anything else names no batch (and no control character reaches the database).
  batchId: z.string({ error: m.batchIdRequired }).trim().min(1, m.batchIdRequired).max(40, m.batchIdRequired).regex(/^[\w-]+$/, m.batchIdRequired),
  results: z
    .array(
      z.object({
        id: idOf(m.resultsRequired),
        status: z.enum([DeviceResultStatus.sent, DeviceResultStatus.failed], { error: m.resultStatusInvalid }),
        /** sync_task_number.failReason is varchar(200). */
        reason: deviceText(200),
      }),
      { error: m.resultsRequired },
    )
    .min(1, m.resultsRequired)
    .max(DEVICE_REPORT_MAX, m.resultsTooMany.replace('{max}', String(DEVICE_REPORT_MAX))),
});
export type DeviceReportRequest = z.infer<typeof deviceReportRequest>;

/** What a report changed: sent and failed count what was applied now; ignored were repeats or no longer this batch's. */
export type DeviceReportResult = z.output<typeof syncAnswers.deviceReportResult>;

export const deviceHeartbeatRequest = z.object({
  battery: z.coerce.number().int().min(0).max(100).optional().catch(undefined),
  signal: z.coerce.number().int().min(0).max(5).optional().catch(undefined),
  appVersion: deviceText(32),
  /** What the device says of itself now (限额已满, 手机无响应); absent or empty: nothing to say. */
  state: deviceText(32),
});
export type DeviceHeartbeatRequest = z.infer<typeof deviceHeartbeatRequest>;

export const deviceFileQuery = z.object({ filePath: typedText(common.badParameter).min(1, common.badParameter).max(500, common.badParameter) });

// The console's device list (reachable from 授权码列表).
export const deviceListQuery = pageNumQuery.extend({ machineName: optionalText(100) });
export type DeviceListQuery = z.infer<typeof deviceListQuery>;

export type DeviceRow = z.output<typeof syncAnswers.deviceRow>;

// ---- Delivery reports (docs/device-protocol.md §5): after a number was reported sent.

export const DeviceDeliveryStatus = { delivered: 'delivered', undelivered: 'undelivered' } as const;

export const deviceDeliveryRequest = z.object({
  results: z
    .array(
      z.object({
        id: idOf(m.deliveryResultsRequired),
        status: z.enum([DeviceDeliveryStatus.delivered, DeviceDeliveryStatus.undelivered], { error: m.deliveryStatusInvalid }),
        /** sync_task_number.deliveryReason is varchar(200). */
        reason: deviceText(200),
      }),
      { error: m.deliveryResultsRequired },
    )
    .min(1, m.deliveryResultsRequired)
    .max(DEVICE_REPORT_MAX, m.deliveryResultsTooMany.replace('{max}', String(DEVICE_REPORT_MAX))),
});
export type DeviceDeliveryRequest = z.infer<typeof deviceDeliveryRequest>;

/** What a delivery report changed; ignored: repeats, later events of a number already settled, numbers not sent by this device. */
export type DeviceDeliveryResult = z.output<typeof syncAnswers.deviceDeliveryResult>;

/** The stored DeliveryState of a delivery status. */
export const deliveryStateOf = (status: keyof typeof DeviceDeliveryStatus) =>
  status === DeviceDeliveryStatus.delivered ? DeliveryState.delivered : DeliveryState.undelivered;
