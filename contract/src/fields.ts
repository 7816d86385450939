import { z } from 'zod';
import { common } from './messages.ts';

/** Required trimmed text with the screen's own message for empty / wrong-typed input. */
export function requiredText(message: string, max = 255, tooLong: string = message) {
  return z.string({ error: message }).trim().min(1, message).max(max, tooLong);
}

/** Optional text: absent, null and '' all mean empty. */
export function optionalText(max = 255, tooLong: string = common.badParameter) {
  return z.preprocess(
    (v) => (v == null ? '' : v),
    z.string({ error: common.badParameter }).trim().max(max, tooLong),
  );
}

/** A database id that may come as a number or a numeric string (form bodies); '' / null mean none. */
export const optionalId = z.preprocess(
  (v) => (v === '' || v === null ? undefined : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
  z.number({ error: common.badParameter }).int(common.badParameter).positive(common.badParameter).optional(),
);

export const requiredId = z.preprocess(
  (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
  z.number({ error: common.badParameter }).int(common.badParameter).positive(common.badParameter),
);

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
  page: z.coerce.number({ error: common.badParameter }).int().min(1).catch(1).default(1),
  limit: z.coerce.number({ error: common.badParameter }).int().min(1).max(200).catch(10).default(10),
  sortField: optionalText(64),
  sortOrder: z.enum(['ascend', 'descend', '']).catch('').default(''),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const pageSizeOptions = [10, 20, 30, 40];

/** ?ids=1,2,3 of the delete calls. */
export const idsRequest = z.object({ ids: idList });
