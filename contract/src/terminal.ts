import { z } from 'zod';
import { deviceText, requiredText } from './fields.ts';
import { terminal as t } from './messages.ts';
import type * as payAnswers from './responses/pay.ts';

// The terminal protocol's bodies (docs/terminal-protocol.md). Amounts are yuan strings with two decimals.

export const TERMINAL_PREFIX = '/terminal/v1';
/** The allowed distance between the machine's timestamp and the server's clock. */
export const TERMINAL_WINDOW_SECONDS = 300;
export const terminalHeaders = { machineNo: 'x-machine-no', timestamp: 'x-timestamp', nonce: 'x-nonce', signature: 'x-signature' } as const;

// Refused with control characters like every typed id (PostgreSQL cannot even compare a text holding U+0000:
// the contract fuzz found POST /order/status answering 500 on one).
const aisleNo = requiredText(t.aisleNo, 16, t.aisleNo, { invalid: t.aisleNo });
const orderNo = requiredText(t.orderNo, 64, t.orderNo, { invalid: t.orderNo });

/**
 * Whether an order (or refund) number from outside has an order number's shape — the terminal routes' check
 * (1–64 characters, no control character, nothing to trim). Every public route asks it before any query.
 */
export const isOrderNo = (value: unknown): value is string => typeof value === 'string' && orderNo.safeParse(value).data === value;

export const terminalCreateOrderSchema = z.object({
  aisleNo,
  payType: z.number({ error: t.payType }).int(t.payType).min(1, t.payType).max(99, t.payType),
});
export type TerminalCreateOrder = z.infer<typeof terminalCreateOrderSchema>;
export type TerminalOrderCreated = z.output<typeof payAnswers.terminalOrderCreated>;

export const terminalOrderStatusSchema = z.object({
  orderNo,
  /** Long-poll: answer as soon as the status differs from knownStatus, or after waitSeconds (≤ 30). */
  knownStatus: z.number().int().optional(),
  waitSeconds: z.number().min(0).max(30).optional(),
});
export type TerminalOrderStatus = z.output<typeof payAnswers.terminalOrderStatus>;

export const terminalDispenseSchema = z.object({
  orderNo,
  success: z.boolean({ error: '出货结果（success）' }),
  /** The aisle's state after the attempt: 1 normal, 0 faulty (the aisle is then disabled). */
  aisleStatus: z.number().int().min(0).max(1).optional(),
  /** Free text from the machine: cleaned, never a reason to refuse the report (fields.ts deviceText). */
  message: deviceText(255),
});
export type TerminalDispense = z.infer<typeof terminalDispenseSchema>;

export const terminalHeartbeatSchema = z.object({
  aisles: z.array(z.object({ aisleNo, stock: z.number({ error: t.aisles }).int(t.aisles).min(0, t.aisles).max(100000, t.aisles) }), { error: t.aisles }).max(1000, t.aisles).default([]),
});
export type TerminalHeartbeat = z.infer<typeof terminalHeartbeatSchema>;
