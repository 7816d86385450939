import { lazy, Suspense, useState } from 'react';
import { messages, orderStatusOptions, payTypeOptions, Perm, yuanShown, type Order } from '@huiyun/contract';
import { exportOrders, listOrders, type OrderFilters } from '../../../api/order.ts';
import { ListPage, type FieldConfig, type ListColumn, type RowAction } from '../../../components/ListPage/index.ts';
import { useCompanyOptions } from '../../../components/useCompanyOptions.ts';
import { useOpenedOnce } from '../../../components/useOpenedOnce.ts';
import { OrderStatusTag, PayTypeTag } from './OrderTags.tsx';
import { canRefund } from './refund.ts';

// 详情 and 退款 (Descriptions, antd Form, the refund schema and zod) load when first opened, not with the list.
const OrderDetailDialog = lazy(() => import('./OrderDetailDialog.tsx').then((d) => ({ default: d.OrderDetailDialog })));
const RefundDialog = lazy(() => import('./RefundDialog.tsx').then((d) => ({ default: d.RefundDialog })));

const m = messages.order;

// At 1366 px: number, terminal, goods, amount, pay type, status, time and 详情 / 退款; the transaction
// number, company and pay time from 1600 px (all of them are in 详情).
const columns = (manyCompanies: boolean): ListColumn<Order>[] => [
  { key: 'orderNo', title: m.orderNo, width: 200 },
  { key: 'transId', title: m.transId, width: 220, secondary: true },
  ...(manyCompanies ? [{ key: 'deptName', title: m.deptName, width: 140, secondary: true }] : []),
  { key: 'machineNo', title: m.machineNo, width: 120 },
  { key: 'goodsName', title: m.goodsName },
  { key: 'payAmount', title: m.payAmount, width: 110, align: 'right', render: (_v, row) => yuanShown(row.payAmount) },
  { key: 'payType', title: m.payType, width: 110, render: (_v, row) => <PayTypeTag payType={row.payType} /> },
  { key: 'orderStatus', title: m.orderStatus, width: 110, render: (_v, row) => <OrderStatusTag status={row.orderStatus} /> },
  { key: 'createTime', title: m.createTime, sortable: true, width: 170 },
  { key: 'payTime', title: m.payTime, width: 170, secondary: true },
];

const all = { value: '', label: m.all };

/** 交易订单 (SPEC §2.5): the orders of the caller's companies, searched by exact numbers, type, status and day. */
export function OrderPage() {
  const [previewed, setPreviewed] = useState<number | null>(null);
  const previewOpened = useOpenedOnce(previewed !== null);
  const [refunding, setRefunding] = useState<Order | null>(null);
  const refundOpened = useOpenedOnce(refunding !== null);
  const companies = useCompanyOptions();

  const searchFields: FieldConfig[] = [
    { name: 'machineNo', label: m.machineNo },
    { name: 'orderNo', label: m.orderNo },
    { name: 'transId', label: m.transId },
    { name: 'payType', label: m.payType, type: 'select', options: [all, ...payTypeOptions] },
    { name: 'orderStatus', label: m.orderStatus, type: 'select', options: [all, ...orderStatusOptions] },
    ...companies.fields({ name: 'deptId', label: m.dept }),
    { name: 'dateRange', label: m.timeRange, type: 'dateRange', rangePlaceholder: [m.beginDate, m.endDate] },
  ];
  const rowActions: RowAction<Order>[] = [
    { key: 'detail', label: m.detail, onClick: (row) => setPreviewed(row.orderId) },
    { key: 'refund', label: m.refund, danger: true, permission: Perm.orderRefund, visible: canRefund, onClick: (row) => setRefunding(row) },
  ];

  return (
    <>
      <ListPage<Order, OrderFilters>
        queryKey="order"
        rowKey="orderId"
        fetcher={listOrders}
        columns={columns(companies.many)}
        searchFields={searchFields}
        rowActions={rowActions}
        exporter={{ run: exportOrders, failText: messages.common.exportFailed }}
      />
      <Suspense fallback={null}>
        {previewOpened && <OrderDetailDialog orderId={previewed} onClose={() => setPreviewed(null)} />}
        {refundOpened && <RefundDialog order={refunding} onClose={() => setRefunding(null)} />}
      </Suspense>
    </>
  );
}
