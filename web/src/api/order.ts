import { messages, type Order, type OrderDetail, type OrderRefundRequest, type OrderRefundResult, type Page } from '@huiyun/contract';
import { download, request, requestPage } from './client.ts';
import { withDays } from './dayRange.ts';
import type { ListParams } from './types.ts';
import type { orderListQuery } from '@huiyun/contract';
import type { DayRange } from './dayRange.ts';
import type { FiltersOf } from './types.ts';

const m = messages.order;

// 交易订单 (server/src/modules/pay/order-list/routes.ts).

// payType / orderStatus keep the select's '' (全部), which the query reads as absent.
export type OrderFilters = FiltersOf<typeof orderListQuery, 'machineNo' | 'orderNo' | 'transId' | 'deptId'> & DayRange & {
  payType?: number | '';
  orderStatus?: number | '';
};

export async function listOrders(params: ListParams<OrderFilters>): Promise<Page<Order>> {
  return requestPage<Order>('/api/Order/list', { body: withDays(params), failText: m.loadFailed });
}

export function exportOrders(params: Omit<ListParams<OrderFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/api/Order/export', { body: withDays(params), fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}

export async function fetchOrderDetail(orderId: number): Promise<OrderDetail> {
  return (await request<OrderDetail>('/api/Order/detail', { body: { orderId }, failText: m.loadFailed })).data;
}


/** 退款: answers the server's text (退款成功, 退款已提交…, or 该退款已提交过 for a key it has seen). */
export async function refundOrder(input: OrderRefundRequest): Promise<string> {
  return (await request<OrderRefundResult>('/api/Order/refund', { body: input, failText: m.refundSendFailed })).msg;
}
