import { z } from 'zod';
import { pageNumQuery } from './authcode.ts';
import { isSendableNumber } from './carriers.ts';
import { MAX_INT_COLUMN, optionalId, typedText } from './fields.ts';
import { blacklist as m, common, fill } from './messages.ts';
import { numberFileFields, type InvalidLine } from './upload.ts';
import type * as syncAnswers from './responses/sync.ts';
import { BlacklistSource } from './blacklistLabels.ts';

// 黑名单 (PRODUCT §4 退订/黑名单): a company's do-not-contact numbers, skipped when numbers are uploaded
// into a task. Requests of /sync/queryBlacklist, exportBlacklist, saveBlacklist, uploadBlacklist and
// deleteBlacklist; bodies may be JSON or forms. Numbers are read by the upload parser's rules (one or
// many, any separators, +86 / 86 stripped) on the server, which names the tokens it refuses.

/** The most text one add takes (some 10 000 numbers); longer lists go up as a .txt file. */
export const BLACKLIST_PHONES_MAX_CHARS = 200_000;
/** The most rows one delete takes. */
export const BLACKLIST_DELETE_MAX = 1000;

/** An entry's key: its company and number, 'deptId:phone' (the table has no id of its own). */
export function blacklistKey(deptId: number, phone: string | number): string {
  return `${deptId}:${phone}`;
}

export const blacklistListQuery = pageNumQuery.extend({
  /** Part of a number: digits, spaces, dashes and a leading + typed as written; only the digits are matched. */
  phone: z.preprocess(
    (v) => (v == null ? '' : typeof v === 'number' ? String(v) : v),
    typedText(m.phoneSearchInvalid).trim().max(20, m.phoneSearchInvalid)
      .regex(/^\+?[\d\s-]*$/, m.phoneSearchInvalid)
      .transform((v) => v.replace(/\D/g, '')),
  ),
  /** One company of the caller's scope; absent: all of them. */
  deptId: optionalId,
});
export type BlacklistListQuery = z.infer<typeof blacklistListQuery>;

export const blacklistAdd = z.object({
  phones: typedText(m.phonesRequired, { multiline: true, invalid: common.controlCharacters }).trim().min(1, m.phonesRequired)
    .max(BLACKLIST_PHONES_MAX_CHARS, fill(m.phonesTooLong, { max: BLACKLIST_PHONES_MAX_CHARS })),
  /** The company whose list it is; absent: the caller's own. */
  deptId: optionalId,
});
export type BlacklistAdd = z.infer<typeof blacklistAdd>;

/** /sync/uploadBlacklist: a stored number file (from /upload/files) into a company's list. */
export const blacklistUpload = numberFileFields.extend({ deptId: optionalId });
export type BlacklistUpload = z.infer<typeof blacklistUpload>;

export type BlacklistEntryKey = { deptId: number; phone: number };

/** One key: 'deptId:phone' or {deptId, phone}; anything else is refused as a whole. */
function readKey(v: unknown): BlacklistEntryKey | null {
  const text = typeof v === 'string' ? v.trim() : v && typeof v === 'object' ? `${(v as BlacklistEntryKey).deptId}:${(v as BlacklistEntryKey).phone}` : '';
  const match = /^(\d{1,10}):(\d{11})$/.exec(text);
  if (!match || !isSendableNumber(match[2]) || Number(match[1]) < 1 || Number(match[1]) > MAX_INT_COLUMN) return null;
  return { deptId: Number(match[1]), phone: Number(match[2]) };
}

/** ids: the keys as a comma list, an array of keys, or an array of {deptId, phone}. */
export const blacklistDelete = z.object({
  ids: z.preprocess(
    (v) => (v == null || v === '' ? [] : typeof v === 'string' ? v.split(',').filter((s) => s.trim()) : Array.isArray(v) ? v : [v]),
    z.array(z.unknown(), { error: common.badParameter })
      .min(1, m.idsRequired)
      .max(BLACKLIST_DELETE_MAX, common.badParameter)
      .transform((items, ctx) => {
        const keys = items.map(readKey);
        if (keys.some((k) => k === null)) {
          ctx.addIssue({ code: 'custom', message: common.badParameter });
          return z.NEVER;
        }
        return keys as BlacklistEntryKey[];
      }),
  ),
});
export type BlacklistDelete = z.infer<typeof blacklistDelete>;

export type BlacklistEntry = z.output<typeof syncAnswers.blacklistRow>;

/** What an add or an upload did. */
export type BlacklistAddResult = z.output<typeof syncAnswers.blacklistAddResult>;
