import { z } from 'zod';
import { common } from './messages.ts';

// The one place the contract says what a typed text and a database id may be: every
// schema builds its text and id fields from these helpers, so a rule holds on every route at once.

/** The largest value an `integer` / `serial` column holds (PostgreSQL; SQLite has no limit, the contract keeps both alike). */
export const MAX_INT_COLUMN = 2_147_483_647;

/**
 * Control characters (C0, DEL, C1) other than tab, line feed and carriage return: nobody types them,
 * and PostgreSQL cannot even store U+0000 in a text column. `singleLine` refuses tab and line breaks too.
 */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LINE_BREAKS = /[\t\n\r]/;

/** Whether text holds a character a person cannot have typed (see CONTROL_CHARACTERS). */
export function hasControlCharacters(text: string, options: { singleLine?: boolean } = {}): boolean {
  return CONTROL_CHARACTERS.test(text) || (options.singleLine === true && LINE_BREAKS.test(text));
}

/**
 * A string as a person types it: `message` when it is no string or holds a control character. Every
 * text field of the contract starts here; chain trim/min/max/regex as the field needs.
 */
export function typedText(message: string, options: { multiline?: boolean; invalid?: string } = {}) {
  const invalid = options.invalid ?? message;
  return z.string({ error: message }).refine((v) => !hasControlCharacters(v, { singleLine: options.multiline !== true }), invalid);
}

// A device's text: tab and line breaks read as a space, other control characters (NUL, which
// PostgreSQL cannot store, the rest of C0, DEL, C1) are dropped, a lone surrogate reads as U+FFFD.
const DEVICE_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const DEVICE_LINE_BREAKS = /[\t\n\r]+/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A device's text made storable: cleaned as above, trimmed, cut to `max` characters (code points, as the column counts). */
export function cleanDeviceText(text: string, max: number): string {
  const clean = text.replace(DEVICE_LINE_BREAKS, ' ').replace(DEVICE_CONTROL, '').replace(LONE_SURROGATE, '\uFFFD').trim();
  return clean.length <= max ? clean : Array.from(clean).slice(0, max).join('').trim();
}

/**
 * Free text a device sends (a failure reason, an app version): never a reason to refuse the call it
 * rides in — a report refused for its reason would leave every other result uncounted and the numbers
 * sent again by another device. Cleaned (cleanDeviceText); anything but a string reads as
 * empty.
 */
export function deviceText(max: number) {
  return z.preprocess((v) => (typeof v === 'string' ? cleanDeviceText(v, max) : ''), z.string());
}

/** Required trimmed text with the screen's own message for empty / wrong-typed input. */
export function requiredText(message: string, max = 255, tooLong: string = message, options: { multiline?: boolean; invalid?: string } = {}) {
  return typedText(message, { multiline: options.multiline, invalid: options.invalid ?? common.controlCharacters }).trim().min(1, message).max(max, tooLong);
}

/** Optional text: absent, null and '' all mean empty. */
export function optionalText(max = 255, tooLong: string = common.badParameter, options: { multiline?: boolean; invalid?: string } = {}) {
  return z.preprocess(
    (v) => (v == null ? '' : v),
    typedText(common.badParameter, { multiline: options.multiline, invalid: options.invalid ?? common.controlCharacters }).trim().max(max, tooLong),
  );
}

/** A number or a numeric string (form bodies, URL parts); '' / null mean absent. */
const numberInput = (v: unknown) => (v === '' || v === null ? undefined : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v);

/** An integer id column's value (1 … MAX_INT_COLUMN): `message` for absent, malformed or out of range. */
function idNumber(message: string) {
  return z.number({ error: message }).int(message).positive(message).max(MAX_INT_COLUMN, message);
}

// built once: a schema made per call was ~3 % of the server's CPU in the terminal bench (every paid notification's path)
const pathId = idNumber(common.badParameter);

/** A required database id with the field's own message (请选择角色 …). */
export function idOf(message: string) {
  return z.preprocess(numberInput, idNumber(message));
}

/** An optional database id: absent, '' and null mean none. */
export function optionalIdOf(message: string) {
  return z.preprocess(numberInput, idNumber(message).optional());
}

/** A whole number ≥ 0 that names a row or a level (parentId 0 = the top): `message` when out of range. */
export function levelOf(message: string, outOfRange: string = message) {
  return z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v),
    z.number({ error: message }).int(outOfRange).min(0, outOfRange).max(MAX_INT_COLUMN, outOfRange),
  );
}

/**
 * An id taken from a URL path (a notify URL's 支付配置, /api/Module/get/{id} …) as the number it names, or undefined
 * when it is none: digits only, no leading zero, 1 … MAX_INT_COLUMN. Asked before any query (PostgreSQL refuses a
 * larger value for an integer column with an error, where SQLite would just find no row).
 */
export function idInPath(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^[1-9]\d{0,15}$/.test(value)) return undefined;
  const id = Number(value);
  return pathId.safeParse(id).success ? id : undefined;
}

/** A database id from a URL path (idInPath), with the field's own message. */
export function pathIdOf(message: string) {
  return z.preprocess((v) => idInPath(v) ?? (typeof v === 'number' ? v : Number.NaN), idNumber(message));
}

/** A database id that may come as a number or a numeric string (form bodies); '' / null mean none. */
export const optionalId = optionalIdOf(common.badParameter);

export const requiredId = idOf(common.badParameter);

/** A page number of a list: anything unreadable or out of range reads as the first page. */
export const pageNumber = z.coerce.number({ error: common.badParameter }).int().min(1).max(MAX_INT_COLUMN).catch(1).default(1);

/**
 * Where a list's page starts: the `next` of the page before it, as the server answered it (keyset paging,
 * db/list/cursor.ts). Opaque to the client; anything unreadable is ignored and the page read by its number.
 */
export const pageCursor = z.string().max(512).optional().catch(undefined);

/** Rows per page of a list: anything unreadable reads as `fallback`. */
export const pageSizeOf = (fallback: number) => z.coerce.number({ error: common.badParameter }).int().min(1).max(200).catch(fallback).default(fallback);

/** Ids as the original sent them: '1,2,3', '[1,2,3]' (JSON text, SPEC §7.3/§7.5), [1,2,3] or one id. */
function readIds(v: unknown, allowEmpty: boolean): unknown {
  if (v == null || v === '') return allowEmpty ? [] : v;
  if (typeof v === 'number') return [v];
  if (typeof v !== 'string') return v;
  const text = v.trim();
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return null;
    }
  }
  return text.split(',').map((s) => s.trim()).filter(Boolean);
}

/** A list of ids; `allowEmpty` for grant lists where an empty list revokes everything. */
export function idListOf(requiredMessage: string, options: { allowEmpty?: boolean; max?: number } = {}) {
  const { allowEmpty = false, max = 1000 } = options;
  return z.preprocess(
    (v) => readIds(v, allowEmpty),
    z.array(requiredId, { error: allowEmpty ? common.badParameter : requiredMessage })
      .min(allowEmpty ? 0 : 1, requiredMessage)
      .max(max, common.badParameter),
  );
}

/** ?ids=… of the delete calls. */
export const idList = idListOf(common.idsRequired);

/** moduleIds / permissionIds / deptIds of the grant calls: any of the shapes, empty revokes all. */
export const grantIdList = idListOf(common.badParameter, { allowEmpty: true, max: 10_000 });

/** page/limit paging of the payment-admin and system lists (SPEC §3). */
export const pageQuery = z.object({
  page: pageNumber,
  limit: pageSizeOf(10),
  after: pageCursor,
  sortField: optionalText(64),
  sortOrder: z.enum(['ascend', 'descend', '']).catch('').default(''),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** ?ids=1,2,3 of the delete calls. */
export const idsRequest = z.object({ ids: idList });
