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

/** A list of ids given as '1,2,3', [1,2,3] or a single id (SPEC's delete?ids=...). */
export const idList = z.preprocess(
  (v) => {
    if (typeof v === 'number') return [v];
    if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
    return v;
  },
  z.array(requiredId, { error: common.idsRequired }).min(1, common.idsRequired).max(1000, common.badParameter),
);

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
