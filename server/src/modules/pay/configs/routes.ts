import type { FastifyInstance } from 'fastify';
import {
  idsRequest, labelOf, messages, payConfigListQuery, payConfigSave, payConfigSecretFields, payGatewayOptions, payTypeOptions, Perm, type PayConfig,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { GatewayRegistry } from '../gateways/index.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { registerPayConfigCheck } from './check.ts';
import { listPayConfigs } from './queries.ts';
import { deletePayConfigs, savePayConfig } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.payConfig;
const audit = (action: string) => ({ module: m.title, action });

type ExportRow = Record<'name' | 'deptName' | 'payType' | 'gateway' | 'partner' | 'subMchId' | 'appid' | 'notifyUrl' | 'secrets' | 'editUser' | 'editTime', string>;

// The sheet says which secrets are set, never their masks.
const exportColumns = sheetColumns<ExportRow>([m, messages.common], {
  name: 24, deptName: 20, payType: 18, gateway: 18, partner: 20, subMchId: 20, appid: 24, notifyUrl: 40, secrets: 40, editUser: 18, editTime: 20,
}, { deptName: m.dept, secrets: m.secretsColumn });

function exportRow(row: PayConfig): ExportRow {
  return {
    name: row.name,
    deptName: row.deptName,
    payType: labelOf(payTypeOptions, row.payType),
    gateway: labelOf(payGatewayOptions, row.gateway),
    partner: row.partner,
    subMchId: row.subMchId,
    appid: row.appid,
    notifyUrl: row.notifyUrl,
    secrets: payConfigSecretFields.filter((f) => row[f] !== '').map((f) => `${m[f]}${m.secretSet}`).join('，'),
    editUser: row.editUser,
    editTime: row.editTime,
  };
}

/** 支付配置 (SPEC §2.12, §7.6). The request bodies carry secrets: only the name reaches the operation log. */
export function payConfigRoutes(ctx: AppContext, gateways: GatewayRegistry) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.payConfigList,
      query: payConfigListQuery,
      list: '/api/Config/list',
      doc: { tag: 'pay-config', row: r.payConfigRow },
      load: (request, query) => listPayConfigs(ctx, callerOf(request), query),
      export: { url: '/api/Config/export', fileName: m.title, columns: exportColumns, row: exportRow },
    });

    app.post('/api/Config/save', { config: { access: { permission: Perm.payConfigSave }, doc: { tag: 'pay-config', body: payConfigSave, answer: answers.data(r.paySaved.payConfig) }, audit: audit(messages.common.actionSave) } }, async (request) => {
      const input = parse(payConfigSave, request.body);
      describeTarget(request, input.id === undefined ? input.name : `id ${input.id} ${input.name}`);
      const id = await savePayConfig(ctx, callerOf(request), input);
      return ok(m.saved, { id });
    });

    app.delete('/api/Config/delete', { config: { access: { permission: Perm.payConfigDelete }, doc: { tag: 'pay-config', query: idsRequest, answer: answers.message }, audit: audit(messages.common.actionDelete) } }, async (request) => {
      const { ids } = parse(idsRequest, request.query);
      describeTarget(request, `id ${ids.join(',')}`);
      await deletePayConfigs(ctx, callerOf(request), ids);
      return ok(m.deleted);
    });

    registerPayConfigCheck(app, ctx, gateways);
  };
}
