import type { FastifyInstance } from 'fastify';
import { messages, payAlarmKindLabel, payAlarmListQuery, Perm, type PayAlarm } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { registerList } from '../../../http/list-routes.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { listPayAlarms } from './queries.ts';
import * as r from '@huiyun/contract/responses';

const m = messages.payAlarm;

const exportColumns = sheetColumns<PayAlarm>(m, { createTime: 20, kind: 16, orderNo: 28, machineNo: 16, deptName: 20, detail: 60 });

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
