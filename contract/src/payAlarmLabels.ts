import { payAlarm as m } from './messages.ts';
import { PayAlarmKind, type Option } from './enums.ts';

// The labels and tag colours of an alarm's kind: apart from payAlarm.ts, whose zod schema the list page
// does not need, and apart from enums.ts, which every screen loads.

export const payAlarmKindOptions: Option<PayAlarmKind>[] = [
  { value: PayAlarmKind.notifyMismatch, label: m.kindNotifyMismatch },
  { value: PayAlarmKind.amountMismatch, label: m.kindAmountMismatch },
  { value: PayAlarmKind.configMismatch, label: m.kindConfigMismatch },
  { value: PayAlarmKind.latePayment, label: m.kindLatePayment },
  { value: PayAlarmKind.autoRefundFailed, label: m.kindAutoRefundFailed },
  { value: PayAlarmKind.refundFailed, label: m.kindRefundFailed },
];

/** A kind's label; a kind this release does not know reads as itself. */
export function payAlarmKindLabel(kind: string): string {
  return payAlarmKindOptions.find((o) => o.value === kind)?.label ?? kind;
}

const kindColors: Record<string, string> = {
  [PayAlarmKind.notifyMismatch]: 'red',
  [PayAlarmKind.amountMismatch]: 'volcano',
  [PayAlarmKind.configMismatch]: 'orange',
  [PayAlarmKind.latePayment]: 'gold',
  [PayAlarmKind.autoRefundFailed]: 'magenta',
  [PayAlarmKind.refundFailed]: 'purple',
};

/** The antd Tag colour of a kind ('default' for unknown ones). */
export function payAlarmKindColor(kind: string): string {
  return kindColors[kind] ?? 'default';
}
