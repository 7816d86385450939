import { PayAlarmKind, payAlarmKindOptions } from './enums.ts';

// The label and tag colour of an alarm's kind: apart from payAlarm.ts, whose zod schema the list page
// does not need.

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
};

/** The antd Tag colour of a kind ('default' for unknown ones). */
export function payAlarmKindColor(kind: string): string {
  return kindColors[kind] ?? 'default';
}
