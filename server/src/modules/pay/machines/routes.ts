import type { FastifyInstance } from 'fastify';
import {
  aisleGridCreate, aisleGridQuery, aisleRestock, aisleSave, aisleStatusRequest, fill, idsRequest, labelOf, machineIdRequest,
  machineListQuery, machineOptionsQuery, machineSave, machineStatusOptions, machineStatusRequest, messages, Perm, type Machine,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { createAisleGrid, deleteAisles, restockAisles, saveAisle, setAisleStatus } from './aisle-service.ts';
import { deleteMachines, machineInScope, resetTerminalKey, saveMachine, setMachineStatus } from './machine-service.ts';
import { aislesOf, findMachineOption, listMachines, machineOptions } from './queries.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.machine;
const a = messages.aisle;
const auditMachine = (action: string) => ({ module: m.title, action });
const auditAisle = (action: string) => ({ module: a.title, action });

// The sheet shows 启用 / 在线 rather than numbers and booleans. The terminal key is in no row.
type MachineExportRow = Omit<Machine, 'status' | 'online'> & { status: string; online: string };
const exportColumns = sheetColumns<MachineExportRow>(m, {
  machineNo: 20, machineName: 24, deptName: 24, address: 32, status: 8, online: 8, lastSeenAt: 20, addTime: 20,
});

// 机器列表 and 货道信息. Answers carry a terminal key only when one was just made (新增,
// 重置密钥); the operation log records the answer's msg, never its data (http/audit.ts).
export function machineRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.machineList,
      query: machineListQuery,
      list: '/api/Machine/list',
      doc: { tag: 'machine', row: r.machineRow },
      load: (request, query) => listMachines(ctx.db, callerOf(request).deptScope, query, ctx.now()),
      export: {
        url: '/api/Machine/export', fileName: m.title, columns: exportColumns,
        row: (row): MachineExportRow => ({ ...row, status: labelOf(machineStatusOptions, row.status), online: row.online ? m.onlineYes : m.onlineNo }),
      },
    });

    app.post('/api/Machine/options', { config: { access: { anyOf: [Perm.machineList, Perm.aisleList] }, doc: { tag: 'machine', body: machineOptionsQuery, answer: answers.items(r.machineOption) } } }, async (request) => {
      const { keyword, machineId } = parse(machineOptionsQuery, request.body);
      return ok('', await machineOptions(ctx.db, callerOf(request).deptScope, keyword, machineId));
    });

    app.post('/api/Machine/save', { config: { access: { permission: Perm.machineSave }, doc: { tag: 'machine', body: machineSave, answer: answers.data(r.machineSaved) }, audit: auditMachine(messages.common.actionSave) } }, async (request) => {
      const input = parse(machineSave, request.body);
      describeTarget(request, input.machineNo);
      const saved = await saveMachine(ctx, callerOf(request), input);
      return ok(m.saved, saved.created ?? { machineId: saved.machineId });
    });

    app.delete('/api/Machine/delete', { config: { access: { permission: Perm.machineDelete }, doc: { tag: 'machine', query: idsRequest, answer: answers.message }, audit: auditMachine(messages.common.actionDelete) } }, async (request) => {
      const { ids } = parse(idsRequest, request.query);
      describeTarget(request, `machineId ${ids.join(',')}`);
      const deleted = await deleteMachines(ctx, callerOf(request), ids);
      describeTarget(request, deleted.join(','));
      return ok(m.deleted);
    });

    app.post('/api/Machine/status', { config: { access: { permission: Perm.machineSave }, doc: { tag: 'machine', body: machineStatusRequest, answer: answers.message }, audit: auditMachine(m.actionStatus) } }, async (request) => {
      const { machineId, status } = parse(machineStatusRequest, request.body);
      describeTarget(request, `machineId ${machineId} status ${status}`);
      const machineNo = await setMachineStatus(ctx, callerOf(request), machineId, status);
      describeTarget(request, `${machineNo} ${labelOf(machineStatusOptions, status)}`);
      return ok(m.statusChanged);
    });

    app.post('/api/Machine/resetKey', { config: { access: { permission: Perm.machineResetKey }, doc: { tag: 'machine', body: machineIdRequest, answer: answers.data(r.machineKeyAnswer) }, audit: auditMachine(m.actionResetKey) } }, async (request) => {
      const { machineId } = parse(machineIdRequest, request.body);
      describeTarget(request, `machineId ${machineId}`);
      const answer = await resetTerminalKey(ctx, callerOf(request), machineId);
      describeTarget(request, answer.machineNo);
      return ok(m.resetKeyOk, answer);
    });

    app.post('/api/Aisle/grid', { config: { access: { permission: Perm.aisleList }, doc: { tag: 'machine', body: aisleGridQuery, answer: answers.data(r.aisleGrid) } } }, async (request) => {
      const { machineId } = parse(aisleGridQuery, request.body);
      await machineInScope(ctx.db, callerOf(request), machineId);
      const [machine, aisles] = await Promise.all([findMachineOption(ctx.db, machineId), aislesOf(ctx.db, machineId)]);
      return ok('', { machine, aisles });
    });

    app.post('/api/Aisle/save', { config: { access: { permission: Perm.aisleSave }, doc: { tag: 'machine', body: aisleSave, answer: answers.data(r.aisleSaved) }, audit: auditAisle(messages.common.actionSave) } }, async (request) => {
      const input = parse(aisleSave, request.body);
      describeTarget(request, `machineId ${input.machineId}`);
      const saved = await saveAisle(ctx, callerOf(request), input);
      describeTarget(request, `machineId ${input.machineId} ${saved.aisleNo}`);
      return ok(a.saved, saved);
    });

    app.post('/api/Aisle/createGrid', { config: { access: { permission: Perm.aisleSave }, doc: { tag: 'machine', body: aisleGridCreate, answer: answers.data(r.aisleGridCreated) }, audit: auditAisle(a.actionCreateGrid) } }, async (request) => {
      const input = parse(aisleGridCreate, request.body);
      describeTarget(request, `machineId ${input.machineId} ${input.layers}×${input.columns}`);
      const result = await createAisleGrid(ctx, callerOf(request), input);
      describeTarget(request, `${result.machineNo} ${input.layers}×${input.columns} +${result.created}`);
      return ok(result.created === 0 ? a.gridNothingNew : fill(a.gridCreated, { created: result.created, kept: result.kept }), result);
    });

    app.post('/api/Aisle/restock', { config: { access: { permission: Perm.aisleSave }, doc: { tag: 'machine', body: aisleRestock, answer: answers.data(r.aislesRestocked) }, audit: auditAisle(a.actionRestock) } }, async (request) => {
      const { machineId, aisleIds } = parse(aisleRestock, request.body);
      describeTarget(request, `machineId ${machineId}`);
      const result = await restockAisles(ctx, callerOf(request), machineId, aisleIds);
      describeTarget(request, `${result.machineNo} ${aisleIds.length > 0 ? `aisleId ${aisleIds.join(',')}` : '*'} (${result.count})`);
      return ok(fill(a.restocked, { count: result.count }), { count: result.count });
    });

    app.post('/api/Aisle/status', { config: { access: { permission: Perm.aisleSave }, doc: { tag: 'machine', body: aisleStatusRequest, answer: answers.message }, audit: auditAisle(a.actionStatus) } }, async (request) => {
      const { aisleIds, status } = parse(aisleStatusRequest, request.body);
      describeTarget(request, `aisleId ${aisleIds.join(',')}`);
      const changed = await setAisleStatus(ctx, callerOf(request), aisleIds, status);
      describeTarget(request, `${changed.join(',')} ${labelOf(machineStatusOptions, status)}`);
      return ok(a.statusChanged);
    });

    app.delete('/api/Aisle/delete', { config: { access: { permission: Perm.aisleDelete }, doc: { tag: 'machine', query: idsRequest, answer: answers.message }, audit: auditAisle(messages.common.actionDelete) } }, async (request) => {
      const { ids } = parse(idsRequest, request.query);
      describeTarget(request, `aisleId ${ids.join(',')}`);
      const deleted = await deleteAisles(ctx, callerOf(request), ids);
      describeTarget(request, deleted.join(','));
      return ok(a.deleted);
    });
  };
}
