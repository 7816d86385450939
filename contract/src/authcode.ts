import { z } from 'zod';
import { authcode as m, common } from './messages.ts';
import { idOf, optionalIdOf, optionalText, pageCursor, pageNumber, pageSizeOf, requiredId, typedText } from './fields.ts';
import type { DeviceCapability } from './enums.ts';
import type * as syncAnswers from './responses/sync.ts';

// 授权码 (SPEC §2.15, §3; PRODUCT §4 "Devices"): an administrator makes a code for an owner; a device
// activating it binds itself to the code (useStatus used) and to the owner.

/** pageNum / pageSize paging of the task-area lists (SPEC §3 "Paged responses"). */
export const pageNumQuery = z.object({
  pageNum: pageNumber,
  pageSize: pageSizeOf(10),
  after: pageCursor,
});


export const AUTH_CODE_PATTERN = /^[A-Z0-9-]{1,32}$/;
export const AUTH_CODE_RANDOM_LENGTH = 12;
/**
 * The shortest code an administrator may type: as long as a generated one (4-character
 * codes could all be tried in under an hour, and a code grabbed binds the guesser's device to the account).
 */
export const AUTH_CODE_MIN_LENGTH = 12;
/** The most a code's quota may hold (the column is a 32-bit integer). */
export const AUTH_CODE_MAX_DUE_NUM = 2_000_000_000;
const MAX_GRANT_NUM = 100_000_000;
const MAX_GRANT_DAYS = 3650;

function uuidV4(): string {
  // crypto.randomUUID exists only in secure contexts (https, localhost); getRandomValues everywhere.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** 随机生成 (SPEC §2.15): 12 uppercase characters of a generated id with its dashes removed. */
export function randomAuthCode(): string {
  return uuidV4().replace(/-/g, '').slice(0, AUTH_CODE_RANDOM_LENGTH).toUpperCase();
}

/** A whole number given as a number or a numeric string (form bodies); '' / null mean absent. */
function wholeNumber(requiredMessage: string, formatMessage: string, min: number, max: number) {
  return z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z.number({ error: (issue) => (issue.input === undefined ? requiredMessage : formatMessage) })
      .int(formatMessage).min(min, formatMessage).max(max, formatMessage),
  );
}

const authCodeText = typedText(m.authCodeRequired, { invalid: m.authCodeFormat })
  .trim()
  .min(1, m.authCodeRequired)
  .transform((v) => v.toUpperCase())
  .pipe(z.string().regex(AUTH_CODE_PATTERN, m.authCodeFormat).min(AUTH_CODE_MIN_LENGTH, m.authCodeTooShort));

export const authCodeSave = z.object({
  authCode: authCodeText,
  authUserId: idOf(m.ownerRequired),
  dueNum: wholeNumber(m.quantityRequired, m.quantityFormat, 0, MAX_GRANT_NUM),
  dueDateNum: wholeNumber(m.validDaysRequired, m.validDaysFormat, 1, MAX_GRANT_DAYS),
});
export type AuthCodeSave = z.infer<typeof authCodeSave>;

/** 充值: adds dueNum to the remaining quota and dueDateNum days to the expiry (see recharge rule). */
export const authCodeRecharge = z
  .object({
    id: requiredId,
    dueNum: wholeNumber(m.quantityRequired, m.rechargeNumFormat, 0, MAX_GRANT_NUM),
    dueDateNum: wholeNumber(m.validDaysRequired, m.rechargeDaysFormat, 0, MAX_GRANT_DAYS),
  })
  .refine((v) => v.dueNum > 0 || v.dueDateNum > 0, { message: m.rechargeEmpty, path: ['dueNum'] });
export type AuthCodeRecharge = z.infer<typeof authCodeRecharge>;

export const authCodeIdRequest = z.object({ id: requiredId });

export const authCodeListQuery = pageNumQuery.extend({ authCode: optionalText(32) });
export type AuthCodeListQuery = z.infer<typeof authCodeListQuery>;

/** queryUserCodeList: the caller's devices, or (administrators) those of an account in scope. */
export const userCodeListQuery = z.object({
  userId: optionalIdOf(common.badParameter),
});

export type AuthCode = z.output<typeof syncAnswers.authCodeRow>;

/** An owner choice of the add dialog (queryTaskUserList). */
export type TaskUserChoice = z.output<typeof syncAnswers.taskUserChoice>;

/** A device activated by one of the account's codes (queryUserCodeList). */
/** A device in the task dialog's choice, with what it can send (the dialog warns when none can send the task's type). */
export type UserDevice = z.output<typeof syncAnswers.userDevice>;
