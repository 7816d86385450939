import { order as m } from './messages.ts';
import { fill } from './messages.ts';
import { OrderStatus, orderStatusOptions, PayType, payTypeOptions, TransType, type Option } from './enums.ts';

// The labels and tag colours of an order's status, pay type and transaction type: apart from order.ts,
// whose zod schemas would come along with them into 交易订单's first load (the list shows them, the
// schemas are for the server and the 退款 dialog).

export const transTypeOptions: Option<number>[] = [
  { value: TransType.consume, label: m.transConsume },
  { value: TransType.refund, label: m.transRefund },
];

/** A status's label; SPEC §3 gives 7 and 8 (sample data) and anything else no meaning: 未知状态 N. */
export function orderStatusLabel(status: number): string {
  return orderStatusOptions.find((o) => o.value === status)?.label ?? fill(m.unknownStatus, { status });
}

const statusColors: Record<number, string> = {
  [OrderStatus.created]: 'default',
  [OrderStatus.processing]: 'processing',
  [OrderStatus.paid]: 'blue',
  [OrderStatus.dispensed]: 'green',
  [OrderStatus.dispenseFailed]: 'red',
  [OrderStatus.timedOut]: 'default',
  [OrderStatus.refundCreated]: 'gold',
  [OrderStatus.refunding]: 'orange',
  [OrderStatus.refunded]: 'purple',
  [OrderStatus.refundFailed]: 'volcano',
};

/** The antd Tag colour of a status ('default' for unknown ones). */
export function orderStatusColor(status: number): string {
  return statusColors[status] ?? 'default';
}

/** A pay type's label; an unlisted number reads as itself. */
export function payTypeLabel(payType: number): string {
  return payTypeOptions.find((o) => o.value === payType)?.label ?? String(payType);
}

const payTypeColors: Record<number, string> = {
  [PayType.cash]: 'gold',
  [PayType.alipay]: 'blue',
  [PayType.wechat]: 'green',
  [PayType.unionQr]: 'red',
  [PayType.memberBalance]: 'purple',
};

export function payTypeColor(payType: number): string {
  return payTypeColors[payType] ?? 'default';
}

export function transTypeLabel(transType: number): string {
  return transTypeOptions.find((o) => o.value === transType)?.label ?? String(transType);
}
