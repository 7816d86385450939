import { messages, type Page, type ReplyRow } from '@huiyun/contract';
import { download, requestPage } from './client.ts';
import { withDays } from './dayRange.ts';
import type { ListParams } from './types.ts';
import type { replyListQuery } from '@huiyun/contract';
import type { DayRange } from './dayRange.ts';
import type { FiltersOf } from './types.ts';

const m = messages.reply;

// 回复记录 (server/src/modules/sending/replies/routes.ts): read only.

export type ReplyFilters = FiltersOf<typeof replyListQuery, 'phone' | 'content' | 'taskName' | 'machineName'> & DayRange & {
  /** '1': only the replies that unsubscribed their number (the form's text; the query reads it as a boolean). */
  unsubscribedOnly?: string;
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
