import { Tag, Typography } from 'antd';
import { messages, type ReplyRow } from '@huiyun/contract';
import { exportReplies, listReplies, type ReplyFilters } from '../../../api/reply.ts';
import { ListPage, type FieldConfig, type ListColumn } from '../../../components/ListPage/index.ts';

const m = messages.reply;

// At 1366 px the key columns fit (no row actions): the content takes the room left, the account shows
// from 1600 px (an ordinary user's are all its own).
const columns: ListColumn<ReplyRow>[] = [
  { key: 'receivedAt', title: m.receivedAt, width: 170 },
  { key: 'phone', title: m.phone, width: 140 },
  { key: 'content', title: m.content, ellipsis: { showTitle: true } },
  { key: 'machineName', title: m.device, width: 150, render: (_v, row) => row.machineName || row.machineCode },
  { key: 'userName', title: m.userName, width: 120, secondary: true },
  { key: 'taskName', title: m.task, width: 180, ellipsis: { showTitle: true } },
  { key: 'unsubscribed', title: m.unsubscribed, width: 80, render: (_v, row) => (row.unsubscribed ? <Tag color="red">{m.yes}</Tag> : m.no) },
];

const searchFields: FieldConfig[] = [
  { name: 'phone', label: m.phone },
  { name: 'content', label: m.content },
  { name: 'taskName', label: m.task },
  { name: 'machineName', label: m.device },
  { name: 'dateRange', label: m.dateRange, type: 'dateRange', rangePlaceholder: [m.beginDate, m.endDate] },
  { name: 'unsubscribedOnly', label: m.unsubscribed, type: 'select', options: [{ value: '', label: m.all }, { value: '1', label: m.unsubscribedOnly }] },
];

/** What an empty list says: where replies come from, and what a 退订 reply does. */
function EmptyReplies() {
  return (
    <Typography>
      <Typography.Paragraph strong>{m.emptyTitle}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{m.emptyHint}</Typography.Paragraph>
    </Typography>
  );
}

/**
 * 回复记录: what the sending devices' phones received, with the task that most likely prompted each reply
 * (the last task the device sent the number to). A reply that is a 退订 keyword has put its number on the
 * company's 黑名单 already. Read only.
 */
export function ReplyPage() {
  return (
    <ListPage<ReplyRow, ReplyFilters>
      queryKey="reply"
      rowKey="id"
      fetcher={listReplies}
      columns={columns}
      searchFields={searchFields}
      exporter={{ run: exportReplies, failText: messages.common.exportFailed }}
      emptyState={<EmptyReplies />}
    />
  );
}
