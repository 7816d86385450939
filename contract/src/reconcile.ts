import { z } from 'zod';
import { reconcile as m } from './messages.ts';
import type { Option } from './enums.ts';
import { idOf, optionalIdOf, pageQuery, requiredText, typedText } from './fields.ts';
import { shanghaiDayStart } from './monitor.ts';
import { dayOf } from './order.ts';
import type * as payAnswers from './responses/pay.ts';
import { ReconcileCategory } from './enums.ts';
import { ReconcileResult } from './enums.ts';
import { reconcileCategoryOptions, reconcileResultOptions } from './reconcileLabels.ts';
export { ReconcileResult };
export { ReconcileCategory };

// 对账 (/pay/Reconcile): a run per (Beijing day, 支付配置) compares the gateway's bill with our
// orders and refunds of that day in integer fen; each difference is kept with both sides until an operator
// marks it handled. Amounts are integer fen in the tables and yuan text ('12.50') here.

/** '' (all) or one of the values. */
function oneOfText<V extends string>(options: Option<V>[], message: string) {
  const values = options.map((o) => o.value) as string[];
  return z.preprocess(
    (v) => (v === '' || v == null ? undefined : v),
    z.string({ error: message }).refine((v) => values.includes(v), message).transform((v) => v as V).optional(),
  );
}

const withDayOrder = <T extends { start: string; end: string }>(q: T) => !q.start || !q.end || q.start <= q.end;

export const reconcileRunListQuery = pageQuery
  .extend({
    configId: optionalIdOf(m.configInvalid),
    deptId: optionalIdOf(m.configInvalid),
    result: oneOfText(reconcileResultOptions, m.resultInvalid),
    start: dayOf(m.startInvalid),
    end: dayOf(m.endInvalid),
  })
  .refine(withDayOrder, { message: m.dateOrder, path: ['end'] });
export type ReconcileRunListQuery = z.infer<typeof reconcileRunListQuery>;
export const reconcileRunSortFields = ['day'] as const;

export const reconcileDiffListQuery = pageQuery.extend({
  runId: idOf(m.runRequired),
  category: oneOfText(reconcileCategoryOptions, m.categoryInvalid),
  handled: z.preprocess(
    (v) => (v === '' || v == null ? undefined : v === '1' || v === 1 || v === true ? 1 : v === '0' || v === 0 || v === false ? 0 : v),
    z.union([z.literal(0), z.literal(1)], { error: m.handledInvalid }).optional(),
  ),
});
export type ReconcileDiffListQuery = z.infer<typeof reconcileDiffListQuery>;
export const reconcileDiffSortFields = ['diffId'] as const;

/** 对账 (the button): a day before today (Beijing), and one 支付配置 or, absent, every one in the caller's scope. */
export const reconcileRunRequest = z.object({
  day: z.preprocess((v) => (v == null ? '' : v), typedText(m.dayInvalid).trim().min(1, m.dayRequired).refine((v) => shanghaiDayStart(v) !== undefined, m.dayInvalid)),
  configId: optionalIdOf(m.configInvalid),
});
export type ReconcileRunRequest = z.infer<typeof reconcileRunRequest>;

export const reconcileHandleRequest = z.object({
  diffId: idOf(m.diffRequired),
  note: requiredText(m.noteRequired, 200, m.noteTooLong),
});
export type ReconcileHandleRequest = z.infer<typeof reconcileHandleRequest>;

/** A run as the list shows it. */
export type ReconcileRun = z.output<typeof payAnswers.reconcileRunRow>;

/** A difference with both sides ('' / null where a side has no row). */
export type ReconcileDiff = z.output<typeof payAnswers.reconcileDiffRow>;

export type ReconcileConfigChoice = z.output<typeof payAnswers.reconcileConfigChoice>;
export type ReconcileRunAnswer = z.output<typeof payAnswers.reconcileRunAnswer>;
