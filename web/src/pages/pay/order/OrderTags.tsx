import { Tag } from 'antd';
import { orderStatusColor, orderStatusLabel, payTypeColor, payTypeLabel } from '@huiyun/contract';

/** An order status as a coloured tag; statuses SPEC gives no meaning (7, 8) read 未知状态 N. */
export function OrderStatusTag({ status }: { status: number }) {
  return <Tag color={orderStatusColor(status)}>{orderStatusLabel(status)}</Tag>;
}

export function PayTypeTag({ payType }: { payType: number }) {
  return <Tag color={payTypeColor(payType)}>{payTypeLabel(payType)}</Tag>;
}
