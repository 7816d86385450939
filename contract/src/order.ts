import { z } from 'zod';
import { order as m } from './messages.ts';
import { orderStatusOptions, payTypeOptions } from './enums.ts';
import { optionalIdOf, optionalText, pageQuery, requiredText, typedText, idOf } from './fields.ts';
import { yuanToFen } from './money.ts';
import { MACHINE_NO_PATTERN } from './machine.ts';
import { shanghaiDayStart } from './monitor.ts';
import type * as payAnswers from './responses/pay.ts';

// 交易订单 (/pay/Order, SPEC §2.5): the list query and the row (the labels and tag colours
// of its numbers are in orderLabels.ts). Amounts are integer fen in pay_order and yuan text ('12.50', '-3.00') here.

/** '' (all) or one of the listed numbers; form bodies send them as text. */
function oneOf(values: readonly number[], message: string) {
  return z.preprocess(
    (v) => (v === '' || v == null ? undefined : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v),
    z.number({ error: message }).int(message).refine((v) => values.includes(v), message).optional(),
  );
}

/** A day 'YYYY-MM-DD' (Asia/Shanghai) or '' (open): the day filters of 交易订单 and 支付告警. */
export function dayOf(message: string) {
  return z.preprocess(
    (v) => (v == null ? '' : v),
    typedText(message).trim().refine((v) => v === '' || shanghaiDayStart(v) !== undefined, message),
  );
}

/** An exact number (order or transaction): text without control characters, at most 64 characters. */
const exactNo = (message: string) => optionalText(64, message, { invalid: message });

export const orderListQuery = pageQuery
  .extend({
    /** The terminal number, exactly (pay_order_machine_time serves the page in order). */
    machineNo: optionalText(32, m.machineNoInvalid, { invalid: m.machineNoInvalid }).refine((v) => v === '' || MACHINE_NO_PATTERN.test(v), m.machineNoInvalid),
    orderNo: exactNo(m.orderNoInvalid),
    transId: exactNo(m.transIdInvalid),
    payType: oneOf(payTypeOptions.map((o) => o.value), m.payTypeInvalid),
    orderStatus: oneOf(orderStatusOptions.map((o) => o.value), m.orderStatusInvalid),
    /** One company of the caller's scope; absent: all of them. */
    deptId: optionalIdOf(m.deptInvalid),
    start: dayOf(m.startInvalid),
    end: dayOf(m.endInvalid),
  })
  .refine((q) => !q.start || !q.end || q.start <= q.end, { message: m.dateOrder, path: ['end'] });
export type OrderListQuery = z.infer<typeof orderListQuery>;

export const orderDetailRequest = z.object({ orderId: idOf(m.orderRequired) });

/**
 * The idempotency key the 退款 dialog makes once per opening: a double click or a retry sends the same key.
 * Never ':' — the automatic refund's key (server order/refund.ts AUTO_REFUND_KEY) lies outside it.
 */
export const REFUND_KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * A refund amount as the console sends it: plain decimal text — no sign, space, exponent or leading zero, two
 * decimals at most. Money takes no guess: a JSON number (1e2 and 100 read the same), ' 1.00', '1.00\n' and
 * '0000001' are refused, not read at their value.
 */
const PLAIN_YUAN = /^(0|[1-9]\d{0,6})(\.\d{1,2})?$/;

/** 退款: an amount in yuan (two decimals at most) of the order's refundable amount. */
export const orderRefundRequest = z.object({
  orderId: idOf(m.orderRequired),
  amount: z
    .union([z.string(), z.number()], { error: m.refundAmountRequired })
    .refine((v) => String(v).trim() !== '', m.refundAmountRequired)
    .refine((v) => typeof v === 'string' && PLAIN_YUAN.test(v), m.refundAmountFormat)
    .transform((v) => yuanToFen(v) ?? -1)
    .refine((fen) => fen > 0, m.refundAmountFormat),
  reason: requiredText(m.refundReasonRequired, 100, m.refundReasonTooLong),
  requestKey: typedText(m.refundKeyInvalid).regex(REFUND_KEY_PATTERN, m.refundKeyInvalid),
});
export type OrderRefundRequest = z.input<typeof orderRefundRequest>;

/** What 退款 answers: the refund row (13 退款成功, 12 退款中 or 14 退款失败) and the order after it. */
export type OrderRefundResult = z.output<typeof payAnswers.orderRefundResult>;

/**
 * Only the time sorts: every filter's index ends in (createTime, orderId), so the page is read in
 * index order; sorting by amount or status would read every matching row (docs/performance.md).
 */
export const orderSortFields = ['createTime'] as const;

/** An order as the list, the preview and the export show it. */
export type Order = z.output<typeof payAnswers.orderRow>;

/** The preview: the order and its refunds (refund rows, newest first). */
export type OrderDetail = z.output<typeof payAnswers.orderDetail>;
