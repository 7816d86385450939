import type { PayAlarmKind } from '@huiyun/contract';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../../context.ts';
import type { Database } from '../../../db/schema.ts';

// The one writer of 支付告警 rows (pay_alarm): the payment half calls it for what a gateway signed and still
// does not fit, a late payment, an automatic refund that failed. What strangers send is only logged
// (throttled-warnings.ts).

type Order = Selectable<Database['pay_order']>;

/** An alarm row (支付告警) about an order: it carries the order's company and terminal (the screen's data scope). */
export async function recordAlarm(ctx: AppContext, log: { warn: (obj: object, msg: string) => void } | undefined, kind: PayAlarmKind, order: Pick<Order, 'orderNo' | 'deptId' | 'machineNo'>, detail: string): Promise<void> {
  const orderNo = order.orderNo;
  log?.warn({ alarm: kind, orderNo, detail }, `payment alarm: ${kind}`);
  await ctx.db.insertInto('pay_alarm').values({
    kind, orderNo: orderNo.slice(0, 64), deptId: order.deptId, machineNo: order.machineNo.slice(0, 32), detail: detail.slice(0, 500), createTime: ctx.now(),
  }).execute();
}

