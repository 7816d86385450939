import type { FastifyInstance } from 'fastify';
import {
  messages, orderDetailRequest, orderListQuery, orderStatusLabel, payTypeLabel, Perm, transTypeLabel, type Order,
} from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { callerOf } from '../../http/access-check.ts';
import { ok } from '../../http/envelope.ts';
import { notFound } from '../../http/errors.ts';
import { registerList } from '../../http/list-routes.ts';
import { parse } from '../../http/validate.ts';
import type { XlsxColumn } from '../../http/xlsx.ts';
import { findOrderDetail, listOrders, orderDeptChoices } from './queries.ts';

const m = messages.order;

// The sheet shows labels (支付宝, 出货成功, 消费) rather than numbers, amounts as yuan text.
type OrderExportRow = Omit<Order, 'payType' | 'orderStatus' | 'transType'> & { payType: string; orderStatus: string; transType: string };
const exportColumns: XlsxColumn<OrderExportRow>[] = [
  { header: m.orderNo, key: 'orderNo', width: 28 },
  { header: m.transId, key: 'transId', width: 32 },
  { header: m.deptName, key: 'deptName', width: 20 },
  { header: m.machineNo, key: 'machineNo', width: 16 },
  { header: m.payType, key: 'payType', width: 12 },
  { header: m.transType, key: 'transType', width: 8 },
  { header: m.goodsNo, key: 'goodsNo', width: 12 },
  { header: m.goodsName, key: 'goodsName', width: 20 },
  { header: m.aisleNo, key: 'aisleNo', width: 8 },
  { header: m.goodsPrice, key: 'goodsPrice', width: 10 },
  { header: m.payAmount, key: 'payAmount', width: 10 },
  { header: m.orderStatus, key: 'orderStatus', width: 12 },
  { header: m.openId, key: 'openId', width: 30 },
  { header: m.mchId, key: 'mchId', width: 16 },
  { header: m.subMchId, key: 'subMchId', width: 16 },
  { header: m.remark, key: 'remark', width: 24 },
  { header: m.createTime, key: 'createTime', width: 20 },
  { header: m.payTime, key: 'payTime', width: 20 },
];

// 交易订单 (issue 16 §5): list, export, the preview with the order's refunds, and the companies to
// filter by. Refunding (退款) comes with the order state machine (modules/order).
export function orderListRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.orderList,
      query: orderListQuery,
      list: '/api/Order/list',
      load: (request, query) => listOrders(ctx.db, callerOf(request).deptScope, query),
      export: {
        url: '/api/Order/export', fileName: m.title, columns: exportColumns,
        row: (row): OrderExportRow => ({
          ...row, payType: payTypeLabel(row.payType), orderStatus: orderStatusLabel(row.orderStatus), transType: transTypeLabel(row.transType),
        }),
      },
    });

    app.post('/api/Order/detail', { config: { access: { permission: Perm.orderList } } }, async (request) => {
      const { orderId } = parse(orderDetailRequest, request.body);
      const detail = await findOrderDetail(ctx.db, callerOf(request).deptScope, orderId);
      if (!detail) throw notFound(m.notFound);
      return ok('', detail);
    });

    app.post('/api/Order/deptOptions', { config: { access: { permission: Perm.orderList } } }, async (request) =>
      ok('', await orderDeptChoices(ctx.db, callerOf(request).deptScope)),
    );
  };
}
