import { fenToYuan, fill, isOrderNo, messages, TransType } from '@huiyun/contract';
import { compiledOnce } from '../../../db/compiled-once.ts';
import type { RefundState } from '../gateways/index.ts';
import { recordAlarm } from '../alarms/index.ts';
import { verifiedWith, type NotifyAnswer, type NotifyHeaders } from './notify.ts';
import { accountOf } from './pay-account.ts';
import { loadOrder, settleRefundWatched } from './refund.ts';
import type { Log, PaymentRuntime } from './runtime.ts';

// A gateway's refund notification (/gateway/<gateway>/refund-notify/<refundNo>): the refund row is found by
// the path's number, its 支付配置 opened, the raw body verified with it — nothing is written before that
// holds —, cross-checked (refund number, order number, amount in fen), and its outcome fed to the refund
// state machine (refundSucceeded / refundFailed, once). An unsigned one (WeChat APIv2) is confirmed by a
// refund query instead of being believed.

const t = messages.terminal;

const refundByNo = compiledOnce((db, v: { refundNo: string }) => db.selectFrom('pay_order').selectAll().where('orderNo', '=', v.refundNo).where('transType', '=', TransType.refund));

export async function handleRefundNotification(rt: PaymentRuntime, gatewayName: string, refundNo: string, rawBody: string, headers: NotifyHeaders, log?: Log): Promise<NotifyAnswer> {
  const { ctx } = rt;
  const gateway = rt.gateways.get(gatewayName);
  if (!gateway?.verifyRefundNotification) return { ok: false, message: fill(t.gatewayUnknown, { gateway: gatewayName.slice(0, 32) }) };
  const refund = isOrderNo(refundNo) ? (await refundByNo(ctx.db, { refundNo }))[0] : undefined;
  const parent = refund?.parentId ? await loadOrder(ctx.db, refund.parentId) : undefined;
  if (!refund || !parent) {
    rt.strangers.warn(log, 'unknownRefund', { refundNo: refundNo.slice(0, 64) }, 'payment alarm: refund notification for an unknown refund');
    return { ok: false, message: t.refundNotifyUnknown };
  }
  const verified = await verifiedWith(rt, { gatewayName, config: await accountOf(rt, refund, log), order: refund, alarmOn: parent, log }, (c) => gateway.verifyRefundNotification!(c, rawBody, headers));
  if (!verified.ok) return verified.answer;
  const { value: note, config } = verified;
  const mismatch = note.refundNo !== refund.orderNo || note.orderNo !== parent.orderNo ? 'orderNo' : note.amount !== -refund.payAmount ? 'amount' : undefined;
  if (mismatch) {
    const a = messages.payAlarm;
    const detail = mismatch === 'amount' ? fill(a.detailNotifyAmount, { paid: fenToYuan(note.amount), order: fenToYuan(-refund.payAmount) }) : fill(a.detailNotifyField, { field: a.notifyFieldOrderNo });
    await recordAlarm(ctx, log, 'notifyMismatch', parent, detail);
    return { ok: false, message: fill(t.notifyMismatch, { field: mismatch }) };
  }
  let state: RefundState = { state: note.state };
  if (gateway.confirmsRefundByQuery) {
    try {
      state = await gateway.queryRefund(config, refund.orderNo, parent.orderNo);
    } catch (error) {
      log?.error({ err: error, refundNo: refund.orderNo }, 'refund notification: the confirming query failed (the gateway notifies again)');
      return { ok: false, message: t.gatewayFailed };
    }
  }
  // success / failed move the refund once (a repeat changes nothing); processing leaves it to the next word
  await settleRefundWatched(ctx, refund, parent, state, log);
  return { ok: true, message: state.state };
}
