import type { FastifyInstance } from 'fastify';
import { blacklistAdd, blacklistDelete, blacklistListQuery, blacklistSourceLabel, blacklistUpload, fill, messages, Perm, type BlacklistEntry } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { describeTarget } from '../../../http/audit.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { listBlacklist } from './queries.ts';
import { addToBlacklist, deleteFromBlacklist, uploadToBlacklist } from './service.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.blacklist;
const audit = (action: string) => ({ module: m.title, action });

const exportColumns = sheetColumns<BlacklistEntry>(m, { phone: 16, deptName: 24, addUser: 18, addTime: 20, source: 12 }, { deptName: m.dept });

// 黑名单 (PRODUCT §4 退订/黑名单): a company's do-not-contact numbers, skipped by /sync/uploadTaskData.
// Task-area calls: POST with JSON or form bodies. Which company: service.ts targetDept.
export function blacklistRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    registerList(app, {
      permission: Perm.blacklistList,
      query: blacklistListQuery,
      list: '/sync/queryBlacklist',
      doc: { tag: 'blacklist', row: r.blacklistRow },
      load: (request, query) => listBlacklist(ctx.db, callerOf(request), query),
      export: { url: '/sync/exportBlacklist', fileName: m.title, columns: exportColumns, row: (row) => ({ ...row, source: blacklistSourceLabel(row.source) }) },
    });

    app.post('/sync/saveBlacklist', { config: { access: { permission: Perm.blacklistSave }, doc: { tag: 'blacklist', body: blacklistAdd, answer: answers.data(r.blacklistAddResult) }, audit: audit(m.actionAdd) } }, async (request) => {
      const input = parse(blacklistAdd, request.body);
      describeTarget(request, `deptId ${input.deptId ?? callerOf(request).deptId}`);
      const { dept, result } = await addToBlacklist(ctx, callerOf(request), input);
      describeTarget(request, `${dept.deptName} +${result.added} (${result.duplicates})`);
      return ok(fill(m.added, { added: result.added, duplicates: result.duplicates }), result);
    });

    app.post('/sync/uploadBlacklist', { config: { access: { permission: Perm.blacklistSave }, doc: { tag: 'blacklist', body: blacklistUpload, answer: answers.data(r.blacklistAddResult) }, audit: audit(m.actionUpload) } }, async (request) => {
      const input = parse(blacklistUpload, request.body);
      describeTarget(request, `deptId ${input.deptId ?? callerOf(request).deptId} fileNo ${input.fileNo}`);
      const { dept, result } = await uploadToBlacklist(ctx, callerOf(request), input);
      describeTarget(request, `${dept.deptName} fileNo ${input.fileNo} +${result.added} (${result.duplicates} / ${result.invalid})`);
      return ok(fill(m.uploaded, { added: result.added, duplicates: result.duplicates, invalid: result.invalid }), result);
    });

    app.post('/sync/deleteBlacklist', { config: { access: { permission: Perm.blacklistDelete }, doc: { tag: 'blacklist', body: blacklistDelete, answer: answers.data(r.blacklistDeleted) }, audit: audit(m.actionDelete) } }, async (request) => {
      const { ids } = parse(blacklistDelete, request.body);
      describeTarget(request, ids.map((k) => `${k.deptId}:${k.phone}`).join(','));
      const count = await deleteFromBlacklist(ctx, callerOf(request), { ids });
      return ok(fill(m.deleted, { count }), { count });
    });
  };
}
