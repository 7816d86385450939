import type { FastifyInstance } from 'fastify';
import {
  fill, messages, orderDetailRequest, orderListQuery, orderRefundRequest, orderStatusLabel, OrderStatus, payTypeLabel, Perm, transTypeLabel,
  type Order, type OrderRefundResult,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { AppError, notFound } from '../../../http/errors.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import type { Payments } from '../orders/index.ts';
import { findOrderDetail, listOrders, orderById, streamOrders } from './queries.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.order;

// The sheet shows labels (支付宝, 出货成功, 消费) rather than numbers, amounts as yuan text.
type OrderExportRow = Omit<Order, 'payType' | 'orderStatus' | 'transType'> & { payType: string; orderStatus: string; transType: string };
const exportColumns = sheetColumns<OrderExportRow>(m, {
  orderNo: 28, transId: 32, deptName: 20, machineNo: 16, payType: 12, transType: 8, goodsNo: 12, goodsName: 20, aisleNo: 8, goodsPrice: 10,
  payAmount: 10, orderStatus: 12, openId: 30, mchId: 16, subMchId: 16, remark: 24, createTime: 20, payTime: 20,
});

// 交易订单: list, export, the preview with the order's refunds, the companies to filter
// by, and 退款 (the money side is modules/pay/orders/refund.ts).
export function orderListRoutes(ctx: AppContext, payments: Payments) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.orderList,
      query: orderListQuery,
      list: '/api/Order/list',
      doc: { tag: 'order-list', row: r.orderRow },
      load: (request, query) => listOrders(ctx.db, callerOf(request).deptScope, query),
      export: {
        url: '/api/Order/export', fileName: m.title, columns: exportColumns,
        stream: (request, query) => streamOrders(ctx.db, callerOf(request).deptScope, query),
        row: (row): OrderExportRow => ({
          ...row, payType: payTypeLabel(row.payType), orderStatus: orderStatusLabel(row.orderStatus), transType: transTypeLabel(row.transType),
        }),
      },
    });

    app.post('/api/Order/detail', { config: { access: { permission: Perm.orderList }, doc: { tag: 'order-list', body: orderDetailRequest, answer: answers.data(r.orderDetail) } } }, async (request) => {
      const { orderId } = parse(orderDetailRequest, request.body);
      const detail = await findOrderDetail(ctx.db, callerOf(request).deptScope, orderId);
      if (!detail) throw notFound(m.notFound);
      return ok('', detail);
    });

    app.post('/api/Order/refund', { config: { access: { permission: Perm.orderRefund }, doc: { tag: 'order-list', body: orderRefundRequest, answer: answers.data(r.orderRefundResult) }, audit: { module: m.title, action: m.refund } } }, async (request) => {
      const input = parse(orderRefundRequest, request.body);
      describeTarget(request, `orderId ${input.orderId}`);
      const scope = callerOf(request).deptScope;
      const outcome = await payments.refundOrder(scope, input, request.log);
      const [refund, order] = await Promise.all([orderById(ctx.db, scope, outcome.refund.orderId), orderById(ctx.db, scope, input.orderId)]);
      describeTarget(request, `${order!.orderNo} ${m.refundAmount} ${refund!.payAmount.replace('-', '')}`);
      // the same request again answers as the first did: a failed refund fails again (a retry needs a new key)
      if (refund!.orderStatus === OrderStatus.refundFailed) throw new AppError(fill(m.refundFailed, { reason: refund!.failReason || m.gatewayUnavailable }), 409);
      if (outcome.repeated) return ok(fill(m.refundRepeated, { status: orderStatusLabel(refund!.orderStatus) }), { refund: refund!, order: order! } satisfies OrderRefundResult);
      const message = refund!.orderStatus === OrderStatus.refunded ? m.refundSucceeded : m.refundProcessing;
      return ok(message, { refund: refund!, order: order! } satisfies OrderRefundResult);
    });
  };
}
