import { blacklist as m } from './messages.ts';

// How a 黑名单 number came onto the list and its label: apart from blacklist.ts, whose zod schemas would come
// along with them into 黑名单's first load (the list shows the label, the schemas are for the server and the 添加 dialog).

/** How a number came onto the list (sync_blacklist.source). */
export const BlacklistSource = { manual: 'manual', upload: 'upload', reply: 'reply' } as const;
export type BlacklistSource = (typeof BlacklistSource)[keyof typeof BlacklistSource];

const sourceLabels: Record<string, string> = {
  [BlacklistSource.manual]: m.sourceManual,
  [BlacklistSource.upload]: m.sourceUpload,
  [BlacklistSource.reply]: m.sourceReply,
};

/** 手动添加 / 上传号码 / 回复退订; an unknown code as it is. */
export function blacklistSourceLabel(source: string): string {
  return sourceLabels[source] ?? source;
}
