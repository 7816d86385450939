import { Tag } from 'antd';
import { orderStatusColor, orderStatusLabel, payTypeColor, payTypeLabel } from '@huiyun/contract';

/** An order status as a coloured tag; statuses SPEC gives no meaning (7, 8) read 未知状态 N. */
export function OrderStatusTag({ status }: { status: number }) {
  return <Tag color={orderStatusColor(status)}>{orderStatusLabel(status)}</Tag>;
}

export function PayTypeTag({ payType }: { payType: number }) {
  return <Tag color={payTypeColor(payType)}>{payTypeLabel(payType)}</Tag>;
}

/** ¥ and the yuan text the server sends ('3.50', '-1.50'): never a float on the way. */
export const yuan = (amount: string) => `¥${amount}`;
