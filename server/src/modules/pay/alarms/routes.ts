import type { FastifyInstance } from 'fastify';
import { messages, payAlarmKindLabel, payAlarmListQuery, Perm, type PayAlarm } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { registerList } from '../../../http/list-routes.ts';
import type { XlsxColumn } from '../../../http/xlsx.ts';
import { listPayAlarms } from './queries.ts';
import * as r from '@huiyun/contract/responses';

const m = messages.payAlarm;

const exportColumns: XlsxColumn<PayAlarm>[] = [
  { header: m.createTime, key: 'createTime', width: 20 },
  { header: m.kind, key: 'kind', width: 16 },
  { header: m.orderNo, key: 'orderNo', width: 28 },
  { header: m.machineNo, key: 'machineNo', width: 16 },
  { header: m.deptName, key: 'deptName', width: 20 },
  { header: m.detail, key: 'detail', width: 60 },
];

// 支付告警 (/pay/Alarm): read only. The payment half writes the rows (modules/pay/orders: recordAlarm).
export function payAlarmRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.payAlarmList,
      query: payAlarmListQuery,
      list: '/api/PayAlarm/list',
      doc: { tag: 'pay-alarm', row: r.payAlarmRow },
      load: (request, query) => listPayAlarms(ctx.db, callerOf(request).deptScope, query),
      export: {
        url: '/api/PayAlarm/export', fileName: m.title, columns: exportColumns,
        row: (row): PayAlarm => ({ ...row, kind: payAlarmKindLabel(row.kind) }),
      },
    });
  };
}
