import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fill, messages } from '@huiyun/contract';
import { refundStatuses, refusal, saleStatuses, statusLabel, transition, transitions, type OrderEvent } from './state-machine.ts';
import { announceMovesTo } from './status-waiters.ts';
import { insertOrder } from '../../../test/orders.ts';
import { order, t, useTerminalApp } from '../../../test/terminal-fixture.ts';

// The order state machine's edge table, pair by pair.

const tm = messages.terminal;
useTerminalApp();

// The expected edges, written out here from the statuses of SPEC §3 rather than read from the product's table:
//   a sale:   1 初始化 → 10 处理中 → 2 已支付 → 3 出货成功 | 4 出货失败; 1/10 → 5 订单超时; 5 → 5 a late payment;
//   a refund: 11 退款初始化 → 12 退款中 → 13 退款成功 | 14 退款失败.
const EDGES: Record<OrderEvent, Record<number, number>> = {
  issueQr: { 1: 10 },
  paid: { 1: 2, 10: 2 },
  dispensed: { 2: 3 },
  dispenseFailed: { 2: 4 },
  close: { 1: 5, 10: 5 },
  markLatePayment: { 5: 5 },
  startRefund: { 11: 12 },
  refundSucceeded: { 12: 13 },
  refundFailed: { 12: 14 },
};
const STATUSES = [1, 10, 2, 3, 4, 5, 11, 12, 13, 14];
// the moves a machine's poll waits for (paid or closed): told to other instances too
const ANNOUNCED: readonly OrderEvent[] = ['paid', 'close'];

describe('the order state machine: every edge by its name', () => {
  const events = Object.keys(EDGES) as OrderEvent[];
  it('has the events and statuses written out here', () => {
    expect(Object.keys(transitions).sort()).toEqual([...events].sort());
    expect([...saleStatuses, ...refundStatuses].sort((a, b) => a - b)).toEqual([...STATUSES].sort((a, b) => a - b));
  });

  it('moves exactly the allowed (status, event) pairs; the others change nothing and say why', async () => {
    const now = Date.now();
    const announced: number[] = []; // the moves other instances hear of: those a machine's poll waits for
    const stopAnnouncing = announceMovesTo((orderId) => announced.push(orderId));
    for (const status of STATUSES) {
      for (const event of events) {
        const orderNo = `SM-${status}-${event}-${randomBytes(3).toString('hex')}`;
        const orderId = await insertOrder(t.ctx.db, { orderNo, machineNo: `SM-${orderNo}`, orderStatus: status, createTime: now, payTime: null });
        const result = await transition(t.ctx.db, orderId, event, now);
        const after = (await order(orderNo)).orderStatus;
        const to = EDGES[event][status];
        expect(result.moved, `${status} ${event}`).toBe(to !== undefined);
        expect(announced.includes(orderId), `${status} ${event} announced`).toBe(to !== undefined && ANNOUNCED.includes(event));
        if (to !== undefined) expect(after, `${status} ${event}`).toBe(to);
        else {
          expect(after).toBe(status);
          expect(result).toMatchObject({ moved: false, status, reason: refusal(status, event) });
          expect(refusal(status, event)).toBe(fill(tm.transitionRefused, { status: statusLabel(status), event: tm.events[event] }));
        }
      }
    }
    stopAnnouncing();
  });
});
