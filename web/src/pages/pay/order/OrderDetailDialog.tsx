import { Button, Descriptions, Modal, Skeleton, Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { messages, TransType, transTypeLabel, yuanShown, type Order } from '@huiyun/contract';
import { fetchOrderDetail } from '../../../api/order.ts';
import { OrderStatusTag, PayTypeTag } from './OrderTags.tsx';

const m = messages.order;
const shown = (value: string) => value || '—';

/** 详情: every field of the order, read-only, and its refunds. */
export function OrderDetailDialog({ orderId, onClose }: { orderId: number | null; onClose: () => void }) {
  const detail = useQuery({
    queryKey: ['order', 'detail', orderId],
    queryFn: () => fetchOrderDetail(orderId!),
    enabled: orderId !== null,
  });
  const order = detail.data?.order;
  // a refund row names its order: the parent's number is one more preview read (cached if opened before)
  const parentId = order?.parentId ?? null;
  const parent = useQuery({
    queryKey: ['order', 'detail', parentId],
    queryFn: () => fetchOrderDetail(parentId!),
    enabled: parentId !== null,
    meta: { silent: true },
  });
  return (
    <Modal
      open={orderId !== null}
      title={m.detailTitle}
      width={860}
      onCancel={onClose}
      destroyOnHidden
      footer={<Button onClick={onClose}>{m.close}</Button>}
    >
      {order ? (
        <>
          <Descriptions column={2} bordered size="small" className="order-detail">
            <Descriptions.Item label={m.orderNo}>{order.orderNo}</Descriptions.Item>
            <Descriptions.Item label={m.transId}>{shown(order.transId)}</Descriptions.Item>
            <Descriptions.Item label={m.deptName}>{shown(order.deptName)}</Descriptions.Item>
            <Descriptions.Item label={m.machineNo}>{order.machineNo}</Descriptions.Item>
            <Descriptions.Item label={m.payType}><PayTypeTag payType={order.payType} /></Descriptions.Item>
            <Descriptions.Item label={m.subPayType}>{order.subPayType}</Descriptions.Item>
            <Descriptions.Item label={m.transType}>{transTypeLabel(order.transType)}</Descriptions.Item>
            <Descriptions.Item label={m.orderStatus}><OrderStatusTag status={order.orderStatus} /></Descriptions.Item>
            <Descriptions.Item label={m.goodsNo}>{shown(order.goodsNo)}</Descriptions.Item>
            <Descriptions.Item label={m.goodsName}>{shown(order.goodsName)}</Descriptions.Item>
            <Descriptions.Item label={m.aisleNo}>{shown(order.aisleNo)}</Descriptions.Item>
            <Descriptions.Item label={m.goodsPrice}>{yuanShown(order.goodsPrice)}</Descriptions.Item>
            <Descriptions.Item label={m.payAmount}>{yuanShown(order.payAmount)}</Descriptions.Item>
            {order.transType === TransType.consume ? (
              <>
                <Descriptions.Item label={m.refundedAmount}>{yuanShown(order.refundedAmount)}</Descriptions.Item>
                <Descriptions.Item label={m.refundableAmount}>{yuanShown(order.refundableAmount)}</Descriptions.Item>
              </>
            ) : (
              <>
                <Descriptions.Item label={m.parentOrderNo}>{parent.data?.order.orderNo ?? shown(parentId === null ? '' : String(parentId))}</Descriptions.Item>
                <Descriptions.Item label={m.failReason}>{shown(order.failReason)}</Descriptions.Item>
              </>
            )}
            <Descriptions.Item label={m.openId}>{shown(order.openId)}</Descriptions.Item>
            <Descriptions.Item label={m.mchId}>{shown(order.mchId)}</Descriptions.Item>
            <Descriptions.Item label={m.subMchId}>{shown(order.subMchId)}</Descriptions.Item>
            <Descriptions.Item label={m.createTime}>{order.createTime}</Descriptions.Item>
            <Descriptions.Item label={m.payTime}>{shown(order.payTime)}</Descriptions.Item>
            <Descriptions.Item label={m.remark} span={2}>{shown(order.remark)}</Descriptions.Item>
          </Descriptions>
          {order.transType === TransType.consume && <RefundsTable refunds={detail.data?.refunds ?? []} />}
        </>
      ) : (
        <Skeleton active loading={detail.isPending} />
      )}
    </Modal>
  );
}

/** An order's refunds, newest first: amount, status tag, the operator's reason and why one failed. */
function RefundsTable({ refunds }: { refunds: Order[] }) {
  return (
    <>
      <h4 className="order-refunds-title">{m.refunds}</h4>
      <Table<Order>
        className="order-refunds"
        size="small"
        rowKey="orderId"
        pagination={false}
        dataSource={refunds}
        locale={{ emptyText: m.noRefunds }}
        columns={[
          { key: 'orderNo', dataIndex: 'orderNo', title: m.orderNo },
          { key: 'payAmount', dataIndex: 'payAmount', title: m.payAmount, align: 'right', render: (v: string) => yuanShown(v) },
          { key: 'orderStatus', dataIndex: 'orderStatus', title: m.orderStatus, render: (v: number) => <OrderStatusTag status={v} /> },
          { key: 'remark', dataIndex: 'remark', title: m.refundReason, render: shown },
          { key: 'failReason', dataIndex: 'failReason', title: m.failReason, render: shown },
          { key: 'createTime', dataIndex: 'createTime', title: m.createTime },
        ]}
      />
    </>
  );
}
