import { z } from 'zod';
import { pageNumQuery } from './authcode.ts';
import { isSendableNumber } from './carriers.ts';
import { cleanDeviceText, deviceText, optionalText, typedText } from './fields.ts';
import { fill, reply as m } from './messages.ts';
import { dayOf } from './order.ts';
import type * as syncAnswers from './responses/sync.ts';

// Replies a sending device received (POST /device/v1/replies, docs/device-protocol.md "Replies") and the
// console's 回复记录 (/task/reply). A reply that is one of the 退订 keywords puts its number on the device
// owner's company 黑名单.

/** The most replies one upload may carry. */
export const DEVICE_REPLIES_MAX = 100;

/** The 系统环境变量 holding the 退订 keywords (migration 0036 adds it with the default value). */
export const UNSUBSCRIBE_KEYWORDS_VARIABLE = 'SMS_UNSUBSCRIBE_KEYWORDS';
/**
 * Used when the variable is missing (deleted). The vendors' opt-out texts (T, TD, R) and the plain words;
 * N and 退订 are less certain conventions (../shared/data/sms-devices.md §7), kept because a person who
 * writes them means it.
 */
export const DEFAULT_UNSUBSCRIBE_KEYWORDS = 'T,TD,退订,R,N,拒收';

/** A text compared as the keywords are: NFKC (full-width letters and spaces as ASCII), trimmed, upper case. */
const keywordForm = (text: string) => text.normalize('NFKC').trim().toUpperCase();

/** The keywords of the variable's value: separated by commas (ASCII or full-width), 、 or ;, blanks dropped. */
export function parseUnsubscribeKeywords(value: string): Set<string> {
  return new Set(value.normalize('NFKC').split(/[,、;]/).map(keywordForm).filter(Boolean));
}

/** Whether the whole reply, trimmed, is one of the keywords (case- and width-insensitive): `TD谢谢` is not. */
export function isUnsubscribeReply(content: string, keywords: ReadonlySet<string>): boolean {
  return keywords.has(keywordForm(content));
}

/**
 * The sender as the list keeps it: a mainland mobile number as its 11 digits (+86, 86 and 0086 prefixes,
 * spaces and dashes dropped); anything else (a service number, a foreign one) as given, cut to 32.
 */
export function normalizeReplyPhone(phone: string): string {
  const digits = phone.replace(/[\s-]/g, '');
  const mobile = /^(?:\+86|0086|86)?(\d{11})$/.exec(digits)?.[1];
  return mobile && isSendableNumber(mobile) ? mobile : cleanDeviceText(phone, 32);
}

export const deviceRepliesRequest = z.object({
  replies: z
    .array(
      z.object({
        /** The phone's id of the inbound message: the same id twice from one device is one reply. */
        messageId: typedText(m.messageIdInvalid).trim().min(1, m.messageIdInvalid).max(64, m.messageIdInvalid),
        phone: z.string({ error: m.replyPhoneRequired }).transform(normalizeReplyPhone).pipe(z.string().min(1, m.replyPhoneRequired)),
        /** sync_reply.content is varchar(1000); like every device text it never refuses the call. */
        content: deviceText(1000),
        /** When the phone received it (epoch ms). */
        receivedAt: z.number({ error: m.receivedAtInvalid }).int(m.receivedAtInvalid).positive(m.receivedAtInvalid).max(8_640_000_000_000_000, m.receivedAtInvalid),
      }),
      { error: m.repliesRequired },
    )
    .min(1, m.repliesRequired)
    .max(DEVICE_REPLIES_MAX, fill(m.repliesTooMany, { max: DEVICE_REPLIES_MAX })),
});
export type DeviceRepliesRequest = z.infer<typeof deviceRepliesRequest>;

/** accepted: stored now; duplicates: already stored (same device and messageId); unsubscribed: of accepted, put on (or already on) the 黑名单. */
export type DeviceRepliesResult = z.output<typeof syncAnswers.deviceRepliesResult>;

// 回复记录
export const replyListQuery = pageNumQuery
  .extend({
    /** Part of a number as typed (digits, spaces, dashes, a leading +); a +86 / 0086 prefix dropped, only the digits matched. */
    phone: z.preprocess(
      (v) => (v == null ? '' : typeof v === 'number' ? String(v) : v),
      typedText(m.phoneSearchInvalid).trim().max(20, m.phoneSearchInvalid)
        .regex(/^\+?[\d\s-]*$/, m.phoneSearchInvalid)
        .transform((v) => v.replace(/^(?:\+86|0086)/, '').replace(/\D/g, '')),
    ),
    content: optionalText(100),
    /** Part of the linked task's name. */
    taskName: optionalText(100),
    /** Part of the device's name. */
    machineName: optionalText(100),
    start: dayOf(m.startInvalid),
    end: dayOf(m.endInvalid),
    /** Only the replies that unsubscribed their number: true, 1 or '1' (a form body). */
    unsubscribedOnly: z.preprocess((v) => v === true || v === 1 || v === '1' || v === 'true', z.boolean()),
  })
  .refine((q) => !q.start || !q.end || q.start <= q.end, { message: m.dateOrder, path: ['end'] });
export type ReplyListQuery = z.infer<typeof replyListQuery>;

export type ReplyRow = z.output<typeof syncAnswers.replyRow>;
