import { expect, it } from 'vitest';
import { machineCodeOf, messageIdOf } from './device-loop.ts';
import { formatStatus, formatSummary, newPhoneStats } from './status.ts';

it('derives a stable machineCode from the phone id and SIM, within the protocol\'s characters and 64', () => {
  expect(machineCodeOf('84ieRkAPC9coCb8_YXeXt', 1)).toBe('smsgate-84ieRkAPC9coCb8_YXeXt-sim1');
  expect(machineCodeOf('a b/c+d', 2)).toBe('smsgate-a-b-c-d-sim2');
  const long = machineCodeOf('x'.repeat(100), 3);
  expect(long).toHaveLength(64);
  expect(long).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
  expect(long.endsWith('-sim3')).toBe(true);
});

it('names each send by number and attempt, and test-phone items by batch and place, within SMSGate\'s 36', () => {
  const batch = { batchId: 'b_0f6c1e2d3c4b5a69788796a5b4c3d2e1' };
  expect(messageIdOf(batch, { id: 90817, test: false, attempt: 0 }, 0)).toBe('hy90817a0');
  expect(messageIdOf(batch, { id: 90817, test: false, attempt: 2 }, 5)).toBe('hy90817a2');
  const test = messageIdOf(batch, { id: null, test: true, attempt: 0 }, 999);
  expect(test).toBe('hyt3c4b5a69788796a5b4c3d2e1999');
  expect(test.length).toBeLessThanOrEqual(36);
  expect(messageIdOf(batch, { id: Number.MAX_SAFE_INTEGER, test: false, attempt: 99 }, 0).length).toBeLessThanOrEqual(36);
});

it('shows one line per phone and a summary', () => {
  const stats = { ...newPhoneStats('销售部-小米13'), machineCode: 'smsgate-p-sim1', phase: 'limited' as const, sent: 12, failed: 1, delivered: 10, inPhone: 2 };
  expect(formatStatus(stats)).toBe('销售部-小米13 [限额已满] · sent 12 · failed 1 · delivered 10 · undelivered 0 · in phone 2 · replies 0 · batches 0');
  expect(formatSummary([stats], 61)).toContain('total: sent 12, failed 1, delivered 10, undelivered 0, replies 0');
});
