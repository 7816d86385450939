import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fill, messages } from '@huiyun/contract';
import { refundStatuses, refusal, saleStatuses, statusLabel, transition, transitions, type OrderEvent } from './state-machine.ts';
import { announceMovesTo } from './status-waiters.ts';
import { order, t, useTerminalApp } from '../terminal/terminal-fixture.ts';

// The order state machine's edge table, pair by pair.

const tm = messages.terminal;
useTerminalApp();

describe('the order state machine: every edge by its name', () => {
  const events = Object.keys(transitions) as OrderEvent[];
  it('moves exactly the allowed (status, event) pairs; the others change nothing and say why', async () => {
    const now = Date.now();
    const announced: number[] = []; // the moves other instances hear of: those a machine's poll waits for
    const stopAnnouncing = announceMovesTo((orderId) => announced.push(orderId));
    for (const status of [...saleStatuses, ...refundStatuses]) {
      for (const event of events) {
        const orderNo = `SM-${status}-${event}-${randomBytes(3).toString('hex')}`;
        const { orderId } = await t.ctx.db.insertInto('pay_order').values({ deptId: 1, orderNo, payType: 3, transType: 1, machineNo: `SM-${orderNo}`, goodsPrice: 100, payAmount: 100, orderStatus: status, createTime: now, payTime: null })
          .returning('orderId').executeTakeFirstOrThrow();
        const result = await transition(t.ctx.db, orderId, event, now);
        const after = (await order(orderNo)).orderStatus;
        const allowed = transitions[event].from.includes(status);
        expect(result.moved, `${status} ${event}`).toBe(allowed);
        expect(announced.includes(orderId), `${status} ${event} announced`).toBe(allowed && (event === 'paid' || event === 'close'));
        if (allowed) expect(after).toBe(transitions[event].to);
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
