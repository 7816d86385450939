import type { FastifyInstance } from 'fastify';
import {
  idsRequest, labelOf, messages, payOpenOptions, payTypeOptions, Perm, terminalConfigChoicesQuery, terminalConfigListQuery, terminalConfigSave,
  terminalMachineQuery, type TerminalConfig,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { configChoices, listTerminalConfigs, machineChoices } from './queries.ts';
import { deleteTerminalConfigs, saveTerminalConfig } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.terminalConfig;
const audit = (action: string) => ({ module: m.title, action });

type ExportRow = Record<'machineNo' | 'machineName' | 'deptName' | 'payType' | 'configName' | 'payConfigName' | 'payOpen' | 'posNo' | 'editUser' | 'editTime', string>;

const exportColumns = sheetColumns<ExportRow>([m, messages.common], {
  machineNo: 20, machineName: 20, deptName: 20, payType: 18, configName: 20, payConfigName: 24, payOpen: 18, posNo: 18, editUser: 18, editTime: 20,
}, { deptName: m.dept, payConfigName: m.configId });

const exportRow = (row: TerminalConfig): ExportRow => ({
  machineNo: row.machineNo,
  machineName: row.machineName,
  deptName: row.deptName,
  payType: labelOf(payTypeOptions, row.payType),
  configName: row.configName,
  payConfigName: row.payConfigName,
  payOpen: labelOf(payOpenOptions, row.payOpen),
  posNo: row.posNo,
  editUser: row.editUser,
  editTime: row.editTime,
});

/** 终端支付配置 (SPEC §2.11, §7.6) and the pickers of its dialog. */
export function terminalConfigRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.terminalConfigList,
      query: terminalConfigListQuery,
      list: '/api/MachineConfig/list',
      doc: { tag: 'terminal-config', row: r.terminalConfigRow },
      load: (request, query) => listTerminalConfigs(ctx.db, callerOf(request), query),
      export: { url: '/api/MachineConfig/export', fileName: m.title, columns: exportColumns, row: exportRow },
    });

    app.post('/api/MachineConfig/machines', { config: { access: { permission: Perm.terminalConfigSave }, doc: { tag: 'terminal-config', body: terminalMachineQuery, answer: answers.items(r.terminalMachineChoice) } } }, async (request) => {
      const { keyword } = parse(terminalMachineQuery, request.body);
      return ok('', await machineChoices(ctx.db, callerOf(request), keyword));
    });

    app.post('/api/MachineConfig/configs', { config: { access: { permission: Perm.terminalConfigSave }, doc: { tag: 'terminal-config', body: terminalConfigChoicesQuery, answer: answers.items(r.terminalPayConfigChoice) } } }, async (request) => {
      const { machineNo, payType } = parse(terminalConfigChoicesQuery, request.body);
      return ok('', await configChoices(ctx.db, callerOf(request), machineNo, payType));
    });

    app.post('/api/MachineConfig/save', { config: { access: { permission: Perm.terminalConfigSave }, doc: { tag: 'terminal-config', body: terminalConfigSave, answer: answers.data(r.paySaved.terminalConfig) }, audit: audit(messages.common.actionSave) } }, async (request) => {
      const input = parse(terminalConfigSave, request.body);
      describeTarget(request, `${input.machineNo} ${labelOf(payTypeOptions, input.payType)}`);
      const tcId = await saveTerminalConfig(ctx, callerOf(request), input);
      return ok(m.saved, { tcId });
    });

    app.delete('/api/MachineConfig/delete', { config: { access: { permission: Perm.terminalConfigDelete }, doc: { tag: 'terminal-config', query: idsRequest, answer: answers.message }, audit: audit(messages.common.actionDelete) } }, async (request) => {
      const { ids } = parse(idsRequest, request.query);
      describeTarget(request, `tcId ${ids.join(',')}`);
      await deleteTerminalConfigs(ctx, callerOf(request), ids);
      return ok(m.deleted);
    });
  };
}
