import { messages, type Page, type ReplyRow } from '@huiyun/contract';
import { download, requestPage } from './client.ts';
import { withDays } from './dayRange.ts';
import type { ListParams } from './types.ts';

const m = messages.reply;

// 回复记录 (server/src/modules/sending/replies/routes.ts): read only.

export type ReplyFilters = {
  phone?: string;
  content?: string;
  taskName?: string;
  machineName?: string;
  /** '1': only the replies that unsubscribed their number. */
  unsubscribedOnly?: string;
  dateRange?: [string, string];
};

const filtersOf = ({ phone, content, taskName, machineName, unsubscribedOnly, dateRange }: ReplyFilters) => withDays({
  phone: phone ?? '', content: content ?? '', taskName: taskName ?? '', machineName: machineName ?? '', unsubscribedOnly: unsubscribedOnly ?? '', dateRange,
});

/** The task area pages with pageNum / pageSize (SPEC §3). */
export async function listReplies(params: ListParams<ReplyFilters>): Promise<Page<ReplyRow>> {
  return requestPage<ReplyRow>('/sync/queryReplyList', {
    body: { pageNum: params.page, pageSize: params.limit, after: params.after, ...filtersOf(params) },
    failText: m.loadFailed,
  });
}

export function exportReplies(params: Omit<ListParams<ReplyFilters>, 'page' | 'limit'>): Promise<void> {
  return download('/sync/exportReplyList', { body: filtersOf(params), fileName: `${m.title}.xlsx`, failText: messages.common.exportFailed });
}
