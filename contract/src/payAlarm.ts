import { z } from 'zod';
import { payAlarm as m } from './messages.ts';
import type { PayAlarmKind } from './enums.ts';
import { payAlarmKindOptions } from './payAlarmLabels.ts';
import { optionalIdOf, optionalText, pageQuery } from './fields.ts';
import { MACHINE_NO_PATTERN } from './machine.ts';
import { dayOf } from './order.ts';
import type * as payAnswers from './responses/pay.ts';

// 支付告警 (/pay/Alarm): the list query and the row. The kinds' labels and tag colours are in
// payAlarmLabels.ts (apart from the zod schemas, like orderLabels.ts).

const kinds = payAlarmKindOptions.map((o) => o.value) as string[];

export const payAlarmListQuery = pageQuery
  .extend({
    /** '' (all) or one PayAlarmKind. */
    kind: z.preprocess(
      (v) => (v === '' || v == null ? undefined : v),
      z.string({ error: m.kindInvalid }).refine((v) => kinds.includes(v), m.kindInvalid).transform((v) => v as PayAlarmKind).optional(),
    ),
    orderNo: optionalText(64, m.orderNoInvalid, { invalid: m.orderNoInvalid }),
    /** The terminal number, exactly. */
    machineNo: optionalText(32, m.machineNoInvalid, { invalid: m.machineNoInvalid }).refine((v) => v === '' || MACHINE_NO_PATTERN.test(v), m.machineNoInvalid),
    /** One company of the caller's scope; absent: all of them. */
    deptId: optionalIdOf(m.deptInvalid),
    start: dayOf(m.startInvalid),
    end: dayOf(m.endInvalid),
  })
  .refine((q) => !q.start || !q.end || q.start <= q.end, { message: m.dateOrder, path: ['end'] });
export type PayAlarmListQuery = z.infer<typeof payAlarmListQuery>;

/** Only the time sorts: every filter's index ends in (createTime, alarmId). */
export const payAlarmSortFields = ['createTime'] as const;

/** An alarm as the list shows it. */
export type PayAlarm = z.output<typeof payAnswers.payAlarmRow>;
