import type { FastifyInstance } from 'fastify';
import { DEVICE_API_PREFIX, deviceRepliesRequest, messages, Perm, replyListQuery, type ReplyRow } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { callerOf } from '../../../http/access-check.ts';
import { ok } from '../../../http/envelope.ts';
import { registerList } from '../../../http/list-routes.ts';
import { parse } from '../../../http/validate.ts';
import { sheetColumns } from '../../../http/xlsx.ts';
import { deviceOf } from '../devices/index.ts';
import { listReplies } from './queries.ts';
import { recordReplies } from './record.ts';
import * as r from '@huiyun/contract/responses';
import { answers } from '../../../http/route-doc.ts';

const m = messages.reply;

type ReplySheetRow = Omit<ReplyRow, 'unsubscribed'> & { unsubscribed: string };

const exportColumns = sheetColumns<ReplySheetRow>(m, {
  receivedAt: 20, phone: 16, content: 50, machineName: 20, userName: 16, taskName: 24, unsubscribed: 8,
}, { machineName: m.device, taskName: m.task });

// Replies: what the sending devices' phones received (POST /device/v1/replies, device token; machine
// traffic, not in the operation log) and 回复记录, their list and export (read only).
export function replyRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post(`${DEVICE_API_PREFIX}/replies`, { config: { access: 'device', doc: { tag: 'reply', body: deviceRepliesRequest, answer: answers.data(r.deviceRepliesResult) } } }, async (request) =>
      ok(m.replied, await recordReplies(ctx, deviceOf(request), parse(deviceRepliesRequest, request.body ?? {}))),
    );

    registerList(app, {
      permission: Perm.replyList,
      query: replyListQuery,
      list: '/sync/queryReplyList',
      doc: { tag: 'reply', row: r.replyRow },
      load: (request, query) => listReplies(ctx.db, callerOf(request), query),
      export: {
        url: '/sync/exportReplyList', fileName: m.title, columns: exportColumns,
        row: (row): ReplySheetRow => ({ ...row, unsubscribed: row.unsubscribed ? m.yes : m.no }),
      },
    });
  };
}
